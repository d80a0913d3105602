import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page, WebWorker } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { normaliseOcrText, OCR_SAMPLE_LINES } from "~engine-check/ocr-sample"

import { EXTENSION_DIR, installExtension, launchBrowser, screenshot, watchPageErrors, type LoadedExtension } from "./browser"
import { drawTextImage } from "./text-image"

/** Waits until the engine check page has finished more than `after` analyses and returns the last one's outcome. */
async function waitForOcr(page: Page, after: number, timeout = 45_000) {
  await page.waitForFunction(
    (count: number) => Number(document.querySelector('[data-testid="ocr-status"]')?.getAttribute("data-finished")) > count,
    { timeout },
    after
  )
  return page.evaluate(() => {
    const status = document.querySelector('[data-testid="ocr-status"]')!
    const value = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute("data-value") ?? ""
    return {
      state: status.getAttribute("data-state"),
      error: status.querySelector('[role="alert"]')?.textContent ?? "",
      text: document.querySelector('[data-testid="ocr-text"]')?.textContent ?? "",
      words: Number(document.querySelector('[data-testid="ocr-word-count"]')?.textContent ?? 0),
      loadMs: value("ocr-load-ms") === "" ? null : Number(value("ocr-load-ms")),
      durationMs: Number(value("ocr-duration-ms"))
    }
  })
}

/**
 * Whitespace- and case-insensitive. Capital I and small l are the same glyph in sans-serif fonts,
 * so OCR reads "AI" as "Al"; the expected lines have no small l, so this loses nothing else.
 */

describe("local OCR in the built extension", () => {
  let browser: Browser
  let extension: LoadedExtension
  let imageFile: string
  const requests: string[] = []

  beforeAll(async () => {
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-ocr-"))
    imageFile = path.join(folder, "three-lines.png")
    fs.writeFileSync(imageFile, await drawTextImage(browser, OCR_SAMPLE_LINES))
  })

  afterAll(async () => {
    await browser?.close()
    if (imageFile) fs.rmSync(path.dirname(imageFile), { recursive: true, force: true })
  })

  it("ships the tesseract.js worker, cores (the legacy SIMD one for language detection) and English model in engines/ocr", () => {
    const files = fs.readdirSync(path.join(EXTENSION_DIR, "engines/ocr")).sort()
    expect(files).toEqual([
      "eng.traineddata.gz",
      "tesseract-core-lstm.wasm.js",
      "tesseract-core-relaxedsimd-lstm.wasm.js",
      "tesseract-core-simd-lstm.wasm.js",
      "tesseract-core-simd.wasm.js",
      "worker.min.js"
    ])
  })

  it("reads a three-line image on the engine check page with nothing fetched from outside the extension", async () => {
    const page = await browser.newPage()
    const errors = watchPageErrors(page)
    page.on("request", (request) => requests.push(request.url()))
    const workers: WebWorker[] = []
    const workerRequests: string[] = []
    page.on("workercreated", (worker) => {
      workers.push(worker)
      worker.client.on("Network.requestWillBeSent", (event) => workerRequests.push(event.request.url))
      void worker.client.send("Network.enable").catch(() => {})
    })
    await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
    await page.waitForFunction(() => document.title === "Image Query AI — engine check", { timeout: 5_000 })
    await page.waitForSelector('[data-testid="ocr-status"][data-state="idle"]')

    const input = await page.waitForSelector('input[data-testid="ocr-file"]')
    await input!.uploadFile(imageFile)
    const outcome = await waitForOcr(page, 0)
    await screenshot(page, "ocr-engine-check")

    expect(outcome.error).toBe("")
    expect(outcome.state).toBe("done")
    const text = normaliseOcrText(outcome.text)
    for (const line of OCR_SAMPLE_LINES) expect(text).toContain(line)
    expect(outcome.words).toBeGreaterThanOrEqual(8)
    expect(outcome.loadMs).toBeGreaterThan(0)
    expect(outcome.durationMs).toBeGreaterThan(0)

    // Run again: the engine is reused, not started a second time.
    await page.click("button ::-p-text(Run again)")
    const again = await waitForOcr(page, 1)
    expect(again.state).toBe("done")
    expect(again.loadMs).toBeNull()
    expect(normaliseOcrText(again.text)).toBe(text)

    // The page's own requests and the tesseract worker's (watched from shortly after it starts,
    // which catches the model download): all of them inside the extension.
    const base = `chrome-extension://${extension.id}/`
    expect(requests.filter((url) => !url.startsWith(base))).toEqual([])
    expect(workers.map((worker) => worker.url())).toEqual([`${base}engines/ocr/worker.min.js`])
    expect(workerRequests.filter((url) => !url.startsWith(`${base}engines/ocr/`))).toEqual([])
    expect(workerRequests).toContain(`${base}engines/ocr/eng.traineddata.gz`)
    expect(workerRequests.some((url) => /tesseract-core-(relaxedsimd-|simd-)?lstm\.wasm\.js$/.test(url))).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  })

  it("checks itself with its built-in sample text", async () => {
    const page = await browser.newPage()
    await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
    await page.waitForSelector('[data-testid="ocr-status"][data-finished="0"]')
    await page.click("button ::-p-text(Check with sample text)")
    const outcome = await waitForOcr(page, 0)
    expect(outcome.state).toBe("done")
    expect(await page.$eval('[data-testid="ocr-status"]', (element) => element.textContent)).toContain("Local text recognition works on this computer.")
    await page.close()
  })
})
