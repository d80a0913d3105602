// Capture-to-text through the built extension, the product's own path: the side panel's "Capture area", a drag over
// text drawn on a <canvas>, and the Text (OCR) analysis that the capture starts on its own. Timed from the mouse's
// release on the page to the text shown in the panel, and to the captured image shown (the screenshot, the crop and
// the hand-over to the panel). The first run starts the OCR engine; the median is of the runs after it.
// Run alone with `node --import tsx bench/capture.ts`, or call measureCapture().
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import { readsEveryLine } from "../src/engine-check/ocr-sample"
import { installExtension, launchBrowser, openSidePanel, waitForContentScript } from "../tests/e2e/browser"
import { canvasBox, CANVAS_LINES, CAPTURE_FIXTURE_PAGE, dragOverCanvas } from "../tests/e2e/capture-fixture"
import { serveFixtures } from "../tests/e2e/server"
import { median, runIfMain } from "./figures"

const WARM_RUNS = 5
const TIMEOUT_MS = 120_000

export interface CaptureRun {
  /** Release to the captured image shown in the panel. */
  imageMs: number
  /** Release to the OCR text shown. */
  textMs: number
  readAll: boolean
}

export interface CaptureFigures {
  first: CaptureRun
  warm: CaptureRun[]
  medianImageMs: number
  medianTextMs: number
}

export async function measureCapture(): Promise<{ figures: CaptureFigures; lines: string[] }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-bench-capture-"))
  fs.writeFileSync(path.join(folder, "index.html"), CAPTURE_FIXTURE_PAGE)
  const fixtures = await serveFixtures(folder)
  const browser = await launchBrowser({ extension: true })
  try {
    const extension = await installExtension(browser)
    const page = await browser.newPage()
    // The window's own size: captureVisibleTab takes the real view, not an emulated viewport.
    await page.setViewport(null)
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await page.waitForSelector("body[data-drawn='true']")
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    const panel = await openSidePanel(browser, extension, page)
    await panel.waitForSelector("[data-testid='image-count']", { timeout: TIMEOUT_MS })

    const runs: CaptureRun[] = []
    for (let run = 0; run <= WARM_RUNS; run++) {
      console.error(`Capture bench: run ${run + 1} of ${WARM_RUNS + 1}…`)
      const back = await panel.$("xpath/.//button[normalize-space()='← All images']")
      if (back) await back.click()
      await panel.waitForSelector("xpath/.//button[normalize-space()='← All images']", { hidden: true })
      await panel.click("xpath/.//button[normalize-space()='Capture area']")
      await page.waitForFunction(() => (document.documentElement.lastElementChild as HTMLElement | null)?.style.zIndex === "2147483647", { timeout: TIMEOUT_MS })
      let released = 0
      // Just before the release is sent to the page.
      await dragOverCanvas(page, await canvasBox(page), async () => {
        released = Date.now()
      })
      const imageShown = panel
        .waitForFunction(() => document.querySelector("figcaption")?.textContent?.includes("Captured area"), { timeout: TIMEOUT_MS, polling: 10 })
        .then(() => Date.now())
      const text = await panel.waitForFunction(
        () => document.querySelector("[data-testid='ocr-text']")?.textContent || (document.querySelector("[role='alert']") ? `ERROR ${document.querySelector("[role='alert']")?.textContent}` : null),
        { timeout: TIMEOUT_MS, polling: 10 }
      )
      const textAt = Date.now()
      const value = (await text.jsonValue()) as string
      if (value.startsWith("ERROR ")) throw new Error(value)
      runs.push({ imageMs: (await imageShown) - released, textMs: textAt - released, readAll: readsEveryLine(value, CANVAS_LINES) })
    }
    const [first, ...warm] = runs as [CaptureRun, ...CaptureRun[]]
    const figures: CaptureFigures = { first, warm, medianImageMs: Math.round(median(warm.map((run) => run.imageMs))), medianTextMs: Math.round(median(warm.map((run) => run.textMs))) }
    const lines = [
      `Capture area to text in the side panel (mouse release on the page to the panel; load average ${os.loadavg()[0]!.toFixed(1)} at the end):`,
      `  first (OCR engine starting): image shown ${first.imageMs} ms, text shown ${first.textMs} ms`,
      `  warm, median of ${warm.length}: image shown ${figures.medianImageMs} ms, text shown ${figures.medianTextMs} ms (runs: ${warm.map((run) => run.textMs).join(", ")} ms)`,
      `  ${runs.every((run) => run.readAll) ? "every run read every line" : "SOME RUNS MISSED text"}`
    ]
    return { figures, lines }
  } finally {
    await browser.close()
    await fixtures.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "capture", measureCapture)
