// Local OCR speed and the extension's download size. In headless Chromium with the built
// extension: our engine (src/analysis/ocr.ts, driven through tabs/engines.html) cold — engine
// start plus first recognition, each in a fresh page — and warm (median of 5), and bare
// tesseract.js (its dist/tesseract.min.js evaluated in an extension page, same shipped files,
// same options) for the overhead ratio; then the zipped size of build/chrome-mv3-prod.
// Run alone with `node --import tsx bench/ocr.ts`, or call measureOcr().
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import zlib from "node:zlib"

import type { Browser, Page } from "puppeteer-core"

import { OCR_SAMPLE_LINES, readsEveryLine, sampleTextImageDataUrl } from "~engine-check/ocr-sample"
import { installExtension, launchBrowser } from "../tests/e2e/browser"
import { median, runIfMain } from "./figures"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const BUILD_DIR = path.join(root, "build/chrome-mv3-prod")
const COLD_RUNS = 3
const WARM_RUNS = 5
const TIMEOUT_MS = 60_000

export interface OcrFigures {
  /** Medians in ms. Cold: engine start plus first recognition in a fresh page. */
  coldMs: number
  coldStartMs: number
  warmMs: number
  bareColdMs: number
  bareWarmMs: number
  /** warmMs / bareWarmMs */
  ratio: number
  /** What the engine read, whitespace-normalised, and whether every line was found. */
  text: string
  readAll: boolean
  zipBytes: number
  unpackedBytes: number
  zipMethod: string
}

export function ensureBuild() {
  if (fs.existsSync(path.join(BUILD_DIR, "engines/ocr/eng.traineddata.gz")) && fs.existsSync(path.join(BUILD_DIR, "tabs/engines.html"))) return
  console.error("OCR bench: building the extension first…")
  // Build output to stderr: stdout carries only the figures.
  execFileSync("npm", ["run", "build:extension"], { cwd: root, stdio: ["ignore", 2, 2] })
}

async function renderImage(browser: Browser): Promise<string> {
  const page = await browser.newPage()
  try {
    return await page.evaluate(sampleTextImageDataUrl, OCR_SAMPLE_LINES)
  } finally {
    await page.close()
  }
}

interface PageRun {
  state: string
  error: string
  text: string
  loadMs: number | null
  durationMs: number
}

export async function waitForRun(page: Page, after: number): Promise<PageRun> {
  await page.waitForFunction(
    (count: number) => Number(document.querySelector('[data-testid="ocr-status"]')?.getAttribute("data-finished")) > count,
    { timeout: TIMEOUT_MS },
    after
  )
  // No named inner functions here: tsx would wrap them in a __name helper the page lacks.
  const run = await page.evaluate(() => {
    const status = document.querySelector('[data-testid="ocr-status"]')!
    const loadMs = document.querySelector('[data-testid="ocr-load-ms"]')?.getAttribute("data-value") ?? ""
    return {
      state: status.getAttribute("data-state") ?? "",
      error: status.querySelector('[role="alert"]')?.textContent ?? "",
      text: document.querySelector('[data-testid="ocr-text"]')?.textContent ?? "",
      loadMs: loadMs === "" ? null : Number(loadMs),
      durationMs: Number(document.querySelector('[data-testid="ocr-duration-ms"]')?.getAttribute("data-value"))
    }
  })
  if (run.state !== "done") throw new Error(`The engine check page reported: ${run.error || run.state}`)
  return run
}

/** Our engine through the engine check page: cold in fresh pages, then warm runs in the last one. */
async function measureWrapper(browser: Browser, pageUrl: string, imageFile: string) {
  const colds: number[] = []
  const starts: number[] = []
  let page: Page | null = null
  let text = ""
  for (let run = 0; run < COLD_RUNS; run++) {
    await page?.close()
    page = await browser.newPage()
    await page.goto(pageUrl, { waitUntil: "load" })
    const input = await page.waitForSelector('input[data-testid="ocr-file"]')
    await input!.uploadFile(imageFile)
    const first = await waitForRun(page, 0)
    colds.push((first.loadMs ?? 0) + first.durationMs)
    starts.push(first.loadMs ?? 0)
    text = first.text
  }
  const warms: number[] = []
  for (let run = 0; run < WARM_RUNS; run++) {
    await page!.click("button ::-p-text(Run again)")
    warms.push((await waitForRun(page!, run + 1)).durationMs)
  }
  await page!.close()
  return { coldMs: median(colds), coldStartMs: median(starts), warmMs: median(warms), text }
}

/**
 * Bare tesseract.js in an extension page (tabs/engines.html before its engine starts): the UMD
 * build evaluated through DevTools, the shipped files by root-relative paths, the same options.
 */
/** tesseract.js's worker options in an extension page: the shipped files, by root-relative paths, as our engine uses them. */
export const BARE_WORKER_OPTIONS = {
  workerPath: "/engines/ocr/worker.min.js",
  corePath: "/engines/ocr",
  langPath: "/engines/ocr",
  workerBlobURL: false,
  gzip: true,
  cacheMethod: "none"
}

