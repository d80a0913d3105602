// @vitest-environment node
// The unit files share one process and one page: a global or a prototype method replaced by assignment outlives the
// file that did it, so the linter refuses it in test files and asks for vi.spyOn or vi.stubGlobal.
import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

const eslint = new ESLint({ cwd: process.cwd() })

async function restrictedSyntax(source: string, filePath = "src/site/planted.test.tsx"): Promise<string[]> {
  const [result] = await eslint.lintText(`import { vi } from "vitest"\n${source}\n`, { filePath })
  return result!.messages.filter((message) => message.ruleId === "no-restricted-syntax").map((message) => message.message)
}

describe("globals in unit test files, held by the linter", { timeout: 30_000 }, () => {
  it.each([
    ["Element.prototype.scrollIntoView = vi.fn()", "vi.spyOn"],
    ["window.scrollTo = vi.fn()", "vi.stubGlobal or vi.spyOn"],
    ["URL.createObjectURL = () => 'blob:x'", "vi.stubGlobal or vi.spyOn"],
    ["globalThis.fetch = vi.fn()", "vi.stubGlobal or vi.spyOn"]
  ])("refuses %s", async (source, advice) => {
    const messages = await restrictedSyntax(source)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(advice)
  })

  it.each([
    'vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(() => {})',
    'vi.stubGlobal("fetch", vi.fn())',
    'document.body.innerHTML = "<p>page</p>"',
    'window.location.hash = "#/pricing"',
    "const image = new Image(); image.src = 'x.png'"
  ])("allows %s", async (source) => {
    expect(await restrictedSyntax(source)).toEqual([])
  })

  it("leaves product code alone", async () => {
    expect(await restrictedSyntax("window.scrollTo = () => {}", "src/site/planted.tsx")).toEqual([])
  })
})
