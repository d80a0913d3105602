// The content scripts of the built extension, as its manifest declares them: they run in every frame of every page
// the user opens, so each has a size budget (tests/e2e/content-script-size.test.ts holds it; bench/content-scripts.ts
// prints the sizes and what they cost a page).
import fs from "node:fs"
import path from "node:path"

import { EXTENSION_DIR } from "./e2e/browser"

/** Minified bytes a content script may weigh: what every frame of every page parses. */
export const CONTENT_SCRIPT_BUDGET_BYTES = 30 * 1024

export function contentScriptSizes(extensionDir = EXTENSION_DIR): { file: string; bytes: number }[] {
  const manifestFile = path.join(extensionDir, "manifest.json")
  if (!fs.existsSync(manifestFile)) throw new Error(`No built extension in ${extensionDir}: run npm run build:extension first`)
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { content_scripts?: { js?: string[] }[] }
  return (manifest.content_scripts ?? []).flatMap((script) => script.js ?? []).map((file) => ({ file, bytes: fs.statSync(path.join(extensionDir, file)).size }))
}
