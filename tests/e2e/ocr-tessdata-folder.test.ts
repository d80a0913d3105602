/**
 * An operator's tessdata folder as Debian installs it: plain `.traineddata` files, here Debian's own Russian model
 * (`apt-get install tesseract-ocr-rus`, which .ci/run does) beside a stand-in file for every other language
 * tesseract knows, so the side panel's picker holds all of them. Russian is listed under its English and its own
 * name, downloaded once (compressed by the server on first use) and read in the built extension's side panel.
 */
import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, HTTPRequest, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { BUNDLED_OCR_LANGUAGE, KNOWN_OCR_LANGUAGES } from "~core/ocr/ocr-languages"

import { seriousAxeViolations } from "./axe"
import { installExtension, inWorker, launchBrowser, type LoadedExtension, openSidePanel, screenshot, waitForContentScript, watchPageErrors } from "./browser"
import { pressUntilFlipped } from "./forms"
import { serveFixtures, startServer, type RunningServer } from "./server"
import { drawTextImage } from "./text-image"

const DEBIAN_RUSSIAN = "/usr/share/tesseract-ocr/5/tessdata/rus.traineddata"
const RUSSIAN_LINES = ["Добро пожаловать!", "Москва — столица России."]

// Debian's model is the point (a plain file as the package lays it out): without it the file is skipped, and said so.
const unavailable = fs.existsSync(DEBIAN_RUSSIAN) ? null : `${DEBIAN_RUSSIAN} is missing (apt-get install tesseract-ocr-rus)`
if (unavailable && process.env.CI) throw new Error(`The tessdata folder test must run in CI, but ${unavailable}.`)
if (unavailable) console.warn(`OCR tessdata folder tests skipped: ${unavailable}.`)
const RUSSIAN_WORDS = ["Добро", "пожаловать", "Москва", "столица", "России"]

/** A small file laid out as a tesseract model (a count of entries, their offsets): listed, never read here. */
function standInModel(code: string): Buffer {
  const header = Buffer.alloc(4 + 8 * 2)
  header.writeUInt32LE(2, 0)
  header.writeBigInt64LE(-1n, 4)
  header.writeBigInt64LE(BigInt(header.length), 12)
  return Buffer.concat([header, Buffer.from(`stand-in model for ${code}`)])
}

