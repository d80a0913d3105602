import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { BROWSER_BUILDS, buildProblems, packageExtensions, unzipTo, zipEntries } from "../../scripts/package-extension.mjs"

import { inWorker, installExtension, launchBrowser, type LoadedExtension, watchPageErrors } from "./browser"
import { startServer, type RunningServer } from "./server"

const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }
/** The Firefox build is made by `npm run build:firefox`; `npm run package` always makes it, a developer's tree may lack it. */
const FIREFOX_BUILT = fs.existsSync(path.join(BROWSER_BUILDS.firefox.dir, "manifest.json"))
const NO_FIREFOX = `no Firefox build in ${BROWSER_BUILDS.firefox.dir} (npm run build:firefox makes it)`

/** The engine files every extension package must carry: nothing of them is downloaded at run time. */
const ENGINE_FILES = [
  "engines/ocr/worker.min.js",
  "engines/ocr/tesseract-core-simd-lstm.wasm.js",
  "engines/ocr/tesseract-core-lstm.wasm.js",
  "engines/ocr/eng.traineddata.gz",
  "engines/tfjs/tfjs-backend-wasm.wasm",
  "engines/tfjs/tfjs-backend-wasm-simd.wasm",
  "engines/faces/ssd_mobilenetv1_model.bin",
  "engines/objects/centernet.bin"
]

/** Every temporary folder the file makes, removed at its end. */
const folders: string[] = []
function temporary(name: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `iqa-package-${name}-`))
  folders.push(folder)
  return folder
}
const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex")
const manifestIn = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as chrome.runtime.ManifestV3

