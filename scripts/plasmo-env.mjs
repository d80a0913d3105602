// The environment `plasmo build` inlines into an extension build, read the way Plasmo reads it: the steps after its
// build (scripts/copy-extension-assets.mjs, scripts/site-mount-build.mjs) and the source package's build note must agree
// with it on every variable.
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseEnv } from "node:util"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/**
 * The .env files `plasmo build` reads for a browser ("chrome", "firefox"), mode and tag, in its order: for each
 * variable the first file naming it wins, and the process's environment wins over all of them.
 */
export const plasmoEnvFiles = (browser, mode, tag) => [
  `.env.${browser}.local`,
  `.env.${tag}.local`,
  `.env.${mode}.local`,
  ".env.local",
  `.env.${browser}`,
  `.env.${tag}`,
  `.env.${mode}`,
  ".env"
]

/** The mode of a Plasmo build folder (<browser>-mv3-dev or -prod): "development" or "production". */
export function buildMode(buildDir) {
  return path.basename(buildDir).endsWith("-dev") ? "development" : "production"
}

/** The environment `plasmo build` inlined for the build in `buildDir` (without dotenv-expand's $VAR expansion). */
export function plasmoEnv(buildDir, dir = root) {
  const [browser, , tag] = path.basename(buildDir).split("-")
  const fromFiles = {}
  for (const file of plasmoEnvFiles(browser, buildMode(buildDir), tag)) {
    const full = path.join(dir, file)
    if (!fs.existsSync(full)) continue
    for (const [key, value] of Object.entries(parseEnv(fs.readFileSync(full, "utf8")))) fromFiles[key] ??= value
  }
  return { ...fromFiles, ...process.env }
}
