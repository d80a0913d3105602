// @vitest-environment node
// The layer rules of eslint.config.js fail on an import across a forbidden layer, and pass the allowed ones; the
// cycle rule fails on two modules that import each other.
import fs from "node:fs"
import path from "node:path"

import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

const eslint = new ESLint({ cwd: process.cwd() })
/** The first lint loads the TypeScript resolver and walks the import graph for the cycle rule: seconds on a busy machine. */
const LINT_TIMEOUT_MS = 30_000

async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = planted\n`, { filePath })
  return result!.messages.filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message)
}

describe("the layers, held by the linter", { timeout: LINT_TIMEOUT_MS }, () => {
  it.each([
    ["src/core/planted.ts", 'import { planted } from "~site/routes"', "core imports nothing of ours"],
    ["src/core/password-policy/planted.ts", 'import { planted } from "../../site/routes"', "core imports nothing of ours"],
    ["src/ui/Planted.tsx", 'import type { ImageSource as planted } from "~analysis/engine"', "the design system knows no data"],
    ["server/planted.ts", 'import { planted } from "~extension/messaging/messages"', "the server imports only core"],
    ["server/auth/planted.ts", 'import { planted } from "../../src/site/routes"', "the server imports only core"],
    ["src/panel/planted.ts", 'import { planted } from "~site/routes"', "the extension reaches the site only through its mount"],
    ["src/background/planted.ts", 'import { planted } from "~site-session/session-store"', "the extension reaches the site only through its mount"],
    ["src/site/planted.ts", 'import { planted } from "~extension/messaging/messages"', "the site never imports the extension's internals"],
    ["src/http/planted.ts", 'import { planted } from "~extension/messaging/messages"', "the site never imports the extension's internals"],
    ["src/site-mount/planted.ts", 'import { planted } from "~panel/panel"', "the site's mount shows the site in an extension page"],
    ["src/extension/in-page/planted.ts", 'import * as planted from "zod"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { useState as planted } from "react"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~panel/analyses"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "../account/account"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~site/routes"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~http/http-client"', "the code in every web page stays tiny"],
    ["src/contents/planted.ts", 'import { Storage as planted } from "@plasmohq/storage"', "the code in every web page stays tiny"],
    // The extension's folders that in-page code may not reach (zod, storage or React behind each), and the check page.
    ["src/extension/in-page/planted.ts", 'import { planted } from "../storage/storage-item"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~extension/site-link/api-origin"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "../browser/side-panel"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~extension/panel-handoff/selected-image"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "../capture/area-capture"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~extension/reverse-search/reverse-search"', "the code in every web page stays tiny"],
    ["src/extension/in-page/planted.ts", 'import { planted } from "../page-translation/surface"', "the code in every web page stays tiny"],
    ["src/contents/planted.ts", 'import { planted } from "~extension/storage/use-storage-item"', "the code in every web page stays tiny"],
    ["src/contents/planted.ts", 'import { planted } from "~engine-check/ocr-sample"', "the code in every web page stays tiny"]
  ])("refuses in %s: %s", async (filePath, source, rule) => {
    const errors = await layerErrors(filePath, source)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(rule)
  })

  it.each([
    ["src/core/planted.ts", 'import { planted } from "./plans"'],
    ["src/ui/Planted.tsx", 'import { percent as planted } from "~core/format"'],
    ["server/planted.ts", 'import { planted } from "~core/billing/plans"'],
    ["src/site-mount/SiteMount.tsx", 'import { SiteApp as planted } from "~site/SiteApp"'],
    ["src/site-mount/SiteMount.tsx", 'import { getApiOrigin as planted } from "~extension/site-link/api-origin"'],
    ["src/panel/planted.ts", 'import { planted } from "~extension/messaging/messages"'],
    ["src/extension/in-page/planted.ts", 'import { planted } from "~core/company"'],
    ["src/extension/in-page/planted.ts", 'import { planted } from "../messaging/messages"'],
    ["src/extension/in-page/planted.ts", 'import { planted } from "./own-nodes"'],
    ["src/contents/planted.ts", 'import { planted } from "~extension/in-page/image-button"'],
    ["src/extension/in-page/planted.test.ts", 'import * as planted from "zod"']
  ])("allows in %s: %s", async (filePath, source) => {
    expect(await layerErrors(filePath, source)).toEqual([])
  })
})

describe("import cycles, refused by the linter", { timeout: LINT_TIMEOUT_MS }, () => {
  it("fails on two modules that import each other", async () => {
    // The rule follows imports on disk: the pair is written for the check and removed after. Not under src/, whose
    // modification times tell npm start whether the web build is current.
    const folder = fs.mkdtempSync(path.resolve("tests/lint/planted-"))
    const files = ["planted-cycle-a.ts", "planted-cycle-b.ts"].map((file) => path.join(folder, file))
    fs.writeFileSync(files[0]!, 'import { b } from "./planted-cycle-b"\nexport const a = (): number => b() + 1\n')
    fs.writeFileSync(files[1]!, 'import { a } from "./planted-cycle-a"\nexport const b = (): number => a() - 1\n')
    try {
      // eslint.config.js ignores the planted folders, lest `npm run lint`, running beside the tests, read them.
      const results = await new ESLint({ cwd: process.cwd(), ignore: false }).lintFiles(files)
      expect(results.map((result) => result.messages.map((message) => message.ruleId))).toEqual([["import-x/no-cycle"], ["import-x/no-cycle"]])
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
