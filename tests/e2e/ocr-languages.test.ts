/**
 * OCR in another language than English, in the built extension's side panel: the Hindi pack comes from our API
 * server once, is kept on the device for the next panel, and a pack that fails its hash is refused while English
 * keeps working. The Hindi text is drawn by Chromium with Debian's Lohit Devanagari font (.ci/run installs it).
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"

import type { Browser, HTTPRequest, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { seriousAxeViolations } from "./axe"
import { installExtension, inWorker, launchBrowser, type LoadedExtension, openSidePanel, screenshot, waitForContentScript, watchPageErrors } from "./browser"
import { serveFixtures, startServer, type RunningServer } from "./server"
import { drawTextImage } from "./text-image"

const HINDI_LINES = ["नमस्ते दुनिया", "भारत देश"]
const HINDI_WORDS = ["नमस्ते", "दुनिया", "भारत", "देश"]

const require = createRequire(import.meta.url)
const packFile = (code: string) => path.join(path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), "4.0.0_best_int", `${code}.traineddata.gz`)

describe("OCR languages in the side panel", () => {
  let fixturesFolder: string
  let packsFolder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let server: RunningServer
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  const packRequests: string[] = []

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const imageUrl = () => `${fixtures.url}/hindi.png`

  function watchPackRequests(target: Page) {
    target.on("request", (request: HTTPRequest) => {
      const match = /\/api\/ocr\/languages\/([a-z_]+)$/.exec(request.url())
      if (match) packRequests.push(match[1]!)
    })
  }

  async function openTextView() {
    await panel.waitForSelector(`li[data-url='${imageUrl()}'] > button`, { timeout: 15_000 })
    await panel.click(`li[data-url='${imageUrl()}'] > button`)
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
  }

  async function chooseLanguage(name: string) {
    const summary = await panel.waitForSelector("xpath/.//summary[starts-with(normalize-space(), 'Text languages:')]")
    const open = await panel.evaluate((element) => (element.parentElement as HTMLDetailsElement).open, summary!)
    if (!open) {
      // From the keyboard, as the picker must work: focus its summary and press Enter.
      await summary!.focus()
      await panel.keyboard.press("Enter")
    }
    const box = await panel.waitForSelector(`xpath/.//label[.//span[starts-with(normalize-space(), '${name}')]]/input[@type='checkbox']`, { timeout: 15_000 })
    // The picker waits while an analysis runs (its fieldset is disabled meanwhile).
    await panel.waitForFunction((input) => !(input as HTMLInputElement).matches(":disabled"), { timeout: 90_000 }, box!)
    await box!.focus()
    await panel.keyboard.press("Space")
  }

  const readText = (timeout = 90_000) =>
    panel
      .waitForFunction(
        (words: string[]) => {
          const text = document.querySelector("[data-testid='ocr-text']")?.textContent ?? ""
          return words.every((word) => text.includes(word)) ? text : null
        },
        { timeout },
        HINDI_WORDS
      )
      .then((handle) => handle.jsonValue() as Promise<string>)


  beforeAll(async () => {
    fixturesFolder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-ocr-languages-"))
    packsFolder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-ocr-packs-"))
    // An operator's copy of the French pack: the test changes its bytes later, after the server has listed it.
    fs.copyFileSync(packFile("fra"), path.join(packsFolder, "fra.traineddata.gz"))
    server = await startServer({ OCR_LANGUAGES_DIR: packsFolder })
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), server.url)

    // At least 400 px high: the panel hides smaller images by default.
    fs.writeFileSync(path.join(fixturesFolder, "hindi.png"), await drawTextImage(browser, HINDI_LINES, { family: "'Lohit Devanagari'", size: "56px", minHeight: 420 }))
    fs.writeFileSync(path.join(fixturesFolder, "index.html"), `<!doctype html><title>Hindi</title><img src="hindi.png" alt="Hindi text" width="1000">`)
    fixtures = await serveFixtures(fixturesFolder)

    page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    panel = await openSidePanel(browser, extension, page)
    watchPackRequests(panel)
  })

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    await server?.stop()
    for (const folder of [fixturesFolder, packsFolder]) if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("reads Hindi once Hindi is chosen, with its pack fetched once from our API server", async () => {
    const errors = watchPageErrors(panel)
    await openTextView()
    await chooseLanguage("Hindi")
    const text = await readText()
    expect(text.length).toBeGreaterThan(0)
    expect(await panel.$eval("[data-testid='ocr-languages']", (element) => element.textContent)).toBe("English + हिन्दी (Hindi)")
    expect(packRequests).toEqual(["hin"])
    await screenshot(panel, "side-panel-ocr-hindi")
    expect(await seriousAxeViolations(panel)).toEqual([])
    // tesseract prints these for settings that the compact (best_int) packs leave out; recognition is unaffected.
    expect(errors.filter((error) => !error.startsWith("Warning: Parameter not found:"))).toEqual([])
  }, 180_000)

  it("keeps the choice and the pack: a new panel reads Hindi with no download", async () => {
    await panel.reload({ waitUntil: "load" })
    await openTextView()
    await readText()
    expect(await panel.$eval("[data-testid='ocr-languages']", (element) => element.textContent)).toBe("English + हिन्दी (Hindi)")
    expect(packRequests).toEqual(["hin"])
  }, 180_000)

  it("refuses a pack that does not match its listed hash, says so, and English still works", async () => {
    // The same size, other bytes: what a damaged or tampered download looks like to the extension.
    const file = path.join(packsFolder, "fra.traineddata.gz")
    const bytes = fs.readFileSync(file)
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff
    fs.writeFileSync(file, bytes)

    await chooseLanguage("French")
    const alert = await panel.waitForSelector("[role='alert']", { timeout: 30_000 })
    expect(await alert!.evaluate((element) => element.textContent)).toBe(
      "The French language pack failed its integrity check and was not used. English text recognition still works."
    )
    expect(packRequests).toEqual(["hin", "fra"])
    await screenshot(panel, "side-panel-ocr-pack-refused")

    // Back to the kept languages: read again, with nothing downloaded.
    await chooseLanguage("French")
    await readText()
    expect(packRequests).toEqual(["hin", "fra"])
  }, 180_000)
})
