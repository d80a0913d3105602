// @vitest-environment node
// The site's feature rule of eslint.config.js: a file of a feature (a folder of src/site/) imports no other feature,
// by the ~site alias or a relative path; what features share is in src/site/shared/, which imports no feature; the
// app's files at src/site/ compose features, and tests are free to drive the whole app.
import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

const eslint = new ESLint({ cwd: process.cwd() })
/** The first lint loads the TypeScript resolver the rule resolves imports with: seconds on a busy machine. */
const LINT_TIMEOUT_MS = 30_000

async function featureErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = planted\n`, { filePath })
  return result!.messages.filter((message) => message.ruleId === "import-x/no-restricted-paths").map((message) => message.message)
}

describe("site features, apart but for src/site/shared/", { timeout: LINT_TIMEOUT_MS }, () => {
  it.each([
    ["src/site/pricing/planted.ts", 'import { blogKeys as planted } from "~site/blog/blog-requests"'],
    ["src/site/pricing/planted.ts", 'import { blogKeys as planted } from "../blog/blog-requests"'],
    ["src/site/admin/users/planted.ts", 'import { blogKeys as planted } from "../../blog/blog-requests"'],
    ["src/site/dashboard/planted.tsx", 'import { ApiKeysCard as planted } from "~site/api-keys/ApiKeysCard"'],
    ["src/site/sign-in/planted.ts", 'export { blogKeys as planted } from "../blog/blog-requests"']
  ])("refuses in %s: %s", async (filePath, source) => {
    const errors = await featureErrors(filePath, source)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain("Site features: a feature imports no other; what two use lives in src/site/shared/")
  })

  it("refuses a feature in src/site/shared/", async () => {
    const errors = await featureErrors("src/site/shared/planted.ts", 'import { blogKeys as planted } from "~site/blog/blog-requests"')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain("src/site/shared/ imports no feature")
  })

  it.each([
    ["src/site/pricing/planted.ts", 'import { failureText as planted } from "~site/shared/failure-text"'],
    ["src/site/pricing/planted.ts", 'import { failureText as planted } from "../shared/failure-text"'],
    ["src/site/admin/users/planted.ts", 'import { DataTable as planted } from "../../shared/DataTable"'],
    ["src/site/admin/users/planted.ts", 'import { adminKeys as planted } from "../admin-requests"'],
    ["src/site/shared/billing/planted.ts", 'import { failureText as planted } from "../failure-text"'],
    ["src/site/planted-route.tsx", 'import { ApiKeysCard as planted } from "./api-keys/ApiKeysCard"'],
    ["src/site/pricing/planted.test.tsx", 'import { blogKeys as planted } from "~site/blog/blog-requests"']
  ])("allows in %s: %s", async (filePath, source) => {
    expect(await featureErrors(filePath, source)).toEqual([])
  })
})
