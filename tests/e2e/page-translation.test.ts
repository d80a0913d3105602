/**
 * The page translation script (page-translation.js) in the built extension, in Chromium: injected into a page of signs
 * by an extension context with chrome.scripting.executeScript (as the side panel does while *Translate images on
 * this page* is on) and told what to show with the panel's messages, carrying hand-made translations. The translation
 * lies over the right image and stays on it as a container scrolls, as the page scrolls past a sticky image, as the
 * window narrows, on a scaled and turned image; it is text a person can select and a screen reader reads; it hides
 * for the originals and comes back; the badge's buttons, by mouse and keyboard, tell the panel; CLEAR leaves the
 * page as it was.
 */
import type { Browser, ElementHandle, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { PAGE_TRANSLATION_FILE } from "~extension/messaging/page-translation-messages"
import { TRANSLATION_HOST_TAG } from "~extension/page-translation/surface"

import { eventually, inWorker, installExtension, launchBrowser, type LoadedExtension, SCREENSHOT_DIR, screenshot, waitForContentScript, watchPageErrors } from "./browser"
import { COLUMN_BOX, frenchTranslation, serveSignsPage, SIGN_WIDTH, SIGNS, translationName, type Sign } from "./page-translation-fixture"

type Box = { left: number; top: number; width: number; height: number }

/** Two boxes that agree to `tolerance` CSS pixels on every side. */
function expectSameBox(actual: Box, expected: Box, tolerance = 1.5) {
  for (const side of ["left", "top", "width", "height"] as const) expect(Math.abs(actual[side] - expected[side]), `${side}: ${actual[side]} against ${expected[side]}`).toBeLessThanOrEqual(tolerance)
}

describe("translations laid over a page's images", () => {
  let signs: Awaited<ReturnType<typeof serveSignsPage>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let pageErrors: string[]
  let pageBefore: string

  const sign = (id: string) => SIGNS.find((candidate) => candidate.id === id)!

  /** Runs `message` through chrome.tabs.sendMessage to the page's top frame from the service worker, as the panel does. */
  const send = (message: object) =>
    inWorker(
      extension.worker,
      async (url: string, body: object) => {
        const [tab] = await chrome.tabs.query({ url })
        return chrome.tabs.sendMessage(tab!.id!, body, { frameId: 0 })
      },
      signs.pageUrl,
      message
    )

  const inject = () =>
    inWorker(
      extension.worker,
      async (url: string, file: string) => {
        const [tab] = await chrome.tabs.query({ url })
        await chrome.scripting.executeScript({ target: { tabId: tab!.id!, allFrames: true }, files: [file] })
      },
      signs.pageUrl,
      PAGE_TRANSLATION_FILE
    )

  const state = (overrides: object = {}) => send({ type: "PAGE_TRANSLATION_STATE", showing: true, status: "translating", done: 2, total: 4, ...overrides })
  /** The actions the badge sent, as the worker received them. */
  const actions = () => inWorker(extension.worker, async () => (globalThis as unknown as { pageActions: { action: string; frameId?: number }[] }).pageActions)

  /** The translation over `item`, found as assistive technology finds it (the host's root is closed). */
  const translationOf = async (item: Sign) => (await page.waitForSelector(`aria/${translationName(item)}[role="group"]`, { timeout: 10_000 })) as ElementHandle<HTMLElement>
  const imageBox = (item: Sign) => page.$eval(`#${item.id}`, (image) => image.getBoundingClientRect().toJSON() as Box)
  const layerBox = (layer: ElementHandle<HTMLElement>) => layer.evaluate((element) => element.getBoundingClientRect().toJSON() as Box)

  beforeAll(async () => {
    signs = await serveSignsPage()
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    page = await browser.newPage()
    pageErrors = watchPageErrors(page)
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(signs.pageUrl, { waitUntil: "load" })
    pageBefore = await page.evaluate(() => document.body.outerHTML)
    // The page index first (the panel has listed the page's images by then), then the page translation.
    await waitForContentScript(extension.worker, signs.pageUrl)
    await inject()
    await inWorker(extension.worker, async () => {
      const received: { action: string; frameId?: number }[] = []
      ;(globalThis as unknown as { pageActions: typeof received }).pageActions = received
      chrome.runtime.onMessage.addListener((message: { type?: string; action?: string }, sender) => {
        if (message?.type === "PAGE_TRANSLATION_ACTION") received.push({ action: message.action!, frameId: sender.frameId })
      })
    })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await signs?.close()
  })

  it("lays each translation over its own image, as text in its own colours, named for screen readers", async () => {
    for (const item of SIGNS) expect(await send({ type: "PAGE_TRANSLATION_SHOW", url: signs.signUrl(item), translation: frenchTranslation(item) })).toEqual({ shown: true })
    expect(await send({ type: "PAGE_TRANSLATION_SHOW", url: `${signs.pageUrl}/missing.png`, translation: frenchTranslation(SIGNS[0]!) })).toEqual({ shown: false })

    const plain = sign("plain")
    const layer = await translationOf(plain)
    expectSameBox(await layerBox(layer), await imageBox(plain))
    const lines = await layer.evaluate((element) =>
      Array.from(element.querySelectorAll<HTMLElement>("[data-line]"), (line) => ({
        text: line.textContent,
        lang: line.lang,
        box: line.getBoundingClientRect().toJSON() as Box,
        background: getComputedStyle(line).backgroundColor,
        ink: getComputedStyle(line).color,
        writingMode: getComputedStyle(line).writingMode
      }))
    )
    expect(lines.map((line) => line.text)).toEqual([...plain.french, plain.column!.french])
    expect(lines.every((line) => line.lang === "fr" && line.background === "rgb(250, 220, 40)" && line.ink === "rgb(20, 40, 110)")).toBe(true)
    // Each over its own row of the sign: the first in the upper half, the second in the lower.
    const image = await imageBox(plain)
    expect(lines[0]!.box.top).toBeGreaterThanOrEqual(image.top)
    expect(lines[0]!.box.top + lines[0]!.box.height).toBeLessThan(image.top + image.height / 2)
    expect(lines[1]!.box.top).toBeGreaterThan(image.top + image.height / 2)
    expect(lines[1]!.box.top + lines[1]!.box.height).toBeLessThanOrEqual(image.top + image.height)
    // The column is set top to bottom, down the sign's right edge.
    const column = lines[2]!
    expect(lines.map((line) => line.writingMode)).toEqual(["horizontal-tb", "horizontal-tb", "vertical-rl"])
    expect(column.box.height).toBeGreaterThan(column.box.width * 3)
    expect(column.box.left).toBeGreaterThan(image.left + (image.width * COLUMN_BOX.x0) / SIGN_WIDTH - 10)

    // An element's background image: its translation covers the padding box, inside the border.
    const banner = sign("banner")
    const paddingBox = await page.$eval("#banner", (element) => {
      const box = element.getBoundingClientRect()
      return { left: box.left + element.clientLeft, top: box.top + element.clientTop, width: element.clientWidth, height: element.clientHeight }
    })
    expectSameBox(await layerBox(await translationOf(banner)), paddingBox)

    // One closed host of our own, last in the document; the page's own elements as they were.
    expect(await page.$$eval(TRANSLATION_HOST_TAG, (hosts) => hosts.map((host) => [host.shadowRoot, host === document.documentElement.lastElementChild]))).toEqual([[null, true]])
    expect(await page.evaluate(() => document.body.outerHTML)).toBe(pageBefore)
    await screenshot(page, "page-translation-1280")
  })

  it("finds the first injection in place when injected again", async () => {
    await inject()
    await state()
    expect(await page.$$eval(TRANSLATION_HOST_TAG, (hosts) => hosts.length)).toBe(1)
    expect(await page.$$(`aria/${translationName(sign("plain"))}[role="group"]`)).toHaveLength(1)
  })

  it("is text a person can select", async () => {
    const layer = await translationOf(sign("plain"))
    await layer.evaluate((element) => element.scrollIntoView({ block: "center" }))
    const line = await layer.evaluate((element) => element.querySelector("[data-line]")!.getBoundingClientRect().toJSON() as Box)
    await page.mouse.click(line.left + line.width / 2, line.top + line.height / 2, { count: 3 })
    await eventually(
      () => page.evaluate(() => getSelection()?.toString() ?? ""),
      (selected) => expect(selected.trim()).toBe(sign("plain").french[0])
    )
    await page.evaluate(() => getSelection()?.removeAllRanges())
  })

  it("follows its image in a scrolling container, clipped by it", async () => {
    const inner = sign("inner")
    const layer = await translationOf(inner)
    await page.$eval("#scroller", (scroller) => scroller.scrollIntoView({ block: "center" }))
    for (const top of [120, 300]) {
      await page.$eval("#scroller", (scroller, to) => scroller.scrollTo(0, to), top)
      await eventually(
        async () => [await layerBox(layer), await imageBox(inner)] as const,
        ([actual, expected]) => expectSameBox(actual, expected)
      )
    }
    // The box that shows it is the container's inside: what of the sign is scrolled away is not painted over the page.
    const frame = await layer.evaluate((element) => {
      const outer = element.parentElement!.parentElement!.parentElement!
      return { box: outer.getBoundingClientRect().toJSON() as Box, overflow: getComputedStyle(outer).overflow }
    })
    const inside = await page.$eval("#scroller", (scroller) => {
      const box = scroller.getBoundingClientRect()
      return { left: box.left + scroller.clientLeft, top: box.top + scroller.clientTop, width: scroller.clientWidth, height: scroller.clientHeight }
    })
    expect(frame.overflow).toBe("hidden")
    expectSameBox(frame.box, inside)
    await screenshot(page, "page-translation-scrolled-container")
  })

  it("lies over a scaled and turned image, turned with it", async () => {
    const turned = sign("turned")
    const layer = await translationOf(turned)
    await page.$eval("#turned", (image) => image.scrollIntoView({ block: "center" }))
    await eventually(
      async () => [await layerBox(layer), await imageBox(turned)] as const,
      ([actual, expected]) => expectSameBox(actual, expected)
    )
    // A line's centre is where the image's transform takes the centre of its box (a box turned the other way would
    // have the same bounding box, not the same line centres).
    const { actual, expected } = await layer.evaluate((element) => {
      const image = document.getElementById("turned")!
      const matrix = new DOMMatrix(getComputedStyle(image).transform)
      const bounds = image.getBoundingClientRect()
      const line = element.querySelector<HTMLElement>("[data-line]")!
      const local = { x: line.offsetLeft + line.offsetWidth / 2 - image.offsetWidth / 2, y: line.offsetTop + line.offsetHeight / 2 - image.offsetHeight / 2 }
      const shown = line.getBoundingClientRect()
      return {
        actual: { x: shown.left + shown.width / 2, y: shown.top + shown.height / 2 },
        expected: { x: bounds.left + bounds.width / 2 + matrix.a * local.x + matrix.c * local.y, y: bounds.top + bounds.height / 2 + matrix.b * local.x + matrix.d * local.y }
      }
    })
    expect(Math.abs(actual.x - expected.x)).toBeLessThan(1.5)
    expect(Math.abs(actual.y - expected.y)).toBeLessThan(1.5)
    await screenshot(page, "page-translation-turned")
  })

  it("stays on a sticky image as the page scrolls", async () => {
    const sticky = sign("sticky")
    const layer = await translationOf(sticky)
    for (const offset of [0, 300, 700]) {
      await page.$eval("#sticky-section", (section, by) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY + by), offset)
      await eventually(
        async () => [await layerBox(layer), await imageBox(sticky)] as const,
        ([actual, expected]) => expectSameBox(actual, expected)
      )
    }
    expect((await imageBox(sticky)).top).toBeCloseTo(0, 0)
  })

  it("hides for the originals and comes back at once, over its image", async () => {
    const plain = sign("plain")
    const layer = await translationOf(plain)
    await page.$eval("#plain", (image) => image.scrollIntoView({ block: "center" }))
    await state({ showing: false })
    await eventually(() => layer.evaluate((element) => element.getClientRects().length), (rects) => expect(rects).toBe(0))
    await page.evaluate(() => window.scrollBy(0, 40))
    await state({ showing: true })
    await eventually(() => layer.evaluate((element) => element.getClientRects().length), (rects) => expect(rects).toBe(1))
    expectSameBox(await layerBox(layer), await imageBox(plain))
  })

  it("goes with its image when the page hides or removes it, and comes back with it", async () => {
    const plain = sign("plain")
    const shown = await translationOf(plain)
    await page.$eval("#plain", (image) => ((image as HTMLElement).style.display = "none"))
    await eventually(() => shown.evaluate((element) => element.getClientRects().length), (rects) => expect(rects).toBe(0))
    await page.$eval("#plain", (image) => ((image as HTMLElement).style.display = ""))
    await eventually(() => shown.evaluate((element) => element.getClientRects().length), (rects) => expect(rects).toBe(1))
    await page.$eval("#plain", (image) => image.remove())
    await eventually(() => page.$$(`aria/${translationName(plain)}[role="group"]`), (found) => expect(found).toHaveLength(0))
    await page.evaluate((html: string) => document.querySelector("main h1")!.insertAdjacentHTML("afterend", html), `<img id="plain" src="plain.svg" alt="${plain.alt}" width="640" height="320">`)
    const layer = await eventually(() => translationOf(plain), () => {})
    await eventually(
      async () => [await layerBox(layer), await imageBox(plain)] as const,
      ([actual, expected]) => expectSameBox(actual, expected)
    )
  })

  it("says the progress on a badge whose buttons tell the panel, by mouse and by keyboard", async () => {
    await page.evaluate(() => window.scrollTo(0, 0))
    await state({ status: "translating", done: 3, total: 12 })
    const badge = (await page.waitForSelector('aria/Image translation[role="group"]'))!
    await eventually(
      () => badge.evaluate((element) => element.querySelector("[role='status']")?.textContent ?? ""),
      (text) => expect(text).toContain("Translating images: 3 of 12")
    )

    // From the keyboard: Tab reaches Stop (after the page's own scrolling container), with a visible focus; Enter presses it.
    const stop = (await page.waitForSelector('aria/Stop[role="button"]')) as ElementHandle<HTMLButtonElement>
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    for (let presses = 0; presses < 6 && !(await stop.evaluate((button) => button.matches(":focus"))); presses++) await page.keyboard.press("Tab")
    expect(await stop.evaluate((button) => button.matches(":focus-visible"))).toBe(true)
    const outline = await stop.evaluate((button) => getComputedStyle(button).outlineStyle)
    expect(outline).toBe("solid")
    await badge.screenshot({ path: `${SCREENSHOT_DIR}/page-translation-badge-focus.png` })
    await page.keyboard.press("Enter")
    await eventually(actions, (received) => expect(received.at(-1)).toEqual({ action: "stop", frameId: 0 }))

    // Show originals: the translations go at once, the button says what it now does, and the panel is told.
    const toggle = (await page.waitForSelector('aria/Show originals[role="button"]')) as ElementHandle<HTMLButtonElement>
    const layer = await translationOf(sign("plain"))
    await toggle.click()
    await eventually(actions, (received) => expect(received.at(-1)).toEqual({ action: "show-originals", frameId: 0 }))
    expect(await layer.evaluate((element) => element.getClientRects().length)).toBe(0)
    expect(await toggle.evaluate((button) => button.textContent)).toBe("Show translations")
    await toggle.click()
    await eventually(actions, (received) => expect(received.at(-1)).toEqual({ action: "show-translations", frameId: 0 }))
    expect(await layer.evaluate((element) => element.getClientRects().length)).toBe(1)

    await state({ status: "done", done: 12, total: 12 })
    await eventually(
      () => badge.evaluate((element) => element.textContent ?? ""),
      (text) => expect(text).toContain("Images translated: 12")
    )
    expect(await page.$('aria/Stop[role="button"]')).toBeNull()
  })

  it("says why the rest stay original when the quota runs out, with Upgrade, and looks right in a narrow window", async () => {
    await state({ status: "quota", done: 5, total: 12, message: "This month's 10 AI requests are used up: the other images stay as they are.", upgradeUrl: "https://imagequery.ai/pricing" })
    const upgrade = (await page.waitForSelector('aria/Upgrade[role="link"]'))!
    expect(await upgrade.evaluate((link) => (link as HTMLAnchorElement).href)).toBe("https://imagequery.ai/pricing")
    const quotaBadge = (await page.waitForSelector('aria/Image translation[role="group"]'))!
    await quotaBadge.screenshot({ path: `${SCREENSHOT_DIR}/page-translation-quota-badge-1280.png` })
    // The view as the person sees it, the badge in its corner.
    await page.screenshot({ path: `${SCREENSHOT_DIR}/page-translation-view-1280.png`, optimizeForSpeed: true })

    await page.setViewport({ width: 375, height: 800 })
    const plain = sign("plain")
    const layer = await translationOf(plain)
    await eventually(
      async () => [await layerBox(layer), await imageBox(plain)] as const,
      ([actual, expected]) => expectSameBox(actual, expected)
    )
    const badge = (await page.waitForSelector('aria/Image translation[role="group"]'))!
    const box = (await badge.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(375)
    await screenshot(page, "page-translation-375")
    await badge.screenshot({ path: `${SCREENSHOT_DIR}/page-translation-quota-badge-375.png` })
    await page.screenshot({ path: `${SCREENSHOT_DIR}/page-translation-view-375.png`, optimizeForSpeed: true })
    await page.setViewport({ width: 1280, height: 900 })
  })

  it("leaves the page as it was when cleared", async () => {
    expect(await send({ type: "PAGE_TRANSLATION_CLEAR" })).toEqual({ success: true })
    await eventually(() => page.$$(TRANSLATION_HOST_TAG), (hosts) => expect(hosts).toHaveLength(0))
    expect(await page.$('aria/Image translation[role="group"]')).toBeNull()
    expect(await page.$$eval("img", (images) => images.map((image) => [image.getAttribute("src"), image.className]))).toEqual(SIGNS.filter((item) => !item.background).map((item) => [item.file, ""]))
    expect(pageErrors).toEqual([])
  })
})
