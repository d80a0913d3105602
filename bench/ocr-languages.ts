// OCR in three scripts through the side panel of the built extension, the product's own path, against the API
// server as `npm start` runs it: Latin (English, shipped), Devanagari (Hindi) and Cyrillic (Ukrainian), packs
// from the server. Per language: "first" from the click to the text with the pack not yet on the device
// (download, hash check, engine start, recognition); "kept" the same in a new panel, the pack read from the
// device; "warm" a second image read by the already started engine. Plus the pack's download as the panel
// saw it (resource timing). Hindi is drawn in Noto Sans Devanagari, which the drawing page loads from its npm
// package (tests/e2e/test-fonts.ts); Latin and Cyrillic in DejaVu Sans.
// Run alone with `node --import tsx bench/ocr-languages.ts`, or call measureOcrLanguages().
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Page } from "puppeteer-core"

import { installExtension, inWorker, launchBrowser, openSidePanel, waitForContentScript } from "../tests/e2e/browser"
import { serveFixtures, startServer } from "../tests/e2e/server"
import { fontsourceFont, NOTO_SANS_DEVANAGARI, type WebFont } from "../tests/e2e/test-fonts"
import { drawTextImage } from "../tests/e2e/text-image"
import { runIfMain } from "./figures"

const TIMEOUT_MS = 120_000

interface Script {
  code: string
  label: string
  /** A CSS font family that has the script, or the npm package of one the drawing page loads. */
  font: string | { package: string }
  /** Two images' lines: the first for the cold reads, the second for the warm one. */
  texts: [string[], string[]]
}

const SCRIPTS: Script[] = [
  { code: "eng", label: "English (Latin)", font: "'DejaVu Sans'", texts: [["QUERY THE PAGE", "READS WORDS"], ["LOCAL TEXT 2026", "ON THE DEVICE"]] },
  { code: "hin", label: "Hindi (Devanagari)", font: { package: NOTO_SANS_DEVANAGARI }, texts: [["नमस्ते दुनिया", "भारत देश"], ["हिन्दी पाठ", "यह एक परीक्षण है"]] },
  { code: "ukr", label: "Ukrainian (Cyrillic)", font: "'DejaVu Sans'", texts: [["Привіт світ", "Україна"], ["Читання тексту", "на цьому пристрої"]] }
]

export interface OcrLanguageFigures {
  code: string
  label: string
  firstMs: number
  keptMs: number
  warmMs: number
  /** The pack's download in the panel (null for the shipped English). */
  downloadMs: number | null
  packBytes: number | null
  /** Whether the first read found every line (whitespace aside). */
  readAll: boolean
}

/** Opens the image, asks for its text and times the click to the text shown. */
async function timeRead(panel: Page, imageUrl: string): Promise<{ ms: number; text: string }> {
  const back = await panel.$("xpath/.//button[normalize-space()='← All images']")
  if (back) await back.click()
  await (await panel.waitForSelector(`li[data-url='${imageUrl}'] > button`, { timeout: TIMEOUT_MS }))!.click()
  const ocr = await panel.waitForSelector("xpath/.//button[normalize-space()='Text (OCR)']")
  const started = Date.now()
  await ocr!.click()
  const text = await panel.waitForFunction(
    () => document.querySelector("[data-testid='ocr-text']")?.textContent || (document.querySelector("[role='alert']") ? `ERROR ${document.querySelector("[role='alert']")?.textContent}` : null),
    { timeout: TIMEOUT_MS, polling: 20 }
  )
  const ms = Date.now() - started
  const value = (await text.jsonValue()) as string
  if (value.startsWith("ERROR ")) throw new Error(value)
  return { ms, text: value }
}

const squeeze = (text: string) => text.replace(/\s+/g, "")

export async function measureOcrLanguages(): Promise<{ figures: OcrLanguageFigures[]; lines: string[] }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-bench-ocr-languages-"))
  const server = await startServer()
  const browser = await launchBrowser({ extension: true })
  let fixtures: Awaited<ReturnType<typeof serveFixtures>> | null = null
  try {
    const extension = await installExtension(browser)
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), server.url)
    const images: string[] = []
    for (const script of SCRIPTS) {
      for (const [index, lines] of script.texts.entries()) {
        const name = `${script.code}-${index}.png`
        const family: string | WebFont = typeof script.font === "string" ? script.font : fontsourceFont(script.font.package, lines.join(" "))
        fs.writeFileSync(path.join(folder, name), await drawTextImage(browser, lines, { family, size: "56px", minHeight: 420 }))
        images.push(`<img src="${name}" alt="${script.label} ${index + 1}" width="1000">`)
      }
    }
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><title>OCR languages</title>${images.join("")}`)
    fixtures = await serveFixtures(folder)
    const page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    const panel = await openSidePanel(browser, extension, page)
    const listed = ((await (await fetch(`${server.url}/api/ocr/languages`)).json()) as { data: { languages: { code: string; size: number }[] } }).data.languages
    const chooseOnly = (code: string) =>
      inWorker(
        extension.worker,
        async (languages: string[]) => {
          const stored = (await chrome.storage.local.get("panelSettings")).panelSettings as Record<string, unknown> | undefined
          await chrome.storage.local.set({ panelSettings: { ...(stored ?? {}), ocrLanguages: languages } })
        },
        [code]
      )

    const figures: OcrLanguageFigures[] = []
    for (const script of SCRIPTS) {
      console.error(`OCR languages bench: ${script.label}…`)
      await chooseOnly(script.code)
      const first = await timeRead(panel, `${fixtures.url}/${script.code}-0.png`)
      const download = await panel.evaluate(
        (code: string) => {
          const entry = performance.getEntriesByType("resource").find((candidate) => candidate.name.endsWith(`/api/ocr/languages/${code}`)) as PerformanceResourceTiming | undefined
          return entry ? Math.round(entry.responseEnd - entry.startTime) : null
        },
        script.code
      )
      const warm = await timeRead(panel, `${fixtures.url}/${script.code}-1.png`)
      // A new panel: no engine, the pack on the device.
      await panel.reload({ waitUntil: "load" })
      const kept = await timeRead(panel, `${fixtures.url}/${script.code}-0.png`)
      figures.push({
        code: script.code,
        label: script.label,
        firstMs: first.ms,
        keptMs: kept.ms,
        warmMs: warm.ms,
        downloadMs: download,
        packBytes: download === null ? null : (listed.find((pack) => pack.code === script.code)?.size ?? null),
        readAll: script.texts[0].every((line) => squeeze(first.text).includes(squeeze(line)))
      })
    }
    const lines = [
      `OCR by language in the side panel (click to text; load average ${os.loadavg()[0]!.toFixed(1)} at the end):`,
      ...figures.map(
        (figure) =>
          `  ${figure.label}: first ${figure.firstMs} ms${figure.downloadMs === null ? " (shipped)" : ` (pack ${((figure.packBytes ?? 0) / 1e6).toFixed(2)} MB downloaded in ${figure.downloadMs} ms)`}, ` +
          `pack kept, new panel ${figure.keptMs} ms, warm ${figure.warmMs} ms; ${figure.readAll ? "read every line" : "MISSED some text"}`
      )
    ]
    return { figures, lines }
  } finally {
    await browser.close()
    await fixtures?.close()
    await server.stop()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "OCR languages", measureOcrLanguages)
