// The scripts that run in every frame of every page stay small and carry no validation library: their weight is
// paid by every page the user opens (bench/content-scripts.ts measures what it costs in script time).
import fs from "node:fs"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { contentScriptSizes, CONTENT_SCRIPT_BUDGET_BYTES } from "../content-scripts"
import { EXTENSION_DIR } from "./browser"

/** Strings only zod's code holds: a content script that shows one has pulled in the validation library. */
const ZOD_MARKERS = ["ZodError", "$ZodType", "invalid_type"]

describe("the content scripts of the built extension", () => {
  const scripts = contentScriptSizes()

  it("are declared (the image button and the image finder)", () => {
    expect(scripts.map(({ file }) => file.replace(/\.[0-9a-f]+\.js$/, ".js")).sort()).toEqual(["image-button.js", "image-detector.js"])
  })

  it.each(scripts.map((script) => [script.file, script.bytes] as const))(`%s stays within ${CONTENT_SCRIPT_BUDGET_BYTES / 1024} KB`, (_file, bytes) => {
    expect(bytes).toBeLessThanOrEqual(CONTENT_SCRIPT_BUDGET_BYTES)
  })

  it.each(scripts.map(({ file }) => file))("%s carries no validation library", (file) => {
    const code = fs.readFileSync(path.join(EXTENSION_DIR, file), "utf8")
    expect(ZOD_MARKERS.filter((marker) => code.includes(marker))).toEqual([])
  })
})
