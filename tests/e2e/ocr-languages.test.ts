/**
 * OCR in another language than English, in the built extension's side panel: the Hindi pack comes from our API
 * server once, is kept on the device for the next panel, and a pack that fails its hash is refused while English
 * keeps working. The Hindi and Japanese texts are drawn by Chromium in Noto Sans Devanagari and Noto Sans JP, loaded
 * by the drawing page from their npm packages (test-fonts.ts): no font to install.
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"

import type { Browser, HTTPRequest, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { seriousAxeViolations } from "./axe"
import { installExtension, inWorker, launchBrowser, type LoadedExtension, openSidePanel, reloadSidePanel, screenshot, waitForContentScript, watchPageErrors, whatPanelShows } from "./browser"
import { pressUntilFlipped } from "./forms"
import { serveFixtures, startServer, type RunningServer } from "./server"
import { fontsourceFont, NOTO_SANS_DEVANAGARI, NOTO_SANS_JP } from "./test-fonts"
import { drawTextImage, drawVerticalTextImage } from "./text-image"

const HINDI_LINES = ["नमस्ते दुनिया", "भारत देश"]
const HINDI_WORDS = ["नमस्ते", "दुनिया", "भारत", "देश"]
// Script detection needs a few lines of running text: two short ones are "too little text" to tesseract.
const UKRAINIAN_LINES = ["Українська мова є державною мовою.", "Київ є столицею та найбільшим", "містом країни. Це речення для", "перевірки розпізнавання тексту."]
const UKRAINIAN_WORDS = ["Українська", "Київ", "столицею", "речення"]
const SIDEWAYS_LINES = ["The quick brown fox jumps", "over the lazy dog and then", "runs back into the forest", "before the sun goes down."]
const SIDEWAYS_WORDS = ["quick", "brown", "lazy", "forest"]
const VERTICAL_JAPANESE = ["日本語の文章を読みます。", "東京は日本の首都です。", "今日は良い天気ですね。"]
// Columns lined up with spaces in a monospaced font: a table as an image shows one.
const TABLE_LINES = ["Item         Qty   Price", "Apples       12    0.50", "Bread loaf   1     2.40", "Milk         3     11.75"]

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
  const imageUrl = (file = "hindi.png") => `${fixtures.url}/${file}`

  function watchPackRequests(target: Page) {
    target.on("request", (request: HTTPRequest) => {
      const match = /\/api\/ocr\/languages\/([a-z_]+)$/.exec(request.url())
      if (match) packRequests.push(match[1]!)
    })
  }

  async function openTextView(file?: string) {
    const back = await panel.$(button("← All images"))
    // From the keyboard: on a long view the sticky header can lie over the button where a click would land.
    if (back) {
      await back.focus()
      await panel.keyboard.press("Enter")
    }
    await panel.waitForSelector(`li[data-url='${imageUrl(file)}'] > button`, { timeout: 15_000 })
    await panel.click(`li[data-url='${imageUrl(file)}'] > button`)
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
  }

  /** Ticks or unticks a checkbox by its label's words. */
  async function toggle(label: string) {
    await pressUntilFlipped(panel, (await panel.waitForSelector(`xpath/.//label[normalize-space()='${label}']/input[@type='checkbox']`, { timeout: 15_000 }))!)
  }

  async function openLanguagePicker() {
    const summary = await panel.waitForSelector("xpath/.//summary[starts-with(normalize-space(), 'Text languages:')]")
    if (!(await panel.evaluate((element) => (element.parentElement as HTMLDetailsElement).open, summary!))) {
      await summary!.focus()
      await panel.keyboard.press("Enter")
    }
  }

  async function chooseLanguage(name: string) {
    // From the keyboard, as the picker must work: its summary opens with Enter.
    await openLanguagePicker()
    await pressUntilFlipped(panel, (await panel.waitForSelector(`xpath/.//label[.//span[starts-with(normalize-space(), '${name}')]]/input[@type='checkbox']`, { timeout: 15_000 }))!)
  }

  /** The text once it holds `words`; a timeout says what the panel showed instead (the text, a note, an alert). */
  const readText = (words = HINDI_WORDS, timeout = 90_000) =>
    panel
      .waitForFunction(
        (expected: string[]) => {
          const text = document.querySelector("[data-testid='ocr-text']")?.textContent ?? ""
          return expected.every((word) => text.includes(word)) ? text : null
        },
        { timeout },
        words
      )
      .then(
        (handle) => handle.jsonValue() as Promise<string>,
        async (error: Error) => {
          throw new Error(`${error.message}; the panel showed ${await whatPanelShows(panel)}`)
        }
      )

  const readingNote = () => panel.waitForSelector("[data-testid='ocr-reading']", { timeout: 90_000 }).then((note) => note!.evaluate((element) => element.textContent))


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
    fs.writeFileSync(path.join(fixturesFolder, "hindi.png"), await drawTextImage(browser, HINDI_LINES, { family: fontsourceFont(NOTO_SANS_DEVANAGARI, HINDI_LINES.join(" ")), size: "56px", minHeight: 420 }))
    fs.writeFileSync(path.join(fixturesFolder, "ukrainian.png"), await drawTextImage(browser, UKRAINIAN_LINES, { family: "'DejaVu Sans'", size: "34px" }))
    fs.writeFileSync(path.join(fixturesFolder, "sideways.png"), await drawTextImage(browser, SIDEWAYS_LINES, { family: "'DejaVu Sans'", size: "44px", turn: 90 }))
    fs.writeFileSync(path.join(fixturesFolder, "table.png"), await drawTextImage(browser, TABLE_LINES, { family: "'DejaVu Sans Mono'", size: "40px", minHeight: 420 }))
    // Only the files of Noto Sans JP that hold these characters (10 of its 124).
    fs.writeFileSync(path.join(fixturesFolder, "vertical.png"), await drawVerticalTextImage(browser, VERTICAL_JAPANESE, { family: fontsourceFont(NOTO_SANS_JP, VERTICAL_JAPANESE.join("")) }))
    fs.writeFileSync(
      path.join(fixturesFolder, "index.html"),
      `<!doctype html><title>Texts</title><img src="hindi.png" alt="Hindi text" width="1000"><img src="ukrainian.png" alt="Ukrainian text"><img src="sideways.png" alt="Sideways text"><img src="table.png" alt="A table"><img src="vertical.png" alt="Vertical Japanese">`
    )
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
    panel = await reloadSidePanel(browser, extension, page, panel)
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

  it("Detect language tells a Cyrillic paragraph and reads it in Ukrainian, a language not chosen", async () => {
    await openTextView("ukrainian.png")
    await openLanguagePicker()
    await toggle("Detect language")
    await readText(UKRAINIAN_WORDS)
    expect(await readingNote()).toBe("Cyrillic script: read in Українська (Ukrainian).")
    expect(await panel.$eval("[data-testid='ocr-languages']", (element) => element.textContent)).toBe("Detect (else English + हिन्दी (Hindi))")
    // The detection pack and the detected language's pack, each fetched once.
    expect(packRequests).toEqual(["hin", "fra", "osd", "ukr"])
    await screenshot(panel, "side-panel-ocr-detect-language")
    expect(await seriousAxeViolations(panel)).toEqual([])
  }, 180_000)

  it("turns text lying on its side upright before reading it, and shows the image as read", async () => {
    await openTextView("sideways.png")
    await readText(SIDEWAYS_WORDS)
    expect(await readingNote()).toBe("Latin script: read in English. The text was turned 270° to read it upright.")
    // The word boxes stand on the image as it was read.
    await panel.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>("figure img")
      return image?.src.startsWith("blob:") && image.complete && image.naturalWidth > 0
    })
    const shown = await panel.$eval("figure img", (image) => ({ width: (image as HTMLImageElement).naturalWidth, height: (image as HTMLImageElement).naturalHeight }))
    expect(shown.width).toBeGreaterThan(shown.height)
    expect(packRequests).toEqual(["hin", "fra", "osd", "ukr"])
    await screenshot(panel, "side-panel-ocr-turned-upright")
  }, 180_000)

  it("Keep layout sets a table's words out in their columns, and is remembered", async () => {
    await openTextView("table.png")
    await readText(["Apples", "Bread", "11.75"])
    const plain = await panel.$eval("[data-testid='ocr-text']", (element) => element.textContent!)
    expect(plain).not.toMatch(/\S {2,}\S/)
    await toggle("Keep layout (tables and columns)")
    const laidOut = await panel
      .waitForFunction(() => {
        const text = document.querySelector("[data-testid='ocr-text']")?.textContent ?? ""
        return /\S {2,}\S/.test(text) ? text : null
      })
      .then((handle) => handle.jsonValue() as Promise<string>)
    // The last two columns (quantity, price) start at one column of text in every row.
    const rows = laidOut.split("\n").filter((line) => line.trim())
    expect(rows).toHaveLength(TABLE_LINES.length)
    const lastTwoStarts = (line: string) => [...line.matchAll(/\S+/g)].map((token) => token.index).slice(-2)
    for (const line of rows) expect(lastTwoStarts(line)).toEqual(lastTwoStarts(rows[0]!))
    await screenshot(panel, "side-panel-ocr-keep-layout")
    expect(await seriousAxeViolations(panel)).toEqual([])

    panel = await reloadSidePanel(browser, extension, page, panel)
    await openTextView("table.png")
    await panel.waitForFunction(() => /\S {2,}\S/.test(document.querySelector("[data-testid='ocr-text']")?.textContent ?? ""), { timeout: 90_000 })
    await toggle("Keep layout (tables and columns)")
  }, 180_000)

  it("reads Japanese set in vertical columns, with the vertical-text pack fetched along with Japanese", async () => {
    await openTextView("vertical.png")
    await openLanguagePicker()
    await toggle("Detect language")
    await chooseLanguage("Japanese")
    // Read top to bottom, right to left, with no space put between the characters.
    const text = await readText(["日本語の文章を読みます", "東京は日本の首都です", "今日は良い天気ですね"])
    expect(text.split("\n").map((line) => line.trim())).toEqual([expect.stringMatching(/^日本語の文章を読みます/), expect.stringMatching(/^東京は日本の首都です/), expect.stringMatching(/^今日は良い天気ですね/)])
    expect(packRequests.slice(-2).sort()).toEqual(["jpn", "jpn_vert"])
    await screenshot(panel, "side-panel-ocr-vertical-japanese")
  }, 180_000)
})
