// Copies the files the local analysis engines load at run time into the built extension, so that
// nothing is fetched from the network: `npm run build:extension` runs it after `plasmo build`.
//   engines/ocr/  tesseract.js worker, the three LSTM-only cores (the WebAssembly is embedded in
//                 each .wasm.js file), the English model (4.0.0_best_int, gzipped) and the legacy SIMD
//                 core that "Detect language" needs (orientation and script detection is legacy-only)
//   engines/tfjs/  the single-threaded tfjs WebAssembly backend, plain and SIMD (the faces and
//                  objects engines share it; the threaded build needs blob workers MV3 refuses)
//   engines/faces/ face-api's SSD MobileNet v1, age/gender and expression models (the TinyFaceDetector was
//                  removed: see FACE_DETECTORS in src/core/analysis/detections.ts)
//   engines/objects/ Human's CenterNet (COCO labels)
//   engines/samples/ face-api's demo/sample1.jpg (three faces) for the engine check page
// It bundles the scripts of src/extension that Plasmo does not build, each from its *.entry.ts (BUNDLE_ENTRIES): the
// page index (src/extension/in-page/page-index.entry.ts) into page-index.js, which the side panel injects into a tab's
// frames when it first asks for their images, so it is no declared content script; the page translation
// (src/extension/page-translation/page-translation.entry.ts) into page-translation.js the same way, injected while
// *Translate images on this page* is on; and the Firefox site bridge (src/extension/site-link/site-bridge.entry.ts).
// It builds the site mount, the companion site's extension page (tabs/site.html), with Vite: see scripts/site-mount-build.mjs.
// It also writes the site origins the build trusts (src/extension/site-link/site-origins.ts) into the manifest's
// externally_connectable.matches: Plasmo's manifest override can substitute one variable into one string, not a list.
// A production build trusts a loopback origin (http://localhost:8787, the local site of `npm start`) only when
// PLASMO_PUBLIC_SITE_ORIGINS names it, as `npm run build:local` and `npm test` do; the output says which it trusts.
// With `--target firefox-mv3` it finishes the Firefox build instead (see firefoxManifest): Firefox has no
// externally_connectable, so the same origins get the site bridge (src/extension/site-link/site-bridge.ts) as a content
// script.
import fs from "node:fs"
import path from "node:path"
import { createRequire } from "node:module"
import { fileURLToPath, URL } from "node:url"
import { buildMode, plasmoEnv } from "./plasmo-env.mjs"
import { buildSiteMount } from "./site-mount-build.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const require = createRequire(path.join(root, "package.json"))