describe.skipIf(unavailable)("OCR languages from a Debian tessdata folder", () => {
  let fixturesFolder: string
  let tessdataFolder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let server: RunningServer
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  const packRequests: string[] = []

  const imageUrl = () => `${fixtures.url}/russian.png`
  const languageBox = (name: string) => `xpath/.//fieldset//label[.//span[starts-with(normalize-space(), '${name}')]]/input[@type='checkbox']`

  /** Ticks or unticks a language from the keyboard, once no analysis runs (the picker waits meanwhile). */
  async function toggleLanguage(name: string) {
    await pressUntilFlipped(panel, (await panel.waitForSelector(languageBox(name), { timeout: 15_000 }))!)
  }

  beforeAll(async () => {
    fixturesFolder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-ocr-tessdata-fixtures-"))
    tessdataFolder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-ocr-tessdata-"))
    // Linked, not copied: the server reads the operator's file where the package put it.
    fs.symlinkSync(DEBIAN_RUSSIAN, path.join(tessdataFolder, "rus.traineddata"))
    for (const { code } of KNOWN_OCR_LANGUAGES) {
      if (code !== "rus" && code !== BUNDLED_OCR_LANGUAGE) fs.writeFileSync(path.join(tessdataFolder, `${code}.traineddata`), standInModel(code))
    }
    server = await startServer({ OCR_LANGUAGES_DIR: tessdataFolder })
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), server.url)

    // At least 400 px high: the panel hides smaller images by default.
    fs.writeFileSync(path.join(fixturesFolder, "russian.png"), await drawTextImage(browser, RUSSIAN_LINES, { family: "'DejaVu Sans'", size: "56px", minHeight: 420 }))
    fs.writeFileSync(path.join(fixturesFolder, "index.html"), `<!doctype html><title>Russian</title><img src="russian.png" alt="Russian text">`)
    fixtures = await serveFixtures(fixturesFolder)

    page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    panel = await openSidePanel(browser, extension, page)
    panel.on("request", (request: HTTPRequest) => {
      const match = /\/api\/ocr\/languages\/([a-z_]+)$/.exec(request.url())
      if (match) packRequests.push(match[1]!)
    })
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    await server?.stop()
    for (const folder of [fixturesFolder, tessdataFolder]) if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("lists every language of the folder in the picker, Russian under its English and its own name, found by typing", async () => {
    await panel.waitForSelector(`li[data-url='${imageUrl()}'] > button`, { timeout: 15_000 })
    await panel.click(`li[data-url='${imageUrl()}'] > button`)
    await (await panel.waitForSelector("xpath/.//button[normalize-space()='Text (OCR)']"))!.click()
    const summary = await panel.waitForSelector("xpath/.//summary[starts-with(normalize-space(), 'Text languages:')]")
    await summary!.focus()
    await panel.keyboard.press("Enter")

    await expect.poll(() => panel.$$eval("fieldset label", (labels) => labels.length), { timeout: 30_000 }).toBe(KNOWN_OCR_LANGUAGES.length)
    const russian = await panel.$eval("xpath/.//fieldset//label[.//span[starts-with(normalize-space(), 'Russian')]]", (label) => label.textContent)
    expect(russian).toBe("Russian · РусскийCyrillic")
    // Each language under its names, none under its bare code.
    const names = await panel.$$eval("fieldset label > span:first-of-type", (spans) => spans.map((span) => span.textContent ?? ""))
    for (const { name, nativeName } of KNOWN_OCR_LANGUAGES) expect(names).toContain(nativeName === name ? name : `${name} · ${nativeName}`)
    await screenshot(panel, "side-panel-ocr-tessdata-folder")
    expect(await seriousAxeViolations(panel)).toEqual([])

    // 120 languages: found by typing, English (chosen) staying in view.
    await panel.focus("xpath/.//input[@type='search']")
    await panel.keyboard.type("russ")
    await expect.poll(() => panel.$$eval("fieldset label > span:first-of-type", (spans) => spans.map((span) => span.textContent)), { timeout: 10_000 }).toEqual(["English", "Russian · Русский"])
    await screenshot(panel, "side-panel-ocr-tessdata-search")
    expect(await seriousAxeViolations(panel)).toEqual([])
  }, 180_000)

  it("reads Russian with Debian's model, downloaded once as the server compressed it", async () => {
    const errors = watchPageErrors(panel)
    await toggleLanguage("Russian")
    // Russian alone: with English beside it, tesseract may take a Cyrillic letter for its Latin look-alike.
    await toggleLanguage("English")
    const text = await panel
      .waitForFunction(
        (expected: string[]) => {
          // The reading with Russian alone: the one with English beside it may already show the words.
          if (document.querySelector("[data-testid='ocr-languages']")?.textContent !== "Русский (Russian)") return null
          const shown = document.querySelector("[data-testid='ocr-text']")?.textContent ?? ""
          return expected.every((word) => shown.includes(word)) ? shown : null
        },
        { timeout: 120_000 },
        RUSSIAN_WORDS
      )
      .then((handle) => handle.jsonValue() as Promise<string>)
    expect(text).toContain("Москва")
    expect(packRequests).toEqual(["rus"])
    // The server kept one compressed copy, named after the Debian file's bytes.
    const debianHash = createHash("sha256").update(fs.readFileSync(DEBIAN_RUSSIAN)).digest("hex")
    expect(fs.readdirSync(path.join(server.dataDir, "ocr-packs"))).toContain(`${debianHash}.traineddata.gz`)
    await screenshot(panel, "side-panel-ocr-russian-from-tessdata")
    expect(errors.filter((error) => !error.startsWith("Warning: Parameter not found:"))).toEqual([])
  }, 240_000)
})
