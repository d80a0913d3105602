// An operator's tessdata folder of plain .traineddata files (OCR_LANGUAGES_DIR), against the server as `npm start`
// runs it: the first GET /api/ocr/languages, which compresses every plain file and keeps the copies in DATA_DIR;
// how long GET /api/status takes meanwhile; the same list after a restart (the kept copies checked, none made);
// and one pack's download. The folder is Debian's rus.traineddata (`apt-get install tesseract-ocr-rus`) and
// TESSDATA_BENCH_COPIES altered copies of it under other codes (default 11: each compressed on its own), or the
// folder TESSDATA_BENCH_DIR names (e.g. /usr/share/tesseract-ocr/5/tessdata after `apt-get install tesseract-ocr-all`).
// Run alone with `node --import tsx bench/ocr-tessdata.ts`, or call measureOcrTessdata().
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { performance } from "node:perf_hooks"

import { KNOWN_OCR_LANGUAGES } from "~core/ocr/ocr-languages"

import { runIfMain } from "./figures"
import { startServer } from "./server-process"

const DEBIAN_RUSSIAN = "/usr/share/tesseract-ocr/5/tessdata/rus.traineddata"

export interface OcrTessdataFigures {
  files: number
  plainMegabytes: number
  /** The first list: every plain file compressed. */
  coldListMs: number
  compressedShare: number
  statusP50Ms: number
  statusMaxMs: number
  /** The first list after a restart: the kept copies read and checked. */
  warmListMs: number
  downloadMs: number
}

/** A folder of `copies` distinct plain models made from Debian's Russian one (one byte of its last entry changed). */
function syntheticFolder(copies: number): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-bench-tessdata-"))
  const russian = fs.readFileSync(DEBIAN_RUSSIAN)
  fs.writeFileSync(path.join(folder, "rus.traineddata"), russian)
  const codes = KNOWN_OCR_LANGUAGES.map((language) => language.code).filter((code) => code !== "rus" && code !== "eng")
  for (const [index, code] of codes.slice(0, copies).entries()) {
    const copy = Buffer.from(russian)
    copy[copy.length - 1] = (copy[copy.length - 1]! + index + 1) & 0xff
    fs.writeFileSync(path.join(folder, `${code}.traineddata`), copy)
  }
  return folder
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await work()
  return { ms: Math.round(performance.now() - started), value }
}

const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? 0

async function listPacks(baseUrl: string): Promise<{ code: string; size: number }[]> {
  const response = await fetch(`${baseUrl}/api/ocr/languages`)
  if (!response.ok) throw new Error(`GET /api/ocr/languages answered ${response.status}`)
  const { data } = (await response.json()) as { data: { languages: { code: string; size: number }[] } }
  return data.languages
}

export async function measureOcrTessdata(): Promise<{ figures: OcrTessdataFigures; lines: string[] }> {
  const given = process.env.TESSDATA_BENCH_DIR
  const folder = given ?? syntheticFolder(Number(process.env.TESSDATA_BENCH_COPIES ?? 11))
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-bench-tessdata-data-"))
  try {
    const plainFiles = fs.readdirSync(folder).filter((name) => name.endsWith(".traineddata"))
    const plainBytes = plainFiles.reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0)
    const plainCodes = new Set(plainFiles.map((name) => name.slice(0, -".traineddata".length)))

    const cold = await startServer(dataDir, { OCR_LANGUAGES_DIR: folder })
    let coldList: { ms: number; value: { code: string; size: number }[] }
    const statusMs: number[] = []
    try {
      // /api/status polled while the list is being built: what the compression costs everyone else.
      const listing = timed(() => listPacks(cold.baseUrl))
      let done = false
      void listing.finally(() => (done = true))
      while (!done) {
        statusMs.push((await timed(() => fetch(`${cold.baseUrl}/api/status`).then((response) => response.arrayBuffer()))).ms)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      coldList = await listing
    } finally {
      await cold.stop()
    }
    const warm = await startServer(dataDir, { OCR_LANGUAGES_DIR: folder })
    try {
      const warmList = await timed(() => listPacks(warm.baseUrl))
      const download = await timed(() => fetch(`${warm.baseUrl}/api/ocr/languages/rus`).then((response) => response.arrayBuffer()))
      const compressedBytes = coldList.value.filter((pack) => plainCodes.has(pack.code)).reduce((sum, pack) => sum + pack.size, 0)
      const figures: OcrTessdataFigures = {
        files: plainFiles.length,
        plainMegabytes: Math.round(plainBytes / 1e5) / 10,
        coldListMs: coldList.ms,
        compressedShare: Math.round((100 * compressedBytes) / plainBytes) / 100,
        statusP50Ms: percentile(statusMs, 0.5),
        statusMaxMs: Math.max(...statusMs),
        warmListMs: warmList.ms,
        downloadMs: download.ms
      }
      const seconds = (ms: number) => (ms / 1000).toFixed(1)
      const lines = [
        `OCR packs from a plain tessdata folder (${figures.files} files, ${figures.plainMegabytes} MB${given ? `, ${given}` : ""}; ${os.cpus().length} cores):`,
        `  first list, compressing each file: ${seconds(figures.coldListMs)} s (${(figures.plainMegabytes / (figures.coldListMs / 1000)).toFixed(1)} MB/s), the .gz ${Math.round(figures.compressedShare * 100)} % of the plain size; ` +
          `GET /api/status meanwhile p50 ${figures.statusP50Ms} ms, max ${figures.statusMaxMs} ms`,
        `  after a restart, the kept copies checked: ${seconds(figures.warmListMs)} s; rus downloaded on loopback in ${figures.downloadMs} ms`
      ]
      return { figures, lines }
    } finally {
      await warm.stop()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (!given) fs.rmSync(folder, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "OCR tessdata folder", measureOcrTessdata)
