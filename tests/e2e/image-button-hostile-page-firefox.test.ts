/**
 * The on-image button on a page that tries to steer it, in Firefox ESR with the Firefox build: the same hostile page
 * as the Chromium test (tests/e2e/hostile-image-page.ts). Firefox has no IntersectionObserver v2, so here the button's
 * own looks at the page (button-visibility.ts) must refuse the decoys and the swapped image. Our button and its note
 * live in a closed shadow root, which WebDriver BiDi gives no accessibility tree of: the note is checked in Chromium,
 * and here that a refused click picks nothing, opens no panel and fetches nothing, while a plain click acts.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { HOST_TAG } from "~extension/in-page/button-host"
import { BUTTON_INSET_PX, COMPACT_BUTTON_SIZE } from "~extension/in-page/button-placement"

import { eventually, screenshot } from "./browser"
import { firefoxesUnderTest, firefoxUnavailableReason, inExtensionPage, launchFirefoxWithExtension, openExtensionPage } from "./firefox"
import { DECOYS, drawDecoy, serveHostileImagePage, swapPhotoOnPress } from "./hostile-image-page"

const unavailable = firefoxUnavailableReason()
if (unavailable && process.env.CI) throw new Error(`The Firefox end-to-end tests must run in CI, but ${unavailable}.`)

describe.skipIf(unavailable).each(firefoxesUnderTest())("the on-image button on a hostile page, in $version", ({ path: firefoxPath, version }) => {
  let servers: Awaited<ReturnType<typeof serveHostileImagePage>>
  let browser: Browser
  let page: Page
  /** An extension page in a tab of its own: where the test reads what the extension did. */
  let extensionPage: Page

  const selectedUrl = () =>
    inExtensionPage(extensionPage, async () => ((await chrome.storage.session.get("selectedImage")).selectedImage as { url?: string } | undefined)?.url ?? null)
  const windowCount = () => inExtensionPage(extensionPage, async () => (await chrome.windows.getAll()).length)

  /** The photo's box, and the middle of the button's rightmost icon-sized part (where it is, whatever its label's width). */
  async function buttonSpot() {
    const photo = await page.$eval("#photo", (image) => {
      const { left, top, right, bottom } = image.getBoundingClientRect()
      return { left, top, right, bottom }
    })
    const half = COMPACT_BUTTON_SIZE.width / 2
    return { photo, x: photo.right - BUTTON_INSET_PX - half, y: photo.top + BUTTON_INSET_PX + half }
  }

  /** Points at the photo until our button is the element at its spot (the content script starts at document_idle). */
  async function pointAtPhoto() {
    const { photo, x, y } = await buttonSpot()
    await eventually(
      async () => {
        await page.mouse.move(5, 5)
        await page.mouse.move((photo.left + photo.right) / 2, (photo.top + photo.bottom) / 2)
        // Our button takes hits (its host's own element, as the page sees it); a decoy with pointer-events: none does not.
        return page.evaluate((spotX: number, spotY: number) => document.elementFromPoint(spotX, spotY)?.localName ?? null, x, y)
      },
      (hit) => expect(hit).toBe(HOST_TAG)
    )
    return { x, y }
  }

  /** For `ms`, nothing may have been picked, no panel window opened and no intranet request made. */
  async function expectNothingHappensFor(ms: number, windowsBefore: number) {
    for (const until = Date.now() + ms; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 250))) {
      expect(await selectedUrl()).toBeNull()
      expect(await windowCount()).toBe(windowsBefore)
      expect(servers.intranetRequestsNotFromPage()).toEqual([])
    }
  }

  beforeAll(async () => {
    servers = await serveHostileImagePage()
    browser = await launchFirefoxWithExtension(undefined, firefoxPath)
    page = (await browser.pages())[0]!
    extensionPage = await browser.newPage()
    await openExtensionPage(extensionPage, "popup.html")
  })

  afterAll(async () => {
    await browser?.close()
    await servers?.close()
  })

  /** A fresh load of the hostile page, in front. */
  async function openHostilePage() {
    await page.bringToFront()
    await page.goto(`${servers.site.url}/`, { waitUntil: "load" })
  }

  it.each(DECOYS)("does nothing when %s is drawn over it", async (_name, where, hideOnPress) => {
    await openHostilePage()
    const windowsBefore = await windowCount()
    const { photo, x, y } = await buttonSpot()
    // Over the button's whole possible width (its label's depends on the fonts).
    const decoy = { x: photo.right - BUTTON_INSET_PX - 150, y: photo.top + BUTTON_INSET_PX, width: 150, height: COMPACT_BUTTON_SIZE.height }
    await page.evaluate(drawDecoy, decoy, where, hideOnPress)
    await pointAtPhoto()
    await page.mouse.move(x, y)
    await new Promise((resolve) => setTimeout(resolve, 600))
    if (where === "document" && !hideOnPress) await screenshot(page, `firefox${/\d+/.exec(version)?.[0] ?? ""}-image-button-decoy`)
    await page.mouse.click(x, y, { delay: 80 })
    await expectNothingHappensFor(2_000, windowsBefore)
  })

  it("refuses the click when the page points the image at another address as it is pressed, and fetches nothing from there", async () => {
    await openHostilePage()
    const windowsBefore = await windowCount()
    await page.evaluate(swapPhotoOnPress, `${servers.intranet.url}/secret.png`)
    const { x, y } = await pointAtPhoto()
    await page.mouse.click(x, y, { delay: 250 })
    await eventually(
      () => page.$eval("#photo", (image) => (image as HTMLImageElement).currentSrc),
      (current) => expect(current).toBe(`${servers.intranet.url}/secret.png`)
    )
    // The page loaded it itself: the requests are there, none of them the extension's.
    expect(servers.intranet.requests.map(({ path }) => path)).toContain("/secret.png")
    await expectNothingHappensFor(2_000, windowsBefore)
  })

  // Last: a click that acts opens the panel's window, which the refusals above must not see.
  it("acts on a plain click on the same page: the photo is picked", async () => {
    await openHostilePage()
    const { x, y } = await pointAtPhoto()
    await page.mouse.click(x, y)
    await eventually(selectedUrl, (url) => expect(url).toBe(`${servers.site.url}/photo.png`), 20_000)
  })
})
