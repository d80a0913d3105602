/**
 * The on-image button on a page that tries to steer it (issue 42, part 2), in Chromium with the built extension
 * (tests/e2e/hostile-image-page.ts has the page and the intranet server; image-button-hostile-page-firefox.test.ts
 * runs the same in Firefox):
 * - clickjacking: the page draws a decoy over the button in the top layer (a popover with pointer-events: none, which
 *   our highest z-index cannot beat and a click passes through), in the page's DOM or inside a closed shadow root, and
 *   may take the decoy away at the very press. The click must do nothing and say why;
 * - a swapped image: a capturing pointerdown points the pointed-at image at an "intranet" address. The click must be
 *   refused, say so, and the intranet server must see no request from the extension (the page's own load of the
 *   swapped address carries its Referer).
 */
import fs from "node:fs"
import path from "node:path"

import type { Browser, BoundingBox, Page } from "puppeteer-core"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { BUTTON_COVERED_MESSAGE, IMAGE_CHANGED_MESSAGE } from "~extension/in-page/button-host"
import type { SelectedImage } from "~extension/panel-handoff/selected-image"

import { eventually, installExtension, inWorker, launchBrowser, SCREENSHOT_DIR, watchPageErrors, type LoadedExtension } from "./browser"
import { DECOYS, drawDecoy, serveHostileImagePage, swapPhotoOnPress } from "./hostile-image-page"

const BUTTON = 'aria/Analyse image with Image Query AI[role="button"]'

describe("the on-image button on a hostile page", () => {
  let servers: Awaited<ReturnType<typeof serveHostileImagePage>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let pageErrors: string[]

  const extensionUrl = (file: string) => `chrome-extension://${extension.id}/${file}`
  const panelOpen = () => browser.targets().some((target) => target.url() === extensionUrl("sidepanel.html"))
  const selectedImage = () =>
    inWorker(extension.worker, async () => (await chrome.storage.session.get("selectedImage")).selectedImage as SelectedImage | undefined)

  /** The texts of the page's accessibility tree: our button and its message live in a closed shadow root. */
  async function accessibleTexts(): Promise<string[]> {
    type AxNode = { name?: string; children?: AxNode[] }
    const names = (node: AxNode | null | undefined): string[] => [...(node?.name ? [node.name] : []), ...(node?.children ?? []).flatMap(names)]
    return names((await page.accessibility.snapshot({ interestingOnly: false })) as AxNode | null)
  }

  /** Points at the photo until the button shows (the content script starts at document_idle), and answers its box. */
  async function pointAtPhoto(): Promise<BoundingBox> {
    return eventually(
      async () => {
        const photo = (await (await page.$("#photo"))!.boundingBox())!
        await page.mouse.move(5, 5)
        await page.mouse.move(photo.x + photo.width / 2, photo.y + photo.height / 2)
        const button = await page.waitForSelector(BUTTON, { visible: true, timeout: 2_000 })
        return (await button!.boundingBox())!
      },
      (box) => expect(box.width).toBeGreaterThan(0)
    )
  }

  /** For `ms`, nothing may have been picked, no side panel opened and no intranet request made: what a refused click leaves. */
  async function expectNothingHappensFor(ms: number) {
    for (const until = Date.now() + ms; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 200))) {
      expect(panelOpen()).toBe(false)
      expect(await selectedImage()).toBeUndefined()
      expect(servers.intranetRequestsNotFromPage()).toEqual([])
    }
  }

  const clickCentre = (box: BoundingBox, delay = 0) => page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { delay })

  async function shoot(name: string) {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, `${name}.png`) })
  }

  beforeAll(async () => {
    servers = await serveHostileImagePage()
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    page = await browser.newPage()
    pageErrors = watchPageErrors(page)
  })

  afterAll(async () => {
    await browser?.close()
    await servers?.close()
  })

  /** Each test on a fresh load of the page at 1280 px, with the panel closed and nothing picked. */
  beforeEach(async () => {
    await inWorker(extension.worker, async () => {
      for (const window of await chrome.windows.getAll()) await chrome.sidePanel.close({ windowId: window.id! }).catch(() => {})
      await chrome.storage.session.remove("selectedImage")
    })
    await eventually(async () => panelOpen(), (open) => expect(open).toBe(false))
    await page.setViewport({ width: 1280, height: 800 })
    await page.goto(`${servers.site.url}/`, { waitUntil: "load" })
  })

  it("acts on a plain click on this page: the photo is picked and the side panel opens", async () => {
    const button = await pointAtPhoto()
    await clickCentre(button)
    await eventually(selectedImage, (picked) => expect(picked?.url).toBe(`${servers.site.url}/photo.png`))
    await eventually(async () => panelOpen(), (open) => expect(open).toBe(true))
  })

  it.each(DECOYS)("does nothing when %s is drawn over it, and says why", async (_name, where, hideOnPress) => {
    const box = await pointAtPhoto()
    await page.mouse.move(5, 5)
    await page.waitForSelector(BUTTON, { hidden: true, timeout: 5_000 })
    await page.evaluate(drawDecoy, { x: box.x, y: box.y, width: box.width, height: box.height }, where, hideOnPress)
    // The person points at the "prize" (the photo under it brings our button up beneath the decoy), reads it, clicks.
    expect(await pointAtPhoto()).toEqual(box)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (where === "document" && !hideOnPress) await shoot("image-button-decoy-1280")
    await clickCentre(box, 80)
    await eventually(accessibleTexts, (texts) => expect(texts).toContain(BUTTON_COVERED_MESSAGE))
    if (where === "document" && !hideOnPress) await shoot("image-button-covered-1280")
    await expectNothingHappensFor(1_500)
  })

  it("refuses the click when the page points the image at another address as it is pressed, and fetches nothing from there", async () => {
    // On a phone-sized viewport: the note stays on screen beside the button.
    await page.setViewport({ width: 375, height: 700 })
    await page.evaluate(swapPhotoOnPress, `${servers.intranet.url}/secret.png`)
    const box = await pointAtPhoto()
    // A person's press lasts a little: long enough for the swapped picture to load and become the image's current one.
    await clickCentre(box, 250)
    await eventually(accessibleTexts, (texts) => expect(texts).toContain(IMAGE_CHANGED_MESSAGE))
    expect(await page.$eval("#photo", (image) => (image as HTMLImageElement).currentSrc)).toBe(`${servers.intranet.url}/secret.png`)
    // The page loaded it itself: the requests are there, none of them the extension's.
    expect(servers.intranet.requests.map(({ path }) => path)).toContain("/secret.png")
    await shoot("image-button-changed-375")
    await expectNothingHappensFor(1_500)
  })

  it("logged no error in the page", () => {
    expect(pageErrors).toEqual([])
  })
})