/** The folder of an installed package, found through its package.json. */
const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`))

const tesseract = packageDir("tesseract.js")
const core = packageDir("tesseract.js-core")
const eng = packageDir("@tesseract.js-data/eng")
const tfjsWasm = packageDir("@tensorflow/tfjs-backend-wasm")
const faceApi = packageDir("@vladmandic/face-api")
// Human's `exports` map hides its package.json from require.resolve.
const human = path.join(root, "node_modules/@vladmandic/human")

/** A face-api model: its weights manifest and the weights it names. */
const faceModel = (name) => [path.join(faceApi, `model/${name}-weights_manifest.json`), path.join(faceApi, `model/${name}.bin`)]

/** Destination folder (relative to the build) -> files to copy into it. */
export const ENGINE_ASSETS = {
  "engines/ocr": [
    path.join(tesseract, "dist/worker.min.js"),
    // createWorker(lang, OEM.LSTM_ONLY) picks one of these by the browser's WebAssembly features.
    path.join(core, "tesseract-core-relaxedsimd-lstm.wasm.js"),
    path.join(core, "tesseract-core-simd-lstm.wasm.js"),
    path.join(core, "tesseract-core-lstm.wasm.js"),
    path.join(core, "tesseract-core-simd.wasm.js"),
    path.join(eng, "4.0.0_best_int/eng.traineddata.gz")
  ],
  // With WASM_HAS_MULTITHREAD_SUPPORT off, tfjs asks for one of these by the browser's SIMD support.
  "engines/tfjs": [path.join(tfjsWasm, "dist/tfjs-backend-wasm.wasm"), path.join(tfjsWasm, "dist/tfjs-backend-wasm-simd.wasm")],
  "engines/faces": [
    ...faceModel("ssd_mobilenetv1_model"),
    ...faceModel("age_gender_model"),
    ...faceModel("face_expression_model")
  ],
  "engines/objects": [path.join(human, "models/centernet.json"), path.join(human, "models/centernet.bin")],
  "engines/samples": [path.join(faceApi, "demo/sample1.jpg")]
}

/** Plasmo's build folders of a target. */
const buildsOf = (target) => [`build/${target}-prod`, `build/${target}-dev`]

/** The add-on id Firefox knows the extension by (its storage and permissions follow it), and the oldest Firefox supported. */
export const GECKO_ID = "image-query-ai@imagequery.ai"
export const GECKO_MIN_VERSION = "140.0"

export function copyEngineAssets(buildDir) {
  let bytes = 0
  let files = 0
  for (const [folder, sources] of Object.entries(ENGINE_ASSETS)) {
    const target = path.join(buildDir, folder)
    fs.mkdirSync(target, { recursive: true })
    for (const source of sources) {
      if (!fs.existsSync(source)) throw new Error(`Missing engine file ${source}: run npm install`)
      fs.copyFileSync(source, path.join(target, path.basename(source)))
      bytes += fs.statSync(source).size
      files += 1
    }
  }
  return { files, bytes }
}

/** The trusted site origins of a build folder, by the environment Plasmo built it with, and their match patterns. */
async function siteOriginsOf(buildDir) {
  const { tsImport } = await import("tsx/esm/api")
  const { siteOriginsFor, siteMatchPatterns } = await tsImport("../src/extension/site-link/site-origins.ts", import.meta.url)
  const development = buildMode(buildDir) === "development"
  const env = plasmoEnv(buildDir)
  const origins = siteOriginsFor({ siteOrigins: env.PLASMO_PUBLIC_SITE_ORIGINS, apiUrl: env.PLASMO_PUBLIC_API_URL, development })
  return { origins, matches: siteMatchPatterns(origins) }
}

/** What the build output says of a build's trusted site origins, the rule for loopback origins included. */
export async function siteOriginsReport(buildDir, origins) {
  const { tsImport } = await import("tsx/esm/api")
  const { LOOPBACK_SITE_ORIGIN_RULE } = await tsImport("../src/extension/site-link/site-origins.ts", import.meta.url)
  const trusted = origins.length > 0 ? origins.join(", ") : "none (the site can sign the extension in only from the extension's own site page)"
  return `Trusted site origins of ${path.relative(root, buildDir)}: ${trusted}\n  (${LOOPBACK_SITE_ORIGIN_RULE})`
}

/**
 * The Firefox manifest from the one Plasmo wrote (which already turned the side panel into sidebar_action and the
 * service worker into background.scripts): no Chrome-only keys (key, externally_connectable, the sidePanel and
 * webRequest permissions; "dns" instead), the gecko id and minimum version, a sidebar that does not open by itself at install (as in Chrome),
 * and the site bridge on the trusted origins' top frames, from the start of the page so it is there before the site's
 * scripts look for it (no bridge when the build trusts no origin). Firefox's match patterns have no port (a pattern
 * with one matches nothing): the bridge matches the hosts and checks the page's whole origin itself. Running it again
 * gives the same manifest.
 */
export function firefoxManifest(manifest, origins, bridgeFile) {
  const rest = { ...manifest }
  delete rest.key
  delete rest.externally_connectable
  const matches = [...new Set(origins.map((origin) => `${new URL(origin).protocol}//${new URL(origin).hostname}/*`))]
  const contentScripts = (rest.content_scripts ?? []).filter((script) => !script.js?.includes(bridgeFile))
  const bridge = matches.length > 0 ? [{ matches, js: [bridgeFile], run_at: "document_start", all_frames: false }] : []
  return {
    ...rest,
    // Firefox checks an image's address by resolving its name first ("dns"); Chrome has no DNS API and reads the
    // address that answered from webRequest instead (src/panel/images/image-address.ts).
    permissions: [...new Set([...rest.permissions.filter((permission) => permission !== "sidePanel" && permission !== "webRequest"), "dns"])],
    sidebar_action: { default_title: manifest.name, default_icon: manifest.icons, ...rest.sidebar_action, open_at_install: false },
    content_scripts: [...contentScripts, ...bridge],
    browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: GECKO_MIN_VERSION } }
  }
}

/** Writes the site origins the build trusts into its manifest (and the Firefox bridge beside it); returns them. */
export async function writeSiteOrigins(buildDir, target = "chrome-mv3") {
  const { origins, matches } = await siteOriginsOf(buildDir)
  const manifestPath = path.join(buildDir, "manifest.json")
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"))
  if (target === "firefox-mv3") {
    const bridgeFile = await buildSiteBridge(buildDir, origins)
    fs.writeFileSync(manifestPath, JSON.stringify(firefoxManifest(manifest, origins, bridgeFile)))
  } else {
    // Matches of none: no web page may connect (externally_connectable without "ids" admits no other extension either).
    manifest.externally_connectable = { ...manifest.externally_connectable, matches }
    fs.writeFileSync(manifestPath, JSON.stringify(manifest))
  }
  return origins
}

