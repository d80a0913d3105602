// Small print read by our two OCR paths against bare tesseract.js given the same bytes (issue 47): the images of
// bench/photos/group-photos.json (a caption strip under photos, the reposted caption board, a settings screenshot in
// 11 px, a receipt) in each format the API and the extension accept. Server: POST /api/v1/ocr's task
// (server/local-vision/vision-task.ts) in this process beside tesseract.js in Node. Extension: the engine check page
// (tabs/engines.html, the panel's engine on the uploaded file) beside tesseract.js's UMD build in the same page.
// Words: how many of the words a person reads are in the reading. Run alone with
// `node --import tsx bench/ocr-small-print.ts`, or call measureOcrSmallPrint().
import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

import type { Page } from "puppeteer-core"
import { createWorker, OEM } from "tesseract.js"

import { runVisionTask } from "../server/local-vision/vision-task"
import { installExtension, launchBrowser } from "../tests/e2e/browser"
import { runIfMain } from "./figures"
import { BARE_WORKER_OPTIONS, ensureBuild, loadBareTesseract, waitForRun } from "./ocr"
import { IMAGE_FORMATS, inFormat, smallPrintImages, wordsRead, type ImageFormat, type SmallPrintImage } from "./photos/group-photos"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const require = createRequire(path.join(root, "package.json"))
const LANG_PATH = path.join(path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int")

type Format = ImageFormat

export interface SmallPrintRow {
  image: string
  format: Format
  words: number
  server: { ours: number; bare: number; oursMs: number; bareMs: number }
  extension: { ours: number; bare: number; oursMs: number; bareMs: number }
}

async function variants(): Promise<{ image: SmallPrintImage; format: Format; bytes: Buffer }[]> {
  const images = await smallPrintImages()
  const list: { image: SmallPrintImage; format: Format; bytes: Buffer }[] = []
  for (const image of images) {
    for (const format of Object.keys(IMAGE_FORMATS) as Format[]) {
      list.push({ image, format, bytes: await inFormat(image, format) })
    }
  }
  return list
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const value = await work()
  return [value, performance.now() - started]
}

async function measureServer(list: Awaited<ReturnType<typeof variants>>) {
  const bare = await createWorker("eng", OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: "none" })
  try {
    const rows: SmallPrintRow["server"][] = []
    for (const { image, bytes } of list) {
      const [bareText, bareMs] = await timed(async () => (await bare.recognize(bytes)).data.text)
      const [result, oursMs] = await timed(() => runVisionTask({ kind: "ocr", image: new Uint8Array(bytes), languages: ["eng"], langPath: LANG_PATH }))
      const text = "answer" in result ? (result.answer as { text: string }).text : ""
      rows.push({ ours: wordsRead(text, image.text), bare: wordsRead(bareText, image.text), oursMs, bareMs })
    }
    return rows
  } finally {
    await bare.terminate()
  }
}

/** tesseract.js's UMD build in the extension page, reading each image as a Blob with the shipped files. */
async function bareInPage(page: Page, dataUrls: string[]): Promise<{ text: string; ms: number }[]> {
  await loadBareTesseract(page)
  return page.evaluate(async (images: string[], workerOptions: object) => {
    type Recognize = (image: Blob) => Promise<{ data: { text: string } }>
    const Tesseract = (globalThis as unknown as {
      Tesseract: { createWorker(lang: string, oem: number, options: object): Promise<{ recognize: Recognize; terminate(): Promise<void> }> }
    }).Tesseract
    const worker = await Tesseract.createWorker("eng", 1, workerOptions)
    const readings = []
    for (const image of images) {
      const blob = await (await fetch(image)).blob()
      const started = performance.now()
      const { data } = await worker.recognize(blob)
      readings.push({ text: data.text, ms: performance.now() - started })
    }
    await worker.terminate()
    return readings
  }, dataUrls, BARE_WORKER_OPTIONS)
}

async function measureExtension(list: Awaited<ReturnType<typeof variants>>) {
  ensureBuild()
  const browser = await launchBrowser({ extension: true })
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-small-print-"))
  try {
    const { id } = await installExtension(browser)
    const pageUrl = `chrome-extension://${id}/tabs/engines.html`
    const page = await browser.newPage()
    await page.goto(pageUrl, { waitUntil: "load" })
    const input = await page.waitForSelector('input[data-testid="ocr-file"]')
    const ours: { words: number; ms: number }[] = []
    for (const [index, { image, format, bytes }] of list.entries()) {
      const file = path.join(folder, `${image.name}.${format}`)
      fs.writeFileSync(file, bytes)
      await input!.uploadFile(file)
      const run = await waitForRun(page, index)
      ours.push({ words: wordsRead(run.text, image.text), ms: run.durationMs })
    }
    const barePage = await browser.newPage()
    await barePage.goto(pageUrl, { waitUntil: "load" })
    const mime = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" }
    const bare = await bareInPage(
      barePage,
      list.map(({ format, bytes }) => `data:${mime[format]};base64,${bytes.toString("base64")}`)
    )
    return list.map(({ image }, index) => ({
      ours: ours[index]!.words,
      oursMs: ours[index]!.ms,
      bare: wordsRead(bare[index]!.text, image.text),
      bareMs: bare[index]!.ms
    }))
  } finally {
    await browser.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

export function smallPrintLines(rows: readonly SmallPrintRow[]): string[] {
  const cell = ({ ours, bare, oursMs, bareMs }: SmallPrintRow["server"]) => `${ours} (bare ${bare}) ${Math.round(oursMs)}/${Math.round(bareMs)} ms`
  return [
    "OCR small print, words read of those a person reads — ours (bare tesseract.js on the same bytes), ms ours/bare:",
    ...rows.map((row) => `  ${row.image} ${row.format} (${row.words} words): server ${cell(row.server)}; extension ${cell(row.extension)}`),
    ...rows
      .filter((row) => row.server.ours < row.server.bare || row.extension.ours < row.extension.bare)
      .map((row) => `  WARNING: ${row.image} ${row.format} read less than bare tesseract.js`)
  ]
}

export async function measureOcrSmallPrint(): Promise<{ figures: SmallPrintRow[]; lines: string[] }> {
  const list = await variants()
  console.error("OCR small print: the server's task and tesseract.js in Node…")
  const server = await measureServer(list)
  console.error("OCR small print: the extension's engine and tesseract.js in its page…")
  const extension = await measureExtension(list)
  const figures = list.map(({ image, format }, index) => ({ image: image.name, format, words: image.text.length, server: server[index]!, extension: extension[index]! }))
  return { figures, lines: smallPrintLines(figures) }
}

runIfMain(import.meta.url, "OCR small print", measureOcrSmallPrint)
