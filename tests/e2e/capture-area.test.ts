import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { readsEveryLine } from "~engine-check/ocr-sample"
import { CAPTURE_NOT_ALLOWED_MESSAGE, CAPTURED_AREA_NAME } from "~extension/capture/area-capture"
import { SHORTCUTS_PAGE_URL } from "~panel/settings/ShortcutsSettings"

import { seriousAxeViolations } from "./axe"
import { EXTENSION_DIR, eventually, installExtension, inWorker, launchBrowser, openSidePanel, screenshot, waitForContentScript, watchPageErrors, type LoadedExtension } from "./browser"
import { canvasBox, CANVAS_LINES, CAPTURE_FIXTURE_PAGE, dragOverCanvas, overlayShown, VIDEO_LINE } from "./capture-fixture"
import { serveFixtures } from "./server"

describe("capturing an area of the page", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  let panelErrors: string[]

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const capturedTiles = () => panel.$$eval("ul[aria-label='Images on this page'] li", (items) => items.filter((item) => item.textContent?.includes("Captured area")).length)

  async function backToGrid() {
    await panel.click("#panel-tab-images")
    await panel.waitForSelector("#panel-tab-images[aria-selected='true']")
    const back = await panel.$(button("← All images"))
    // From the keyboard: on a long result the sticky header can lie over the button where a click would land.
    if (back) {
      await back.focus()
      await panel.keyboard.press("Enter")
    }
    await panel.waitForSelector("ul[aria-label='Images on this page'], [data-testid='image-count']")
  }

  async function startCapture({ keyboard = false } = {}) {
    if (keyboard) {
      await (await panel.$(button("Capture area")))!.focus()
      await panel.keyboard.press("Enter")
    } else {
      await panel.click(button("Capture area"))
    }
    await panel.waitForSelector("[data-testid='area-capture-status']")
    await page.waitForFunction(() => (document.documentElement.lastElementChild as HTMLElement | null)?.style.zIndex === "2147483647")
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "capture-fixtures-"))
    fs.writeFileSync(path.join(folder, "index.html"), CAPTURE_FIXTURE_PAGE)
    fixtures = await serveFixtures(folder)
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    page = await browser.newPage()
    // The window's own size, as for a user: captureVisibleTab takes the real view, not an emulated viewport.
    await page.setViewport(null)
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await page.waitForSelector("body[data-drawn='true']")
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    panel = await openSidePanel(browser, extension, page)
    panelErrors = watchPageErrors(panel)
    await panel.waitForSelector("[data-testid='image-count']", { timeout: 15_000 })
  })

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("declares the commands in the built manifest, and the page menu entry", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION_DIR, "manifest.json"), "utf8")) as { commands?: Record<string, { suggested_key?: { default?: string }; description?: string }> }
    expect(manifest.commands?.["capture-area"]?.suggested_key?.default).toBe("Alt+Shift+S")
    expect(manifest.commands?.["toggle-side-panel"]?.suggested_key?.default).toBe("Alt+Shift+Q")
    expect(manifest.commands?.["translate-page"]).toEqual({ suggested_key: { default: "Alt+Shift+T" }, description: "Translate images on this page" })
    const commands = await inWorker(extension.worker, () => chrome.commands.getAll())
    expect(commands.map((command) => [command.name, command.shortcut])).toEqual(expect.arrayContaining([["capture-area", "Alt+Shift+S"], ["toggle-side-panel", "Alt+Shift+Q"]]))
    // Chrome on Linux and Windows keeps Alt+Shift+T for itself (focus the toolbar) and leaves the suggestion unset:
    // the person gives the command a key on the browser's shortcut page (Firefox takes the suggestion).
    expect(commands.map((command) => command.name)).toContain("translate-page")
    // The entries exist when Chrome accepts a change to them (there is no menu listing to read).
    await inWorker(extension.worker, () => chrome.contextMenus.update("capture-area", { title: "Capture an area to analyse" }))
    await inWorker(extension.worker, () => chrome.contextMenus.update("translate-page", { title: "Translate images on this page" }))
  })

  it("captures a dragged area of a canvas: the panel shows it first as 'Captured area' and reads its text on the device", async () => {
    await backToGrid()
    await startCapture()
    const box = await canvasBox(page)
    await dragOverCanvas(page, box, async () => {
      await screenshot(page, "capture-overlay-mid-drag")
      // The overlay's own elements are in a closed shadow root: axe checks the page around it.
      expect(await seriousAxeViolations(page)).toEqual([])
    })
    await panel.waitForFunction((name: string) => document.querySelector("figcaption")?.textContent?.includes(name), { timeout: 20_000 }, CAPTURED_AREA_NAME)
    expect(await overlayShown(page)).toBe(false)
    // The capture has the device's pixels: the area dragged (8 px inside the canvas) times the pixel ratio.
    const ratio = await page.evaluate(() => window.devicePixelRatio)
    const size = await panel.$eval("figcaption", (caption) => caption.textContent ?? "")
    const [width, height] = /(\d+) × (\d+)/.exec(size)!.slice(1).map(Number)
    expect(Math.abs(width! - (box.width - 8) * ratio)).toBeLessThanOrEqual(2)
    expect(Math.abs(height! - (box.height - 8) * ratio)).toBeLessThanOrEqual(2)
    // Text is the default analysis, and a local one: it runs at once.
    const text = await panel.waitForFunction(() => document.querySelector("[data-testid='ocr-text']")?.textContent, { timeout: 90_000 })
    const read = String(await text.jsonValue())
    expect(readsEveryLine(read, CANVAS_LINES), read).toBe(true)
    // Every analysis is offered for it.
    for (const label of ["Text (OCR)", "Faces", "Objects", "Ask"]) expect(await panel.$(button(label))).not.toBeNull()
    await screenshot(panel, "capture-panel-result")
    expect(await seriousAxeViolations(panel)).toEqual([])

    await backToGrid()
    const first = await panel.$eval("ul[aria-label='Images on this page'] li", (item) => item.textContent ?? "")
    expect(first).toContain(CAPTURED_AREA_NAME)
  })

  it.each([
    ["an SVG's vector text", "svg", "SVG WORDS"],
    ["a paused video's frame", "video", VIDEO_LINE]
  ])("captures what is not an image: %s", async (_what, selector, line) => {
    await backToGrid()
    await startCapture()
    const box = await page.$eval(selector, (element) => {
      const { x, y, width, height } = element.getBoundingClientRect()
      return { x, y, width, height }
    })
    await page.mouse.move(box.x + 2, box.y + 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width - 2, box.y + box.height - 2, { steps: 4 })
    await page.mouse.up()
    const text = await panel.waitForFunction(() => document.querySelector("[data-testid='ocr-text']")?.textContent, { timeout: 60_000 })
    const read = String(await text.jsonValue())
    expect(readsEveryLine(read, [line]), read).toBe(true)
  })

  it.each([
    ["the keyboard command", "command"],
    ["the page's menu entry", "menu"]
  ])("starts from %s too", async (_way, way) => {
    await backToGrid()
    // Puppeteer can press neither a browser shortcut nor a menu entry: their listeners are dispatched in the worker
    // (without a gesture, so only the panel's opening is refused: it is open already).
    await inWorker(
      extension.worker,
      async (pageUrl: string, how: string) => {
        const [tab] = await chrome.tabs.query({ url: pageUrl })
        type Dispatchable = { dispatch(...args: unknown[]): void }
        if (how === "command") (chrome.commands.onCommand as unknown as Dispatchable).dispatch("capture-area", tab)
        else (chrome.contextMenus.onClicked as unknown as Dispatchable).dispatch({ menuItemId: "capture-area", pageUrl, editable: false, frameId: 0 }, tab)
      },
      `${fixtures.url}/index.html`,
      way
    )
    await panel.waitForSelector("[data-testid='area-capture-status']")
    await page.waitForFunction(() => (document.documentElement.lastElementChild as HTMLElement | null)?.style.zIndex === "2147483647")
    await dragOverCanvas(page, await canvasBox(page))
    const text = await panel.waitForFunction(() => document.querySelector("[data-testid='ocr-text']")?.textContent, { timeout: 60_000 })
    expect(readsEveryLine(String(await text.jsonValue()), CANVAS_LINES)).toBe(true)
  })

  it("ignores events the page's own scripts dispatch on the overlay; the user's drag still captures", async () => {
    await backToGrid()
    const before = await capturedTiles()
    await startCapture()
    const box = await canvasBox(page)
    // The page finds the overlay's host and fakes a drag, Enter (the whole view) and Escape: untrusted events, all ignored.
    await page.evaluate(({ x, y, width, height }) => {
      const host = document.documentElement.lastElementChild!
      const at = (type: string, dx: number, dy: number) => new PointerEvent(type, { clientX: x + dx, clientY: y + dy, button: 0, pointerId: 1, bubbles: true })
      host.dispatchEvent(at("pointerdown", 4, 4))
      host.dispatchEvent(at("pointermove", width / 2, height / 2))
      host.dispatchEvent(at("pointerup", width - 4, height - 4))
      for (const key of ["Enter", "Escape"]) window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }))
    }, box)
    // Given time to act, the overlay is still there and nothing reached the panel.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await overlayShown(page)).toBe(true)
    expect(await capturedTiles()).toBe(before)
    await panel.waitForSelector("[data-testid='area-capture-status']")
    await dragOverCanvas(page, box)
    const text = await panel.waitForFunction(() => document.querySelector("[data-testid='ocr-text']")?.textContent, { timeout: 60_000 })
    expect(readsEveryLine(String(await text.jsonValue()), CANVAS_LINES)).toBe(true)
  })

  it("cancels with Escape on the page or in the panel: no image, and the overlay is gone", async () => {
    await backToGrid()
    const before = await capturedTiles()
    await startCapture()
    await page.keyboard.press("Escape")
    await panel.waitForSelector("[data-testid='area-capture-status']", { hidden: true })
    expect(await overlayShown(page)).toBe(false)

    // From the keyboard alone, in the panel.
    await startCapture({ keyboard: true })
    await panel.keyboard.press("Escape")
    await panel.waitForSelector("[data-testid='area-capture-status']", { hidden: true })
    await page.waitForFunction(() => (document.documentElement.lastElementChild as HTMLElement | null)?.style.zIndex !== "2147483647")
    expect(await panel.$(button("← All images"))).toBeNull()
    expect(await capturedTiles()).toBe(before)
  })

  it("captures the whole view from the keyboard alone: the panel's Capture area, then Capture the whole view", async () => {
    await backToGrid()
    await startCapture({ keyboard: true })
    const whole = await panel.waitForSelector(button("Capture the whole view"))
    await whole!.focus()
    await panel.keyboard.press("Enter")
    await panel.waitForFunction((name: string) => document.querySelector("figcaption")?.textContent?.includes(name), { timeout: 20_000 }, CAPTURED_AREA_NAME)
    expect(await overlayShown(page)).toBe(false)
    // The whole visible page, in the device's pixels.
    const view = await page.evaluate(() => ({ width: window.innerWidth * window.devicePixelRatio, height: window.innerHeight * window.devicePixelRatio }))
    const size = await panel.$eval("figcaption", (caption) => caption.textContent ?? "")
    const [width, height] = /(\d+) × (\d+)/.exec(size)!.slice(1).map(Number)
    expect(Math.abs(width! - view.width)).toBeLessThanOrEqual(2)
    expect(Math.abs(height! - view.height)).toBeLessThanOrEqual(2)
    const text = await panel.waitForFunction(() => document.querySelector("[data-testid='ocr-text']")?.textContent, { timeout: 60_000 })
    expect(readsEveryLine(String(await text.jsonValue()), CANVAS_LINES)).toBe(true)
  }, 120_000)

  it("lists the commands with their keys in Settings and opens the browser's shortcut page", async () => {
    await panel.click("#panel-tab-settings")
    const list = await panel.waitForSelector("[data-testid='shortcut-list']")
    await eventually(
      () => list!.evaluate((element) => element.textContent ?? ""),
      (text) => {
        expect(text).toContain("Capture an area of the page to analyse")
        expect(text).toContain("Alt+Shift+S")
        expect(text).toContain("Open or close the Image Query AI side panel")
        expect(text).toContain("Alt+Shift+Q")
        expect(text).toContain("Translate images on this page")
      }
    )
    await screenshot(panel, "capture-settings-shortcuts")
    expect(await seriousAxeViolations(panel)).toEqual([])
    const shortcutsPage = browser.waitForTarget((target) => target.url() === SHORTCUTS_PAGE_URL, { timeout: 10_000 })
    const change = await panel.waitForSelector(button("Change shortcuts in the browser"))
    await change!.focus()
    await panel.keyboard.press("Enter")
    await (await (await shortcutsPage).asPage())?.close()
    await page.bringToFront()
    await panel.click("#panel-tab-images")
  })

  it("says in words that a browser page cannot be captured", async () => {
    await backToGrid()
    await page.goto("chrome://version")
    await page.bringToFront()
    await panel.waitForFunction(() => document.body.textContent?.includes("This page cannot be scanned"), { timeout: 15_000 })
    await panel.click(button("Capture area"))
    const refusal = await panel.waitForSelector("[data-testid='area-capture-refusal']", { timeout: 10_000 })
    expect(await refusal!.evaluate((element) => element.querySelector("p")?.textContent)).toBe(CAPTURE_NOT_ALLOWED_MESSAGE)
    await panel.click(button("Dismiss"))
    // No API server runs here: the panel's account check cannot connect, and says so in the console.
    expect(panelErrors.filter((error) => !error.includes("net::ERR_CONNECTION_REFUSED"))).toEqual([])
  })

  // Last: it closes the panel. Closing needs no gesture, so the command's listener can be dispatched in the worker.
  it("closes the open side panel with the side panel command", async () => {
    const isPanel = (target: { url(): string }) => target.url() === `chrome-extension://${extension.id}/sidepanel.html`
    expect(browser.targets().some(isPanel)).toBe(true)
    const closed = new Promise<void>((resolve) => browser.on("targetdestroyed", (target) => isPanel(target) && resolve()))
    await inWorker(extension.worker, async () => {
      const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true })
      ;(chrome.commands.onCommand as unknown as { dispatch(...args: unknown[]): void }).dispatch("toggle-side-panel", tab)
    })
    await closed
    await eventually(async () => browser.targets().some(isPanel), (open) => expect(open).toBe(false))
  })
})
