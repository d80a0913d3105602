/**
 * The translation laid over the image in the built extension's side panel: after Text (OCR) and Translate, *Show
 * on image* paints each line's translation over its line, on the sign's own colour; Original / Translated toggles;
 * the overlay is text a drag selects in reading order; *Translate image* from the page's menu goes from the
 * page's image to its translated picture in one step. The model is a stand-in on loopback that translates the
 * sign's lines as a JSON array, as the prompt asks.
 */
import type { Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { seriousAxeViolations } from "./axe"
import { eventually, inWorker, type LoadedExtension, SCREENSHOT_DIR, screenshot } from "./browser"
import { FRENCH, SIGN, SIGN_BACKGROUND, SIGN_INK, startSignSetup, type SignSetup } from "./translate-fixture"

/** Parses "rgb(r, g, b)" as the browser reports a computed colour. */
const channels = (css: string) => (css.match(/\d+/g) ?? []).slice(0, 3).map(Number)
const near = (actual: number[], expected: number[], tolerance = 24) => actual.length === 3 && actual.every((value, index) => Math.abs(value - expected[index]!) <= tolerance)

describe("the translation over the image", () => {
  let setup: SignSetup
  let provider: SignSetup["provider"]
  let extension: LoadedExtension
  let panel: Page

  const signUrl = () => setup.signUrl
  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  /** Clicks what `selector` finds once it is there, scrolled mid-view: at the bottom it would sit under the fixed section bar. */
  async function clickMidView(selector: string) {
    const element = (await panel.waitForSelector(selector, { timeout: 20_000 }))!
    await element.evaluate((found) => found.scrollIntoView({ block: "center" }))
    await element.click()
  }
  const overlayLines = () => panel.$$eval("[data-testid='translated-layer'] [data-line]", (lines) => lines.map((line) => line.textContent))

  beforeAll(async () => {
    setup = await startSignSetup()
    ;({ provider, extension, panel } = setup)
  }, 120_000)

  afterAll(async () => {
    await setup?.close()
  })

  it("lays the sign's translation over it on the sign's colours, toggles back to the original, and selects in reading order", async () => {
    await (await panel.waitForSelector(`li[data-url='${signUrl()}'] > button`, { timeout: 15_000 }))!.click()
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    await panel.waitForFunction((count: number) => document.querySelectorAll("[data-testid='text-layer'] [data-line]").length === count, { timeout: 90_000 }, SIGN.length)
    await (await panel.waitForSelector("xpath/.//label[normalize-space()='Translate into']"))!.evaluate((label) => {
      const select = document.getElementById((label as HTMLLabelElement).htmlFor) as HTMLSelectElement
      select.value = "fr"
      select.dispatchEvent(new Event("change", { bubbles: true }))
    })
    const before = provider.requests.length
    await clickMidView(button("Translate"))
    await clickMidView(button("Show on image"))
    await eventually(overlayLines, (lines) => expect(lines).toEqual(SIGN.map((line) => FRENCH[line])))
    // One request for the whole image.
    expect(provider.requests.length - before).toBe(1)
    expect(await panel.$("[data-testid='text-layer']")).toBeNull()

    // Each line is painted on the board's yellow, in its navy, the font fitted inside the line's box.
    const painted = await panel.$$eval("[data-testid='translated-layer'] [data-line]", (lines) =>
      lines.map((line) => {
        const style = getComputedStyle(line)
        const range = document.createRange()
        range.selectNodeContents(line)
        const text = range.getBoundingClientRect()
        const box = line.getBoundingClientRect()
        return { background: style.backgroundColor, ink: style.color, fits: text.width <= box.width + 1 && text.height <= box.height + 1, fontSize: parseFloat(style.fontSize) }
      })
    )
    for (const line of painted) {
      expect(near(channels(line.background), SIGN_BACKGROUND), line.background).toBe(true)
      expect(near(channels(line.ink), SIGN_INK, 60), line.ink).toBe(true)
      expect(line.fits).toBe(true)
      expect(line.fontSize).toBeGreaterThan(8)
    }
    expect(await seriousAxeViolations(panel)).toEqual([])
    await screenshot(panel, "translate-overlay-panel")

    // Original shows the image as it is, with its text layer; Translated lays the translation back.
    await panel.click(button("Original"))
    await panel.waitForSelector("[data-testid='text-layer']")
    expect(await panel.$("[data-testid='translated-layer']")).toBeNull()
    await panel.click("xpath/.//button[starts-with(normalize-space(), 'Translated')]")
    await eventually(overlayLines, (lines) => expect(lines).toHaveLength(SIGN.length))

    // A drag from the first line's first letter to the last line's last selects the translation in reading order.
    await panel.$eval("[data-testid='translated-layer']", (layer) => layer.scrollIntoView({ block: "center" }))
    const texts = await panel.$$eval("[data-testid='translated-layer'] [data-line]", (lines) =>
      lines.map((line) => {
        const range = document.createRange()
        range.selectNodeContents(line)
        return range.getBoundingClientRect().toJSON() as DOMRect
      })
    )
    const first = texts[0]!
    const last = texts.at(-1)!
    await panel.mouse.move(first.left + 1, first.top + first.height / 2)
    await panel.mouse.down()
    await panel.mouse.move(last.right - 1, last.top + last.height / 2, { steps: 8 })
    await panel.mouse.up()
    const selected = await panel.evaluate(() => window.getSelection()?.toString() ?? "")
    expect(selected.replace(/\s+/g, " ").trim()).toBe(SIGN.map((line) => FRENCH[line]).join(" "))
  }, 150_000)

  it("goes from the page's image to its translated picture with Translate image", async () => {
    await panel.click(button("← All images"))
    const before = provider.requests.length
    // The page's menu entry, as Chrome calls it on the image (the panel is open already, so no gesture is needed).
    await inWorker(
      extension.worker,
      async (src: string, url: string) => {
        const [tab] = await chrome.tabs.query({ url })
        const info = { menuItemId: "translate-image", srcUrl: src, pageUrl: url, mediaType: "image", editable: false, frameId: 0 }
        ;(chrome.contextMenus.onClicked as unknown as { dispatch(...args: unknown[]): void }).dispatch(info, tab)
      },
      signUrl(),
      setup.pageUrl
    )
    await eventually(overlayLines, (lines) => expect(lines).toHaveLength(SIGN.length), 90_000)
    // Into the browser's language: headless Chromium here speaks English.
    expect(await overlayLines()).toEqual(SIGN.map((line) => `[English] ${line}`))
    expect(provider.requests.length - before).toBe(1)
    await panel.setViewport({ width: 375, height: 900 })
    await screenshot(panel, "translate-overlay-375")
  }, 120_000)

  it("goes from the page's image to its translated picture with Translate image beside the on-image button", async () => {
    await panel.click(button("← All images"))
    await panel.waitForSelector("ul[aria-label='Images on this page']")
    const before = provider.requests.length
    const { page } = setup
    await page.bringToFront()
    await page.hover("img")
    const analyse = (await page.waitForSelector('aria/Analyse image with Image Query AI[role="button"]', { visible: true, timeout: 5_000 }))!
    const translate = (await page.waitForSelector('aria/Translate image with Image Query AI[role="button"]', { visible: true, timeout: 5_000 }))!
    // Beside the button, on its left, in line with it.
    const [analyseBox, translateBox] = [(await analyse.boundingBox())!, (await translate.boundingBox())!]
    expect(translateBox.x + translateBox.width).toBeLessThanOrEqual(analyseBox.x)
    expect(analyseBox.x - (translateBox.x + translateBox.width)).toBeLessThan(8)
    expect(translateBox.y).toBe(analyseBox.y)
    await page.screenshot({ optimizeForSpeed: true, path: `${SCREENSHOT_DIR}/translate-image-button.png`, clip: { x: 0, y: 0, width: 960, height: 520 } })
    await translate.click()
    await eventually(overlayLines, (lines) => expect(lines).toEqual(SIGN.map((line) => `[English] ${line}`)), 90_000)
    expect(provider.requests.length - before).toBe(1)
  }, 120_000)
})