/** What no package may hold: dependencies' folders, source maps, local settings and secrets, build output. */
function forbidden(entries: string[]): string[] {
  return entries.filter((entry) => /(^|\/)node_modules\/|\.map$|(^|\/)\.env(\.|$)|\.pem$|^(build|dist|data|coverage)\/|^tests\//.test(entry))
}

describe("npm run package: the store packages", () => {
  let written: Awaited<ReturnType<typeof packageExtensions>>
  let seconds = 0
  /** The Chrome zip unpacked, as a user's browser would hold it. */
  let unpacked: string

  beforeAll(async () => {
    if (!FIREFOX_BUILT) console.warn(`Firefox package skipped: ${NO_FIREFOX}.`)
    const started = Date.now()
    written = await packageExtensions({ outDir: temporary("out"), browsers: FIREFOX_BUILT ? ["chrome", "firefox"] : ["chrome"] })
    seconds = (Date.now() - started) / 1000
    unpacked = unzipTo(written.chrome!, temporary("chrome-unpacked"))
  })

  afterAll(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("names each zip after the product, the browser and package.json's version", () => {
    expect(path.basename(written.chrome!)).toBe(`image-query-ai-chrome-${version}.zip`)
    expect(path.basename(written.source)).toBe(`image-query-ai-source-${version}.zip`)
    for (const file of Object.values(written)) console.warn(`${path.basename(file)}: ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB`)
    console.warn(`Packaged in ${seconds.toFixed(1)} s`)
  })

  it("puts the Chrome build in its zip: manifest at the root without the development key, and every engine file", () => {
    const entries = zipEntries(written.chrome!)
    const built = fs.readdirSync(BROWSER_BUILDS.chrome.dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    expect(entries).toHaveLength(built.length)
    expect(entries).toContain("manifest.json")
    expect(entries).toEqual(expect.arrayContaining([...ENGINE_FILES, "page-index.js"]))
    expect(entries).toEqual([...entries].sort())
    expect(forbidden(entries)).toEqual([])
    const manifest = manifestIn(unpacked)
    expect(manifest).toMatchObject({ manifest_version: 3, name: "Image Query AI", version, side_panel: { default_path: "sidepanel.html" } })
    expect(manifest).not.toHaveProperty("key")
  })

  it("puts the Firefox build in its zip: a sidebar, an add-on id, and every engine file", ({ skip }) => {
    skip(!FIREFOX_BUILT, NO_FIREFOX)
    const entries = zipEntries(written.firefox!)
    expect(path.basename(written.firefox!)).toBe(`image-query-ai-firefox-${version}.zip`)
    expect(entries).toEqual(expect.arrayContaining(["manifest.json", ...ENGINE_FILES, "page-index.js"]))
    expect(forbidden(entries)).toEqual([])
    const manifest = manifestIn(unzipTo(written.firefox!, temporary("firefox-unpacked"))) as chrome.runtime.ManifestV3 & {
      sidebar_action?: { default_panel: string }
      browser_specific_settings?: { gecko?: { id?: string } }
    }
    expect(manifest).toMatchObject({ manifest_version: 3, version, sidebar_action: { default_panel: "sidepanel.html" } })
    expect(manifest.browser_specific_settings?.gecko?.id).toBeTruthy()
    expect(manifest).not.toHaveProperty("key")
  })

  it("gives Firefox's reviewers the sources and a note how to rebuild, and nothing else", () => {
    const entries = zipEntries(written.source)
    expect(entries).toEqual(expect.arrayContaining(["BUILD.md", "package.json", "package-lock.json", "tsconfig.json", ".nvmrc", "LICENSE", "README.md"]))
    expect(entries).toEqual(expect.arrayContaining(["src/background/index.ts", "src/sidepanel.tsx", "scripts/copy-extension-assets.mjs", "assets/icon.png"]))
    expect(forbidden(entries)).toEqual([])
    expect(entries.filter((entry) => /\.test\.tsx?$|^server\/|^bench\//.test(entry))).toEqual([])
    const dir = temporary("source")
    const note = fs.readFileSync(path.join(unzipTo(written.source, dir), "BUILD.md"), "utf8")
    expect(note).toContain("npm ci")
    expect(note).toContain("npm run build:firefox")
    expect(note).toContain("PLASMO_PUBLIC_API_URL")
    // The zipped sources are the work tree's files, byte for byte.
    expect(fs.readFileSync(path.join(dir, "package-lock.json"))).toEqual(fs.readFileSync("package-lock.json"))
  })

  // The Chrome zip only: the source zip reads the work tree, which a developer may be editing meanwhile.
  it("writes the same bytes from the same build, so a new upload can be compared with the last", async () => {
    const second = await packageExtensions({ outDir: temporary("again"), browsers: ["chrome"] })
    expect(sha256(second.chrome!)).toBe(sha256(written.chrome!))
  })

  it("refuses a build without its engine files or of another version, saying what to run", async () => {
    const root = temporary("incomplete")
    const dir = path.join(root, BROWSER_BUILDS.chrome.dir)
    fs.mkdirSync(dir, { recursive: true })
    const manifest = JSON.parse(fs.readFileSync(path.join(BROWSER_BUILDS.chrome.dir, "manifest.json"), "utf8")) as { version: string }
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ ...manifest, version: "0.0.1" }))
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ version }))
    expect(await buildProblems(dir, version)).toEqual(
      expect.arrayContaining([
        `it is version 0.0.1, package.json says ${version}`,
        "the engine folder engines/ocr/ is missing",
        "page-index.js is missing",
        "tabs/site.html is missing"
      ])
    )
    // The site mount's page without the modules it loads.
    fs.mkdirSync(path.join(dir, "tabs"))
    fs.copyFileSync(path.join(BROWSER_BUILDS.chrome.dir, "tabs/site.html"), path.join(dir, "tabs/site.html"))
    expect(await buildProblems(dir, version)).toEqual(expect.arrayContaining([expect.stringMatching(/^tabs\/site\/site-[\w-]+\.js is missing$/)]))
    await expect(packageExtensions({ root, outDir: root, browsers: ["chrome"] })).rejects.toThrow(
      /^Cannot package the chrome extension: .*engines\/ocr\/ is missing.*Run npm run build:extension first\.$/
    )
    expect(await buildProblems(path.join(temporary("empty"), BROWSER_BUILDS.chrome.dir), version)).toEqual([
      expect.stringMatching(/^there is no build in .*chrome-mv3-prod$/)
    ])
  })

  describe("the Chrome zip, unpacked and loaded in Chromium", () => {
    let server: RunningServer
    let browser: Browser
    let extension: LoadedExtension

    beforeAll(async () => {
      server = await startServer()
      browser = await launchBrowser({ extension: true })
      extension = await installExtension(browser, unpacked)
    })

    afterAll(async () => {
      await browser?.close()
      await server?.stop()
    })

    it("starts its service worker from the unpacked copy", async () => {
      const manifest = await inWorker(extension.worker, async () => chrome.runtime.getManifest())
      expect(manifest).toMatchObject({ name: "Image Query AI", version })
      // Without the key, Chromium gives the copy an id of its own path: it is not the development build.
      expect(manifest).not.toHaveProperty("key")
    })

    it("opens its popup without errors, and serves the engine files from the package", async () => {
      await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), server.url)
      const popup = await browser.newPage()
      const errors = watchPageErrors(popup)
      await popup.goto(`chrome-extension://${extension.id}/popup.html`)
      await popup.waitForFunction((expected: string) => document.body.innerText.includes(expected), { timeout: 15_000 }, `Service online · version ${version}`)
      const sizes = await popup.evaluate(
        (files: string[]) => Promise.all(files.map(async (file) => (await fetch(`/${file}`)).arrayBuffer().then((bytes) => bytes.byteLength))),
        ENGINE_FILES
      )
      expect(sizes).toEqual(ENGINE_FILES.map((file) => fs.statSync(path.join(unpacked, file)).size))
      // The OCR worker is what tesseract.js starts first: reachable at the extension's own address.
      const worker = await popup.evaluate(async () => {
        const response = await fetch(chrome.runtime.getURL("engines/ocr/worker.min.js"))
        return { status: response.status, type: response.headers.get("content-type") }
      })
      expect(worker.status).toBe(200)
      expect(worker.type).toMatch(/javascript/)
      expect(errors).toEqual([])
      await popup.close()
    })

    it("renders the companion site from the package's own modules in its extension page", async () => {
      const tab = await browser.newPage()
      const errors = watchPageErrors(tab)
      await tab.goto(`chrome-extension://${extension.id}/tabs/site.html#/pricing`)
      await tab.waitForFunction(() => document.querySelector("h1")?.textContent?.includes("Pricing"), { timeout: 15_000 })
      expect(errors).toEqual([])
      await tab.close()
    })
  })
})
