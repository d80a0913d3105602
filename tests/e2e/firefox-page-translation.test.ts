/**
 * The page translation script in Firefox ESR with the Firefox build: injected by the extension's panel page (in a tab
 * of its own, as Firefox shows the panel beside a page) and told what to show with the panel's messages, it lays the
 * translations over the page's images, keeps them there through a scrolling container and a CSS transform, hides them
 * for the originals and clears. The overlay lives in a closed shadow root, of which WebDriver BiDi gives no
 * accessibility tree (the Chromium test reads it): here the page's own hit testing tells where it is, since a
 * translated line takes the pointer (so that its text can be selected) and the page sees our host there.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"
import { PAGE_TRANSLATION_FILE } from "~extension/messaging/page-translation-messages"
import { TRANSLATION_HOST_TAG } from "~extension/page-translation/surface"

import { eventually, screenshot } from "./browser"
import { firefoxUnavailableReason, inExtensionPage, launchFirefoxWithExtension, openExtensionPage, waitInPage } from "./firefox"
import { frenchTranslation, serveSignsPage, SIGN_HEIGHT, SIGN_WIDTH, SIGNS } from "./page-translation-fixture"

const unavailable = firefoxUnavailableReason()
if (unavailable && process.env.CI) throw new Error(`The Firefox end-to-end tests must run in CI, but ${unavailable}.`)
if (unavailable) console.warn(`Firefox end-to-end tests skipped: ${unavailable}.`)

/** The middle of a sign's first line (its box in the fixture: 40–540 × 50–140 of 640 × 320), in the sign's pixels. */
const FIRST_LINE_MIDDLE = { x: 290, y: 95 }
/** A point of the sign outside every line: near its top left corner. */
const BARE_CORNER = { x: 12, y: 12 }

describe.skipIf(unavailable)("translations laid over a page's images, in Firefox", () => {
  let signs: Awaited<ReturnType<typeof serveSignsPage>>
  let browser: Browser
  let page: Page
  let panel: Page
  let tabId: number

  /** Sends `message` to the page's top frame from the panel page, as the panel does. */
  const send = (message: object) =>
    inExtensionPage(panel, async (tab: number, body: object) => chrome.tabs.sendMessage(tab, body, { frameId: 0 }), tabId, message)

  /**
   * What the page finds at a point of a sign (in the sign's own pixels, taken through its CSS transform): "overlay"
   * when it is our host (a translated line), "image" when it is the sign itself.
   */
  const hitAt = (id: string, point: { x: number; y: number }) =>
    page.evaluate(
      (imageId: string, at: { x: number; y: number }, size: { width: number; height: number }, hostTag: string) => {
        const image = document.getElementById(imageId)!
        const bounds = image.getBoundingClientRect()
        const style = getComputedStyle(image)
        const matrix = new DOMMatrix(style.transform === "none" ? undefined : style.transform)
        const local = { x: ((at.x - size.width / 2) * image.offsetWidth) / size.width, y: ((at.y - size.height / 2) * image.offsetHeight) / size.height }
        const x = bounds.left + bounds.width / 2 + matrix.a * local.x + matrix.c * local.y
        const y = bounds.top + bounds.height / 2 + matrix.b * local.x + matrix.d * local.y
        const found = document.elementFromPoint(x, y)
        return found === image ? "image" : found?.localName === hostTag ? "overlay" : (found?.localName ?? "nothing")
      },
      id,
      point,
      { width: SIGN_WIDTH, height: SIGN_HEIGHT },
      TRANSLATION_HOST_TAG
    )

  beforeAll(async () => {
    signs = await serveSignsPage()
    browser = await launchFirefoxWithExtension()
    page = (await browser.pages())[0]!
    await page.goto(signs.pageUrl, { waitUntil: "load" })
    panel = await browser.newPage()
    await openExtensionPage(panel, "popup.html")
    tabId = (await eventually(
      // Firefox's match patterns carry no port: the tab is found by its address.
      () => inExtensionPage(panel, async (url: string) => (await chrome.tabs.query({})).find((tab) => tab.url === url)?.id ?? null, signs.pageUrl),
      (id) => expect(id).not.toBeNull()
    ))!
    await openExtensionPage(panel, `sidepanel.html?tab=${tabId}`)
    // The page index (which the panel injects as it lists the page's images), then the page translation.
    await inExtensionPage(
      panel,
      async (tab: number, files: string[]) => {
        for (const file of files) await chrome.scripting.executeScript({ target: { tabId: tab, allFrames: true }, files: [file] })
      },
      tabId,
      [PAGE_INDEX_FILE, PAGE_TRANSLATION_FILE]
    )
    await page.bringToFront()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await signs?.close()
  })

  it("lays the translations over their images, follows a scrolled container and a turned image, hides them and clears", async () => {
    for (const item of SIGNS) {
      await eventually(
        () => send({ type: "PAGE_TRANSLATION_SHOW", url: signs.signUrl(item), translation: frenchTranslation(item) }),
        (answer) => expect(answer).toEqual({ shown: true })
      )
    }
    await send({ type: "PAGE_TRANSLATION_STATE", showing: true, status: "translating", done: 4, total: 6 })

    // Over the sign's line, and only there.
    await eventually(() => hitAt("plain", FIRST_LINE_MIDDLE), (hit) => expect(hit).toBe("overlay"))
    expect(await hitAt("plain", BARE_CORNER)).toBe("image")
    await screenshot(page, "firefox-page-translation")

    // In a scrolling container, where the sign moves as the container scrolls.
    await page.evaluate(() => {
      const scroller = document.getElementById("scroller")!
      scroller.scrollIntoView({ block: "center" })
      scroller.scrollTo(0, 160)
    })
    await eventually(() => hitAt("inner", FIRST_LINE_MIDDLE), (hit) => expect(hit).toBe("overlay"))
    expect(await hitAt("inner", BARE_CORNER)).toBe("image")

    // Scaled and turned: the line's middle, taken through the transform, is still the translation's.
    await page.evaluate(() => document.getElementById("turned")!.scrollIntoView({ block: "center" }))
    await eventually(() => hitAt("turned", FIRST_LINE_MIDDLE), (hit) => expect(hit).toBe("overlay"))
    expect(await hitAt("turned", BARE_CORNER)).toBe("image")
    await screenshot(page, "firefox-page-translation-turned")

    await send({ type: "PAGE_TRANSLATION_STATE", showing: false, status: "done", done: 4, total: 4 })
    await eventually(() => hitAt("turned", FIRST_LINE_MIDDLE), (hit) => expect(hit).toBe("image"))
    await send({ type: "PAGE_TRANSLATION_STATE", showing: true, status: "done", done: 4, total: 4 })
    await eventually(() => hitAt("turned", FIRST_LINE_MIDDLE), (hit) => expect(hit).toBe("overlay"))

    expect(await send({ type: "PAGE_TRANSLATION_CLEAR" })).toEqual({ success: true })
    await waitInPage(page, (tag: string) => document.querySelector(tag) === null, [TRANSLATION_HOST_TAG])
    expect(await hitAt("turned", FIRST_LINE_MIDDLE)).toBe("image")
    expect(await page.$$eval("img", (images) => images.map((image) => image.getAttribute("src")))).toEqual(SIGNS.filter((item) => !item.background).map((item) => item.file))
  }, 120_000)
})