/**
 * The scripts bundled here, by their entry under src/extension: a module bundled on its own is named *.entry.ts, and
 * only these are (scripts/copy-extension-assets.test.ts holds both).
 */
export const BUNDLE_ENTRIES = {
  pageIndex: "in-page/page-index.entry.ts",
  pageTranslation: "page-translation/page-translation.entry.ts",
  siteBridge: "site-link/site-bridge.entry.ts"
}

/** Bundles `entry` (under src/extension) into one minified classic script `file` of the build; its size in bytes. */
async function bundleScript(buildDir, entry, file, { target, define, jsx }) {
  const { build } = await import("esbuild")
  const result = await build({
    entryPoints: [path.join(root, "src/extension", entry)],
    outfile: path.join(buildDir, file),
    bundle: true,
    minify: true,
    format: "iife",
    target,
    // The ~ aliases, from tsconfig.json's paths.
    tsconfig: path.join(root, "tsconfig.json"),
    define,
    // tsconfig.json leaves JSX to Plasmo's bundler ("preserve"): a script with React components says how to compile it.
    ...(jsx ? { jsx } : {}),
    metafile: true,
    logLevel: "error"
  })
  return Object.values(result.metafile.outputs)[0].bytes
}

/** Bundles the Firefox site bridge with the build's trusted origins baked in (none: no bridge); its file name in the build. */
async function buildSiteBridge(buildDir, origins) {
  const { tsImport } = await import("tsx/esm/api")
  const { SITE_BRIDGE_FILE } = await tsImport("../src/extension/site-link/site-bridge.ts", import.meta.url)
  if (origins.length === 0) fs.rmSync(path.join(buildDir, SITE_BRIDGE_FILE), { force: true })
  else await bundleScript(buildDir, BUNDLE_ENTRIES.siteBridge, SITE_BRIDGE_FILE, { target: "firefox128", define: { SITE_BRIDGE_ORIGINS: JSON.stringify(origins) } })
  return SITE_BRIDGE_FILE
}

/** The page index's script, bundled as one classic script under the name the side panel injects: its size in bytes. */
export async function buildPageIndex(buildDir) {
  const { tsImport } = await import("tsx/esm/api")
  const { PAGE_INDEX_FILE } = await tsImport("../src/extension/messaging/messages.ts", import.meta.url)
  return bundleScript(buildDir, BUNDLE_ENTRIES.pageIndex, PAGE_INDEX_FILE, { target: "chrome120", define: { "process.env.NODE_ENV": JSON.stringify(buildMode(buildDir)) } })
}

/**
 * The page translation script (src/extension/page-translation/page-translation.entry.ts, React and the design
 * system's TranslatedLayer included), bundled as one classic script under the name the side panel injects while the
 * mode is on: its size in bytes. It runs only in tabs where the person turned the mode on, so it is not held to the
 * content scripts' budget.
 */
export async function buildPageTranslation(buildDir) {
  const { tsImport } = await import("tsx/esm/api")
  const { PAGE_TRANSLATION_FILE } = await tsImport("../src/extension/messaging/page-translation-messages.ts", import.meta.url)
  return bundleScript(buildDir, BUNDLE_ENTRIES.pageTranslation, PAGE_TRANSLATION_FILE, {
    target: "chrome120",
    define: { "process.env.NODE_ENV": JSON.stringify(buildMode(buildDir)) },
    jsx: "automatic"
  })
}

async function main() {
  const targetIndex = process.argv.indexOf("--target")
  const target = targetIndex > 0 ? process.argv[targetIndex + 1] : "chrome-mv3"
  const builds = buildsOf(target)
  const present = builds.map((build) => path.join(root, build)).filter((dir) => fs.existsSync(path.join(dir, "manifest.json")))
  if (present.length === 0) {
    console.error(`No built extension found in ${builds.join(" or ")}: run plasmo build${target === "chrome-mv3" ? "" : ` --target=${target}`} first.`)
    process.exit(1)
  }
  for (const dir of present) {
    const { files, bytes } = copyEngineAssets(dir)
    console.log(`Engine files: ${files} copied into ${path.relative(root, dir)} (${(bytes / 1024 / 1024).toFixed(1)} MB)`)
    console.log(`Page index written into ${path.relative(root, dir)} (${((await buildPageIndex(dir)) / 1024).toFixed(1)} KB)`)
    console.log(`Page translation written into ${path.relative(root, dir)} (${((await buildPageTranslation(dir)) / 1024).toFixed(1)} KB)`)
    console.log(`Site mount built into ${path.relative(root, dir)} by Vite (${((await buildSiteMount(dir)) / 1024 / 1024).toFixed(1)} MB)`)
    try {
      console.log(await siteOriginsReport(dir, await writeSiteOrigins(dir, target)))
    } catch (error) {
      console.error(error.message)
      process.exit(1)
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
