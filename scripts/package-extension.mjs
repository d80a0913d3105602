// Writes the files the stores take, from the production builds (`npm run package` builds them first):
//   build/image-query-ai-chrome-<version>.zip   build/chrome-mv3-prod, for the Chrome Web Store
//   build/image-query-ai-firefox-<version>.zip  build/firefox-mv3-prod, for addons.mozilla.org
//   build/image-query-ai-source-<version>.zip   the sources AMO's reviewers rebuild the Firefox zip from
// <version> is package.json's. A build that is missing, of another version, or lacks a file its manifest names, the
// page index or an engine file (scripts/copy-extension-assets.mjs) is refused with what to run: a store package without
// its engines would install and then fail on the user's first analysis. The zips are deterministic (entries sorted,
// one fixed time), so the same build gives the same bytes and a re-upload can be compared with the last one.
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseEnv } from "node:util"

import { strToU8, unzipSync, zipSync } from "fflate"

import { ENGINE_ASSETS } from "./copy-extension-assets.mjs"
import { plasmoEnvFiles } from "./plasmo-env.mjs"
import { SITE_MOUNT_PAGE } from "./site-mount-build.mjs"

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** Each store package: the build it zips and the npm script that makes that build. */
export const BROWSER_BUILDS = {
  chrome: { dir: "build/chrome-mv3-prod", script: "build:extension" },
  firefox: { dir: "build/firefox-mv3-prod", script: "build:firefox" }
}

/**
 * What the source package holds, of the files git lists (sourceFiles): what `npm ci && npm run build:firefox` reads.
 * The Tailwind config scans web/index.html for class names too, so it is in, or the rebuilt CSS could differ.
 */
const SOURCE_FOLDERS = ["src/", "scripts/", "assets/"]
const SOURCE_FILES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "README.md",
  "LICENSE",
  ".nvmrc",
  ".postcssrc.json",
  "tailwind.config.cjs",
  "web/index.html"
]
/** Tests are no part of the build; leaving them out keeps the reviewers' reading to what ships. */
const NOT_SOURCE = /\.test\.tsx?$|\.test-support\.tsx?$/

/** Local time fields, so the zips' DOS timestamps are the same in every time zone. */
const FIXED_TIME = new Date(2000, 0, 1)
/** The PLASMO_PUBLIC_* variables src/ reads: Plasmo inlines them into the bundles. */
const BAKED_SETTINGS = ["PLASMO_PUBLIC_API_URL", "PLASMO_PUBLIC_SITE_ORIGINS"]
/** Already compressed: deflating them again costs time and saves nothing. */
const STORED = /\.(png|jpe?g|gz|woff2?)$/i
/** Deflate's default: level 9 took a third longer on the Chrome build for a zip 0.1 % (25 KB of 27 MB) smaller. */
const LEVEL = 6

export const zipName = (kind, version) => `image-query-ai-${kind}-${version}.zip`

function filesUnder(dir, prefix = "") {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix + entry.name
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), `${relative}/`) : [relative]
  })
}

/** Writes a zip of `entries` (name -> bytes) in name order, every entry at FIXED_TIME. */
function writeZip(file, entries) {
  const sorted = {}
  for (const name of Object.keys(entries).sort()) {
    sorted[name] = [entries[name], { level: STORED.test(name) ? 0 : LEVEL, mtime: FIXED_TIME }]
  }
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, zipSync(sorted))
  return file
}

/** What the site mount's page (built by Vite, scripts/site-mount-build.mjs) lacks in `dir`: the page, or a file it loads. */
export function siteMountProblems(dir) {
  const page = path.join(dir, SITE_MOUNT_PAGE)
  if (!fs.existsSync(page)) return [`${SITE_MOUNT_PAGE} is missing`]
  const loaded = [...fs.readFileSync(page, "utf8").matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => match[1])
  if (loaded.length === 0) return [`${SITE_MOUNT_PAGE} loads no script`]
  return loaded.filter((file) => !fs.existsSync(path.join(path.dirname(page), file))).map((file) => `${path.posix.join(path.posix.dirname(SITE_MOUNT_PAGE), file)} is missing`)
}