/** Evaluates tesseract.js's UMD build in `page`, which then has a global `Tesseract`. */
export async function loadBareTesseract(page: Page): Promise<void> {
  const require = createRequire(path.join(root, "package.json"))
  await page.evaluate(fs.readFileSync(path.join(path.dirname(require.resolve("tesseract.js/package.json")), "dist/tesseract.min.js"), "utf8"))
}

async function measureBare(browser: Browser, pageUrl: string, dataUrl: string) {
  const colds: number[] = []
  let warms: number[] = []
  for (let run = 0; run < COLD_RUNS; run++) {
    const page = await browser.newPage()
    await page.goto(pageUrl, { waitUntil: "load" })
    await loadBareTesseract(page)
    const figures = await page.evaluate(
      async (image: string, warmRuns: number, workerOptions: object) => {
        type Recognize = (image: Blob, options: object, output: object) => Promise<{ data: { text: string } }>
        const Tesseract = (globalThis as unknown as {
          Tesseract: { createWorker(lang: string, oem: number, options: object): Promise<{ recognize: Recognize; terminate(): Promise<void> }> }
        }).Tesseract
        const blob = await (await fetch(image)).blob()
        const output = { text: true, blocks: true }
        const started = performance.now()
        const worker = await Tesseract.createWorker("eng", 1, workerOptions)
        await worker.recognize(blob, {}, output)
        const coldMs = performance.now() - started
        const warm: number[] = []
        for (let index = 0; index < warmRuns; index++) {
          const begun = performance.now()
          await worker.recognize(blob, {}, output)
          warm.push(performance.now() - begun)
        }
        await worker.terminate()
        return { coldMs, warm }
      },
      dataUrl,
      WARM_RUNS,
      BARE_WORKER_OPTIONS
    )
    colds.push(figures.coldMs)
    warms = figures.warm
    await page.close()
  }
  return { bareColdMs: median(colds), bareWarmMs: median(warms) }
}

function directorySize(dir: string): number {
  let total = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    total += entry.isDirectory() ? directorySize(full) : fs.statSync(full).size
  }
  return total
}

function listFiles(dir: string, prefix = ""): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]
  )
}

/** The download size of the extension: `zip -qr` when installed, else deflate of every file (level 9) summed. */
function zippedSize(dir: string): { bytes: number; method: string } {
  try {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-zip-"))
    const file = path.join(folder, "extension.zip")
    try {
      execFileSync("zip", ["-qr", file, "."], { cwd: dir, stdio: "ignore" })
      return { bytes: fs.statSync(file).size, method: "zip -qr" }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  } catch {
    const bytes = listFiles(dir).reduce((sum, file) => sum + zlib.deflateRawSync(fs.readFileSync(path.join(dir, file)), { level: 9 }).length, 0)
    return { bytes, method: "node zlib deflate per file, no zip headers" }
  }
}


export function ocrLines(figures: OcrFigures): string[] {
  const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1)
  return [
    `OCR 3-line image: cold ${Math.round(figures.coldMs)} ms (engine start ${Math.round(figures.coldStartMs)} ms), warm ${Math.round(figures.warmMs)} ms ` +
      `(bare tesseract.js cold ${Math.round(figures.bareColdMs)} ms, warm ${Math.round(figures.bareWarmMs)} ms, ratio ${figures.ratio.toFixed(2)})`,
    `OCR read: "${figures.text}"${figures.readAll ? "" : " — WARNING: not every line was read"}`,
    `Extension zip: ${mb(figures.zipBytes)} MB (unpacked ${mb(figures.unpackedBytes)} MB; ${figures.zipMethod})`
  ]
}

export async function measureOcr(): Promise<{ figures: OcrFigures; lines: string[] }> {
  ensureBuild()
  const browser = await launchBrowser({ extension: true })
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-ocr-bench-"))
  try {
    const { id } = await installExtension(browser)
    const pageUrl = `chrome-extension://${id}/tabs/engines.html`
    const dataUrl = await renderImage(browser)
    const imageFile = path.join(folder, "three-lines.png")
    fs.writeFileSync(imageFile, Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64"))

    console.error("OCR bench: our engine…")
    const wrapper = await measureWrapper(browser, pageUrl, imageFile)
    console.error("OCR bench: bare tesseract.js…")
    const bare = await measureBare(browser, pageUrl, dataUrl)
    const zip = zippedSize(BUILD_DIR)
    const text = wrapper.text.replace(/\s+/g, " ").trim()
    const figures: OcrFigures = {
      ...wrapper,
      ...bare,
      ratio: wrapper.warmMs / bare.bareWarmMs,
      text,
      readAll: readsEveryLine(wrapper.text),
      zipBytes: zip.bytes,
      unpackedBytes: directorySize(BUILD_DIR),
      zipMethod: zip.method
    }
    return { figures, lines: ocrLines(figures) }
  } finally {
    await browser.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "OCR", measureOcr)
