/**
 * The text layer over an image in the built extension's side panel: after OCR the words lie over the image where
 * they are drawn; a drag selects across lines and Ctrl+C copies them in reading order; a click copies one line;
 * from the keyboard, the text block's lines are copied with Enter.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, BoundingBox, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { normaliseOcrText } from "~engine-check/ocr-sample"

import { seriousAxeViolations } from "./axe"
import { installExtension, launchBrowser, type LoadedExtension, openSidePanel, SCREENSHOT_DIR, waitForContentScript } from "./browser"
import { serveFixtures } from "./server"
import { drawTextImage } from "./text-image"

const LINES = ["IMAGE QUERY AI", "SELECT THESE WORDS", "COPY ONE LINE"]
/** Larger than the 4096 px the panel draws an SVG at for the engines: the boxes come in a scaled copy's pixels. */
const SVG_LINES = ["SCALED COPY", "STILL IN PLACE"]
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="5000" height="2100"><rect width="5000" height="2100" fill="#fff"/>${SVG_LINES.map(
  (line, index) => `<text x="250" y="${700 + index * 700}" font-family="sans-serif" font-weight="bold" font-size="320">${line}</text>`
).join("")}</svg>`

describe("the text layer over an image", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const layerLine = (index: number) => `[data-testid='text-layer'] [data-line='${index}']`
  // A drag aimed at places read while the layout still moves lands elsewhere: wait for two frames that agree.
  const waitForStillLayout = () =>
    panel.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const place = () => JSON.stringify(document.querySelector("[data-testid='text-layer'] [data-line]")!.getBoundingClientRect())
          const before = place()
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(place() === before)))
        }),
      { polling: 100 }
    )
  const lineBox = async (index: number): Promise<BoundingBox> => (await (await panel.$(layerLine(index)))!.boundingBox())!

  /** The system clipboard as the fixture page reads it (the side panel may not read it: it only holds clipboardWrite). */
  async function clipboard(): Promise<string> {
    return page.evaluate(() => navigator.clipboard.readText())
  }

  /** Waits for the clipboard to hold `expected`: a copy by click settles after the click. */
  async function waitForClipboard(expected: (text: string) => boolean): Promise<string> {
    const deadline = Date.now() + 10_000
    for (;;) {
      const text = await clipboard()
      if (expected(text) || Date.now() > deadline) return text
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-text-layer-"))
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    // At least 400 px high: the panel hides smaller images by default.
    fs.writeFileSync(path.join(folder, "lines.png"), await drawTextImage(browser, LINES, { minHeight: 420 }))
    fs.writeFileSync(path.join(folder, "large.svg"), SVG)
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><title>Lines</title><img src="lines.png" alt="Three lines of text" width="1000"><img src="large.svg" alt="Large drawing" width="1000">`)
    fixtures = await serveFixtures(folder)
    await browser.defaultBrowserContext().overridePermissions(fixtures.url, ["clipboard-read", "clipboard-sanitized-write"])

    page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    panel = await openSidePanel(browser, extension, page)
    await panel.waitForSelector(`li[data-url='${fixtures.url}/lines.png'] > button`, { timeout: 15_000 })
    await panel.click(`li[data-url='${fixtures.url}/lines.png'] > button`)
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    await panel.waitForFunction((count: number) => document.querySelectorAll("[data-testid='text-layer'] [data-line]").length === count, { timeout: 90_000 }, LINES.length)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("lays each line over its drawn words, inside the image", async () => {
    const image = (await (await panel.$("figure img"))!.boundingBox())!
    const boxes = await Promise.all(LINES.map((_, index) => lineBox(index)))
    // The drawing puts line i's top at 40 + 100 i px of a 1000 px wide image, from x = 40.
    const scale = image.width / 1000
    boxes.forEach((box, index) => {
      expect(box.x).toBeGreaterThan(image.x + 30 * scale)
      expect(box.x).toBeLessThan(image.x + 50 * scale)
      expect(box.y).toBeGreaterThan(image.y + (30 + 100 * index) * scale)
      expect(box.y + box.height).toBeLessThan(image.y + (40 + 100 * index + 80) * scale)
    })
    // The layer follows the image's display size.
    const narrow = { image: image.width, line: boxes[0]!.width }
    const viewport = panel.viewport()
    await panel.setViewport({ width: 700, height: 900 })
    await panel.waitForFunction((width: number) => document.querySelector("figure img")!.getBoundingClientRect().width > width * 1.5, {}, image.width)
    const wide = { image: (await (await panel.$("figure img"))!.boundingBox())!.width, line: (await lineBox(0)).width }
    expect(wide.line / wide.image).toBeCloseTo(narrow.line / narrow.image, 2)
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "text-layer-wide.png"), clip: (await (await panel.$("figure"))!.boundingBox())! })
    await panel.setViewport(viewport)
    // The next test reads the lines' places: wait until the image is back at its narrow size.
    await panel.waitForFunction((width: number) => Math.abs(document.querySelector("figure img")!.getBoundingClientRect().width - width) < 1, {}, image.width)

    const texts = await panel.$$eval("[data-testid='text-layer'] [data-line]", (lines) => lines.map((line) => line.textContent ?? ""))
    expect(texts.map(normaliseOcrText)).toEqual(LINES)
  })

  it("selects across two lines with a drag, in reading order, and Ctrl+C copies the selection", async () => {
    await waitForStillLayout()
    const first = await lineBox(0)
    const second = await lineBox(1)
    await panel.mouse.move(first.x + 2, first.y + first.height / 2)
    await panel.mouse.down()
    await panel.mouse.move(second.x + second.width - 2, second.y + second.height / 2, { steps: 12 })
    await panel.mouse.up()
    const selected = await panel.evaluate(() => window.getSelection()!.toString())
    expect(selected.split("\n").map(normaliseOcrText)).toEqual(LINES.slice(0, 2))
    const figure = (await (await panel.$("figure"))!.boundingBox())!
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "text-layer-selection.png"), clip: { ...figure, scale: 3 } })

    await panel.keyboard.down("Control")
    await panel.keyboard.press("c")
    await panel.keyboard.up("Control")
    expect(await waitForClipboard((text) => text === selected)).toBe(selected)
  })

  it("copies a clicked line and says so", async () => {
    const third = await lineBox(2)
    await panel.mouse.click(third.x + third.width / 2, third.y + third.height / 2)
    await panel.waitForFunction(() => [...document.querySelectorAll("[role='status']")].some((status) => status.textContent === "Line copied"), { timeout: 10_000 })
    expect(await panel.evaluate(() => window.getSelection()!.toString())).toBe("")
    expect(normaliseOcrText(await waitForClipboard((text) => normaliseOcrText(text) === LINES[2]))).toBe(LINES[2])
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "text-layer-line-copied.png"), clip: (await (await panel.$("figure"))!.boundingBox())! })
  })

  it("copies a line of the text block from the keyboard, outlined on the image meanwhile, and passes axe", async () => {
    await panel.focus("[data-testid='ocr-text'] [data-line='0']")
    await panel.keyboard.press("ArrowDown")
    await panel.waitForFunction(() => document.activeElement?.getAttribute("data-line") === "1")
    await panel.waitForSelector(`${layerLine(1)}.outline-2`)
    await panel.keyboard.press("Enter")
    expect(normaliseOcrText(await waitForClipboard((text) => normaliseOcrText(text) === LINES[1]))).toBe(LINES[1])
    // Copying leaves the focus on the line, and its outline on the image.
    expect(await panel.evaluate(() => document.activeElement?.getAttribute("data-line"))).toBe("1")
    expect(await panel.$(`${layerLine(1)}.outline-2`)).not.toBeNull()
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "text-layer-keyboard.png"), fullPage: true })
    expect(await seriousAxeViolations(panel)).toEqual([])
  })

  it("places the lines of an image the engine read as a scaled copy where they are shown", async () => {
    // From the keyboard: a click could land on the sticky header over the button.
    await (await panel.waitForSelector(button("← All images")))!.focus()
    await panel.keyboard.press("Enter")
    await panel.waitForSelector(`li[data-url='${fixtures.url}/large.svg'] > button`)
    await panel.click(`li[data-url='${fixtures.url}/large.svg'] > button`)
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    await panel.waitForFunction((count: number) => document.querySelectorAll("[data-testid='text-layer'] [data-line]").length === count, { timeout: 90_000 }, SVG_LINES.length)
    expect(await panel.$eval("[data-testid='box-overlay']", (overlay) => overlay.getAttribute("viewBox"))).toBe("0 0 4096 1720")
    const texts = await panel.$$eval("[data-testid='text-layer'] [data-line]", (lines) => lines.map((line) => line.textContent ?? ""))
    expect(texts.map(normaliseOcrText)).toEqual(SVG_LINES)
    const image = (await (await panel.$("figure img"))!.boundingBox())!
    const scale = image.width / 5000
    for (const index of SVG_LINES.keys()) {
      const box = await lineBox(index)
      // Drawn from x = 250, its baseline at y = 700 + 700 i, in 320 px capitals (about 230 px tall).
      expect(Math.abs(box.x - (image.x + 250 * scale))).toBeLessThan(40 * scale)
      expect(Math.abs(box.y + box.height - (image.y + (700 + 700 * index) * scale))).toBeLessThan(40 * scale)
      expect(Math.abs(box.height - 230 * scale)).toBeLessThan(60 * scale)
    }
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "text-layer-scaled-copy.png"), clip: { ...(await (await panel.$("figure"))!.boundingBox())!, scale: 2 } })
  }, 120_000)
})