/** The reasons `dir` is not a complete extension build of `version`; empty when it is. */
export async function buildProblems(dir, version) {
  const manifestPath = path.join(dir, "manifest.json")
  if (!fs.existsSync(manifestPath)) return [`there is no build in ${dir}`]
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"))
  const problems = []
  if (manifest.version !== version) problems.push(`it is version ${manifest.version}, package.json says ${version}`)
  const { PAGE_INDEX_FILE } = await pageIndexFile()
  const named = [
    manifest.background?.service_worker,
    ...(manifest.background?.scripts ?? []),
    manifest.action?.default_popup,
    manifest.side_panel?.default_path,
    manifest.sidebar_action?.default_panel,
    ...Object.values(manifest.icons ?? {}),
    ...Object.values(manifest.action?.default_icon ?? {}),
    ...(manifest.content_scripts ?? []).flatMap((script) => [...(script.js ?? []), ...(script.css ?? [])]),
    PAGE_INDEX_FILE
  ].filter(Boolean)
  for (const file of new Set(named)) {
    if (!fs.existsSync(path.join(dir, file))) problems.push(`${file} is missing`)
  }
  problems.push(...siteMountProblems(dir))
  for (const [folder, sources] of Object.entries(ENGINE_ASSETS)) {
    if (!fs.existsSync(path.join(dir, folder))) {
      problems.push(`the engine folder ${folder}/ is missing`)
      continue
    }
    for (const source of sources) {
      const file = path.join(dir, folder, path.basename(source))
      if (!fs.existsSync(file)) problems.push(`engine file ${folder}/${path.basename(source)} is missing`)
      else if (fs.statSync(file).size !== fs.statSync(source).size) problems.push(`engine file ${folder}/${path.basename(source)} differs from ${source}`)
    }
  }
  return problems
}

/** The page index's file name, from the module the side panel injects it with (as copy-extension-assets reads it). */
async function pageIndexFile() {
  const { tsImport } = await import("tsx/esm/api")
  return tsImport("../src/extension/messaging/messages.ts", import.meta.url)
}

/**
 * The build's files as the store takes them. The manifest goes without "key": it only pins the extension's id for
 * unpacked development builds, the Chrome Web Store refuses an upload that has one ("key field is not allowed in
 * manifest") and Firefox identifies the add-on by browser_specific_settings.gecko.id instead. Source maps stay out.
 */
