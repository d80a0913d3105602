// The scripts of the built extension that run inside web pages: the declared content scripts, which run in every
// frame of every page the user opens, and the page index, which the side panel injects into a tab's frames when it
// asks for their images. Each has a size budget (tests/e2e/content-script-size.test.ts holds it;
// bench/content-scripts.ts prints the sizes and what they cost a page).
import fs from "node:fs"
import path from "node:path"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"

import { EXTENSION_DIR } from "./e2e/browser"

/** Minified bytes a script in a page may weigh: what every frame of every page parses. */
export const CONTENT_SCRIPT_BUDGET_BYTES = 30 * 1024

export interface PageScript {
  file: string
  bytes: number
  /** Declared in the manifest (every frame of every page), or injected by the side panel when used. */
  runs: "every frame" | "on demand"
}

export function contentScriptSizes(extensionDir = EXTENSION_DIR): PageScript[] {
  const manifestFile = path.join(extensionDir, "manifest.json")
  if (!fs.existsSync(manifestFile)) throw new Error(`No built extension in ${extensionDir}: run npm run build:extension first`)
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { content_scripts?: { js?: string[] }[] }
  const sizeOf = (file: string) => (fs.existsSync(path.join(extensionDir, file)) ? fs.statSync(path.join(extensionDir, file)).size : 0)
  const declared = (manifest.content_scripts ?? []).flatMap((script) => script.js ?? [])
  return [
    ...declared.map((file) => ({ file, bytes: sizeOf(file), runs: "every frame" as const })),
    { file: PAGE_INDEX_FILE, bytes: sizeOf(PAGE_INDEX_FILE), runs: "on demand" as const }
  ]
}
