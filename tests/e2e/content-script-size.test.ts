// The scripts that run inside web pages stay small and carry no validation library: the declared one runs in every
// frame of every page the user opens, the page index in every frame of a page the side panel looks at
// (bench/content-scripts.ts measures what they cost in script time).
import fs from "node:fs"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { PAGE_TRANSLATION_FILE } from "~extension/messaging/page-translation-messages"

import { contentScriptSizes, CONTENT_SCRIPT_BUDGET_BYTES } from "../content-scripts"
import { EXTENSION_DIR } from "./browser"

/** The page translation script's budget: React's DOM renderer is some 205 KB of it. */
const PAGE_TRANSLATION_BUDGET_BYTES = 256 * 1024

/** Strings only zod's code holds: a script that shows one has pulled in the validation library. */
const ZOD_MARKERS = ["ZodError", "$ZodType", "invalid_type"]

describe("the scripts the built extension runs in pages", () => {
  const scripts = contentScriptSizes()

  it("declare only the on-image button for every page; the page index is injected when the side panel asks", () => {
    const named = scripts.map(({ file, runs }) => ({ file: file.replace(/\.[0-9a-f]+\.js$/, ".js"), runs }))
    expect(named).toEqual([
      { file: "image-button.js", runs: "every frame" },
      { file: "page-index.js", runs: "on demand" }
    ])
    expect(fs.existsSync(path.join(EXTENSION_DIR, "page-index.js"))).toBe(true)
  })

  it.each(scripts.map((script) => [script.file, script.bytes] as const))(`%s stays within ${CONTENT_SCRIPT_BUDGET_BYTES / 1024} KB`, (_file, bytes) => {
    expect(bytes).toBeGreaterThan(0)
    expect(bytes).toBeLessThanOrEqual(CONTENT_SCRIPT_BUDGET_BYTES)
  })

  it.each(scripts.map(({ file }) => file))("%s carries no validation library", (file) => {
    const code = fs.readFileSync(path.join(EXTENSION_DIR, file), "utf8")
    expect(ZOD_MARKERS.filter((marker) => code.includes(marker))).toEqual([])
  })

  // React and the design system's TranslatedLayer: it runs only in the frames of a tab whose person turned on
  // *Translate images on this page*, and only while it is on. The budget keeps it from growing unseen.
  it(`the page translation, injected only while the mode is on, stays within ${PAGE_TRANSLATION_BUDGET_BYTES / 1024} KB and carries no validation library`, () => {
    const file = path.join(EXTENSION_DIR, PAGE_TRANSLATION_FILE)
    expect(fs.statSync(file).size).toBeLessThanOrEqual(PAGE_TRANSLATION_BUDGET_BYTES)
    const code = fs.readFileSync(file, "utf8")
    expect(ZOD_MARKERS.filter((marker) => code.includes(marker))).toEqual([])
  })
})