function extensionEntries(dir) {
  const entries = {}
  for (const name of filesUnder(dir)) {
    if (name.endsWith(".map")) continue
    entries[name] = fs.readFileSync(path.join(dir, name))
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"))
  delete manifest.key
  entries["manifest.json"] = strToU8(JSON.stringify(manifest, null, 2))
  return entries
}

/**
 * The files the source package holds: those git tracks, and new ones it does not ignore, since the build reads every
 * file in src/ (a new module not yet committed is still part of it). What .gitignore names (.env, build output,
 * node_modules) never goes in. A tracked file deleted since is skipped.
 */
function sourceFiles(root) {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  return [...new Set(listed.split("\0").filter(Boolean))]
    .filter((file) => SOURCE_FILES.includes(file) || SOURCE_FOLDERS.some((folder) => file.startsWith(folder)))
    .filter((file) => !NOT_SOURCE.test(file) && fs.existsSync(path.join(root, file)))
    .sort()
}

/**
 * Where each public setting the build bakes in came from, as `plasmo build` reads them for a production build for
 * `browser` (plasmoEnvFiles): the environment, then the first .env file naming it.
 * The .env files are not tracked, so the note must tell the reviewer their values.
 */
function bakedSettings(root, browser) {
  const files = plasmoEnvFiles(browser, "production", "prod")
  return BAKED_SETTINGS.map((name) => {
    if (process.env[name] !== undefined) return `- \`${name}=${process.env[name]}\` (from the environment)`
    for (const file of files) {
      const full = path.join(root, file)
      const value = fs.existsSync(full) ? parseEnv(fs.readFileSync(full, "utf8"))[name] : undefined
      if (value !== undefined) return `- \`${name}=${value}\` (from ${file})`
    }
    return `- \`${name}\` unset (the default in src/extension/site-link/${name === "PLASMO_PUBLIC_API_URL" ? "api-origin" : "site-origins"}.ts)`
  })
}

/** The note at the source package's root: how a reviewer gets the Firefox zip's files back from these sources. */
function buildNote(root, version) {
  const node = fs.readFileSync(path.join(root, ".nvmrc"), "utf8").trim()
  return `# Building Image Query AI ${version}

These are the sources of ${zipName("firefox", version)}. With Node ${node} (see .nvmrc) and npm:

\`\`\`sh
npm ci                  # the exact dependency versions of package-lock.json
npm run build:firefox   # the extension in build/firefox-mv3-prod
\`\`\`

build/firefox-mv3-prod then holds the package's files. The one difference is manifest.json: the package's has no
"key" (a Chrome development setting) and is indented. \`npm run build:extension\` builds the Chrome version the same
way into build/chrome-mv3-prod.

\`plasmo build\` bundles src/ (TypeScript and React) with Parcel; scripts/copy-extension-assets.mjs then copies the
analysis engines' files from the installed npm packages into engines/ (tesseract.js, tesseract.js-core,
@tesseract.js-data/eng, @tensorflow/tfjs-backend-wasm, @vladmandic/face-api, @vladmandic/human) and bundles
src/extension/in-page/page-index.entry.ts into page-index.js with esbuild, and builds the companion site's extension page
(src/site-mount/ into tabs/site.html and tabs/site/) with Vite. No code is downloaded at run time; OCR languages other
than English are data files (tesseract models) from our server, checked against the SHA-256 it lists.

The build bakes in two public settings, read from the environment or a .env file; this package was built with
the values below. Set the same ones (in the environment, or in a .env file at the root) before building:
${bakedSettings(root, "firefox").join("\n")}
`
}

/**
 * Writes the store packages of `browsers` and the source package into `outDir`; answers their paths by kind. Throws,
 * naming what to run, when a build is missing or incomplete.
 */
export async function packageExtensions({ root = ROOT, outDir = path.join(root, "build"), browsers = Object.keys(BROWSER_BUILDS) } = {}) {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
  // Every build is checked before any zip is written, so a refused run leaves no partial set behind.
  const refusals = []
  for (const browser of browsers) {
    const { dir, script } = BROWSER_BUILDS[browser]
    const problems = await buildProblems(path.join(root, dir), version)
    if (problems.length > 0) refusals.push(`Cannot package the ${browser} extension: ${problems.join("; ")}. Run npm run ${script} first.`)
  }
  if (refusals.length > 0) throw new Error(refusals.join("\n"))
  const written = {}
  for (const browser of browsers) {
    const dir = path.join(root, BROWSER_BUILDS[browser].dir)
    written[browser] = writeZip(path.join(outDir, zipName(browser, version)), extensionEntries(dir))
  }
  const sources = { "BUILD.md": strToU8(buildNote(root, version)) }
  for (const file of sourceFiles(root)) sources[file] = fs.readFileSync(path.join(root, file))
  written.source = writeZip(path.join(outDir, zipName("source", version)), sources)
  return written
}

/**
 * The site origins on this computer (localhost, 127.x, [::1]) that the build in `dir` trusts: its
 * externally_connectable matches (Chrome) or its site bridge's hosts (Firefox). A production build names them only when
 * told (PLASMO_PUBLIC_SITE_ORIGINS, as npm run build:local does for the tests): a store package should trust none.
 */
export async function loopbackSiteTrust(dir) {
  const { tsImport } = await import("tsx/esm/api")
  const [{ isLoopbackOrigin }, { SITE_BRIDGE_FILE }] = await Promise.all([
    tsImport("../src/extension/site-link/site-origins.ts", import.meta.url),
    tsImport("../src/extension/site-link/site-bridge.ts", import.meta.url)
  ])
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"))
  const bridges = (manifest.content_scripts ?? []).filter((script) => script.js?.includes(SITE_BRIDGE_FILE))
  const patterns = [...(manifest.externally_connectable?.matches ?? []), ...bridges.flatMap((script) => script.matches)]
  return patterns.filter((pattern) => isLoopbackOrigin(pattern.replace(/\/\*$/, "")))
}

/** The entry names of a zip, in its order, without inflating any. */
export function zipEntries(zipPath) {
  const names = []
  unzipSync(fs.readFileSync(zipPath), { filter: (file) => (names.push(file.name), false) })
  return names
}

/** Unpacks a zip into `dir` (created), refusing any entry that would land outside it. */
export function unzipTo(zipPath, dir) {
  const target = path.resolve(dir)
  for (const [name, bytes] of Object.entries(unzipSync(fs.readFileSync(zipPath)))) {
    const file = path.resolve(target, name)
    if (!file.startsWith(target + path.sep)) throw new Error(`${zipPath} has an entry outside its folder: ${name}`)
    if (name.endsWith("/")) continue
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, bytes)
  }
  return target
}

async function main() {
  const started = Date.now()
  try {
    for (const file of Object.values(await packageExtensions())) {
      console.log(`${path.relative(ROOT, file)}: ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB`)
    }
    for (const [browser, { dir }] of Object.entries(BROWSER_BUILDS)) {
      const loopback = await loopbackSiteTrust(path.join(ROOT, dir))
      if (loopback.length > 0) {
        console.warn(`The ${browser} package trusts site origins on this computer (${loopback.join(", ")}), as PLASMO_PUBLIC_SITE_ORIGINS named them: right for tests, not for the stores.`)
      }
    }
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
  console.log(`Packaged in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
