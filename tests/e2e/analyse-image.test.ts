import fs from "node:fs"
import path from "node:path"

import type { Browser, BoundingBox, ElementHandle, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { PageImage } from "~extension/messaging/messages"
import type { SelectedImage } from "~extension/panel-handoff/selected-image"

import { eventually, installExtension, inWorker, launchBrowser, SCREENSHOT_DIR, waitForContentScript, watchPageErrors, type LoadedExtension } from "./browser"
import { serveFixtures } from "./server"

/** The button lives in a closed shadow root: it is found the way assistive technology finds it. */
const BUTTON = 'aria/Analyse image with Image Query AI[role="button"]'
const INSET = 8

interface Rect {
  left: number
  top: number
  right: number
  bottom: number
}

describe("the on-image 'Analyse image' button and the context-menu entry", () => {
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let pageUrl: string
  let pageErrors: string[]
  const workerErrors: string[] = []
  const workerWarnings: string[] = []

  const extensionUrl = (file: string) => `chrome-extension://${extension.id}/${file}`
  const fixtureUrl = (file: string) => `${fixtures.url}/${file}`

  beforeAll(async () => {
    fixtures = await serveFixtures(path.resolve("tests/fixtures"))
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    extension.worker.on("console", (message) => {
      if (message.type() === "error") workerErrors.push(message.text())
      if (message.type() === "warn") workerWarnings.push(message.text())
    })
    pageUrl = fixtureUrl("analyse-image.html")
    page = await browser.newPage()
    pageErrors = watchPageErrors(page)
    await page.goto(pageUrl, { waitUntil: "load" })
    // The button's listeners are in place once the detector answers (both are injected together).
    await waitForContentScript(extension.worker, pageUrl)
  })

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
  })

  const rectOf = (selector: string): Promise<Rect> =>
    page.$eval(selector, (element) => {
      const { left, top, right, bottom } = element.getBoundingClientRect()
      return { left, top, right, bottom }
    })

  const shownButton = async (): Promise<{ handle: ElementHandle; box: BoundingBox }> => {
    const handle = (await page.waitForSelector(BUTTON, { visible: true, timeout: 5_000 }))!
    const box = (await handle.boundingBox())!
    return { handle, box }
  }

  const selectedImage = () =>
    inWorker(extension.worker, async () => (await chrome.storage.session.get("selectedImage")).selectedImage as SelectedImage | undefined)

  const panelTarget = () => browser.targets().find((target) => target.url() === extensionUrl("sidepanel.html"))

  /** Closes the side panel and forgets the selection, so that the next flow must open and select again. */
  async function resetPanel() {
    await inWorker(extension.worker, async () => {
      const windows = await chrome.windows.getAll()
      for (const window of windows) await chrome.sidePanel.close({ windowId: window.id! }).catch(() => {})
      await chrome.storage.session.remove("selectedImage")
    })
    await eventually(async () => panelTarget(), (target) => expect(target).toBeUndefined())
  }

  async function pageTabId(): Promise<number> {
    return inWorker(extension.worker, async (url: string) => (await chrome.tabs.query({ url }))[0]!.id!, pageUrl)
  }

  const activeId = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.localName)

  /** The labelled button's width depends on the fonts; the icon-only one is square. */
  function expectOverTopRight(box: BoundingBox, image: Rect, shape: "labelled" | "icon") {
    if (shape === "icon") expect(box.width).toBe(32)
    else expect(box.width).toBeGreaterThan(100)
    expect(box.height).toBe(32)
    expect(Math.abs(box.x + box.width - (image.right - INSET))).toBeLessThanOrEqual(1)
    expect(Math.abs(box.y - (Math.max(image.top, 0) + INSET))).toBeLessThanOrEqual(1)
  }

  /** Waits for the shown button to sit over `image`: it may still be over the image it was shown for before. */
  const expectButtonOver = (image: Rect, shape: "labelled" | "icon") =>
    eventually(
      async () => (await shownButton()).box,
      (box) => expectOverTopRight(box, image, shape)
    )

  /** Waits for the focus to be on the element of this id (or tag name): key handlers move it. */
  const expectFocusOn = (id: string) => eventually(activeId, (active) => expect(active).toBe(id))
  /** The focused control's accessible name, read from the accessibility tree: our buttons sit in a closed shadow root. */
  async function focusedName(): Promise<string | undefined> {
    type AxNode = { name?: string; focused?: boolean; role?: string; children?: AxNode[] }
    const deepest = (node: AxNode | null | undefined): string | undefined =>
      (node?.children ?? []).map(deepest).find(Boolean) ?? (node?.focused && node.role !== "RootWebArea" ? node.name : undefined)
    return deepest((await page.accessibility.snapshot({ interestingOnly: false })) as AxNode | null)
  }

  it("appears over a large image under the pointer, follows scrolling, and is never offered on small images", async () => {
    // The handlers run while the input event is dispatched: no button now means none at all.
    await page.hover("#tiny")
    expect(await page.$(BUTTON)).toBeNull()
    await page.hover("#shrunk")
    expect(await page.$(BUTTON)).toBeNull()

    await page.hover("#large")
    await expectButtonOver(await rectOf("#large"), "labelled")
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "analyse-button-hover.png"), clip: { x: 0, y: 0, width: 900, height: 480 }, captureBeyondViewport: false })

    // Narrower than the label: the icon alone.
    await page.hover("#narrow")
    await expectButtonOver(await rectOf("#narrow"), "icon")
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "analyse-button-compact.png"), clip: { x: 0, y: 0, width: 900, height: 480 }, captureBeyondViewport: false })

    // Scrolled until the image's top is out of view (the pointer near its top stays over it):
    // the button moves with it and stays on its visible part.
    const before = await rectOf("#large")
    await page.mouse.move(before.left + 50, before.top + 20)
    await shownButton()
    await page.evaluate(() => window.scrollBy(0, 200))
    const scrolled = await rectOf("#large")
    expect(scrolled.top).toBeLessThan(0)
    await eventually(
      async () => (await (await page.$(BUTTON))!.boundingBox())!,
      (moved) => expectOverTopRight(moved, scrolled, "labelled")
    )
    await page.evaluate(() => window.scrollTo(0, 0))

    // The pointer can travel onto the button: it stays well past the grace delay, then hides once the pointer leaves both.
    await page.hover("#large")
    const over = (await shownButton()).box
    await page.mouse.move(over.x + over.width / 2, over.y + over.height / 2)
    await new Promise((resolve) => setTimeout(resolve, 900))
    expect(await page.$(BUTTON)).not.toBeNull()
    await page.mouse.move(5, 5)
    await page.waitForSelector(BUTTON, { hidden: true, timeout: 5_000 })
  })

  it("works on images in open shadow roots and in frames, selecting the image with the top page's address", async () => {
    await page.hover("pierce/#shadow-image")
    const shadowImage = await page.evaluate(() => {
      const { left, top, right, bottom } = document.getElementById("shadow-host")!.shadowRoot!.getElementById("shadow-image")!.getBoundingClientRect()
      return { left, top, right, bottom }
    })
    await expectButtonOver(shadowImage, "labelled")

    await resetPanel()
    const frame = page.frames().find((candidate) => candidate.url().endsWith("/analyse-image-frame.html"))!
    await frame.hover("#framed")
    // Each frame has its own button, over its own images.
    const handle = (await frame.waitForSelector(BUTTON, { visible: true, timeout: 5_000 }))!
    const frameBox = (await (await page.$("#frame"))!.boundingBox())!
    await eventually(
      async () => (await handle.boundingBox())!,
      (box) => {
        expect(box.x).toBeGreaterThan(frameBox.x)
        expect(box.y).toBeGreaterThan(frameBox.y)
        expect(box.x + box.width).toBeLessThan(frameBox.x + frameBox.width)
      }
    )
    await handle.click()
    await browser.waitForTarget((target) => target.url() === extensionUrl("sidepanel.html"), { timeout: 10_000 })
    const selected = await eventually(selectedImage, (value) => expect(value?.url).toBe(fixtureUrl("square-512.png?framed")))
    expect(selected).toMatchObject({ tabId: await pageTabId(), pageUrl })
    await page.mouse.move(5, 5)
    await page.evaluate(() => window.scrollTo(0, 0))
  })

  it("keeps the page's styles out of its UI, under a strict CSP and hostile !important rules", async () => {
    await page.hover("#large")
    const { box } = await shownButton()
    const style = await page.$eval("image-query-ai-button", (host) => {
      const computed = getComputedStyle(host)
      return { display: computed.display, opacity: computed.opacity, transform: computed.transform, position: computed.position, shadowRoot: host.shadowRoot }
    })
    // Closed shadow root: the page sees no way in.
    expect(style).toEqual({ display: "block", opacity: "1", transform: "none", position: "fixed", shadowRoot: null })
    expect(box.width).toBeGreaterThan(100)
    await page.mouse.move(5, 5)
    await page.waitForSelector(BUTTON, { hidden: true, timeout: 5_000 })
  })

  it("opens the real side panel with the clicked image selected", async () => {
    await resetPanel()
    const tabId = await pageTabId()
    await page.focus("#start")
    await page.hover("#large")
    const { handle } = await shownButton()
    await handle.click()
    await browser.waitForTarget((target) => target.url() === extensionUrl("sidepanel.html"), { timeout: 10_000 })
    const selected = await eventually(selectedImage, (value) => expect(value?.url).toBe(fixtureUrl("square-512.png?large")))
    expect(selected).toMatchObject({ tabId, pageUrl })
    await page.waitForSelector(BUTTON, { hidden: true, timeout: 5_000 })
    // A mouse click leaves the page's focus where it was.
    expect(await activeId()).toBe("start")
  })

  it("is reachable from the keyboard: Tab from the image's link, then Translate image, Shift+Tab back, Escape hides it, Enter activates it", async () => {
    await resetPanel()
    await page.mouse.move(5, 5)
    await page.focus("#start")
    await page.keyboard.press("Tab")
    await expectFocusOn("linked")
    await expectButtonOver(await rectOf("#linked img"), "labelled")

    // The button is the next Tab stop, Translate image beside it the one after; Tab from that goes on to what follows the link.
    await page.keyboard.press("Tab")
    await expectFocusOn("image-query-ai-button")
    await eventually(focusedName, (name) => expect(name).toBe("Analyse image with Image Query AI"))
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "analyse-button-focus.png"), clip: { x: 0, y: 200, width: 900, height: 300 }, captureBeyondViewport: false })
    await page.keyboard.press("Tab")
    await eventually(focusedName, (name) => expect(name).toBe("Translate image with Image Query AI"))
    await page.keyboard.down("Shift")
    await page.keyboard.press("Tab")
    await page.keyboard.up("Shift")
    await eventually(focusedName, (name) => expect(name).toBe("Analyse image with Image Query AI"))
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    await expectFocusOn("after")
    await page.waitForSelector(BUTTON, { hidden: true, timeout: 5_000 })

    await page.keyboard.down("Shift")
    await page.keyboard.press("Tab")
    await page.keyboard.up("Shift")
    await expectFocusOn("linked")
    await shownButton()
    await page.keyboard.press("Tab")
    await page.keyboard.down("Shift")
    await page.keyboard.press("Tab")
    await page.keyboard.up("Shift")
    await expectFocusOn("linked")

    // Escape from the button: hidden, focus back on the link, and Tab then skips the button.
    await page.keyboard.press("Tab")
    await page.keyboard.press("Escape")
    await expectFocusOn("linked")
    await eventually(
      () => page.$(BUTTON),
      (button) => expect(button).toBeNull()
    )
    await page.keyboard.press("Tab")
    await expectFocusOn("after")

    await page.keyboard.down("Shift")
    await page.keyboard.press("Tab")
    await page.keyboard.up("Shift")
    await shownButton()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await browser.waitForTarget((target) => target.url() === extensionUrl("sidepanel.html"), { timeout: 10_000 })
    await eventually(selectedImage, (value) => expect(value?.url).toBe(fixtureUrl("square-512.png?linked")))
    expect((await selectedImage())?.action).toBe("analyse")
    await expectFocusOn("linked")
    expect(page.url()).toBe(pageUrl)

    // Translate image from the keyboard: the panel opens on the image with the translation asked for.
    await resetPanel()
    await page.focus("#start")
    await page.keyboard.press("Tab")
    await expectFocusOn("linked")
    await shownButton()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    await eventually(focusedName, (name) => expect(name).toBe("Translate image with Image Query AI"))
    await page.keyboard.press("Enter")
    await browser.waitForTarget((target) => target.url() === extensionUrl("sidepanel.html"), { timeout: 10_000 })
    await eventually(selectedImage, (value) => expect(value).toMatchObject({ url: fixtureUrl("square-512.png?linked"), action: "translate" }))
    await expectFocusOn("linked")
  })

  it("registers 'Analyse image' on images, and its click handler opens the side panel with the image selected", async () => {
    await resetPanel()
    // Updating an entry fails when it does not exist (no API reads back an entry's contexts).
    const outcome = await eventually(
      () =>
        inWorker(
          extension.worker,
          () =>
            new Promise<string>((resolve) =>
              chrome.contextMenus.update("analyse-image", { title: "Analyse image" }, () => resolve(chrome.runtime.lastError?.message ?? "exists"))
            )
        ),
      (value) => expect(value).toBe("exists")
    )
    expect(outcome).toBe("exists")

    // Puppeteer cannot open a context menu. Dispatching the registered onClicked listener from the
    // worker alone carries no user gesture, and Chrome refuses the panel, as it would for a handler
    // that awaits before opening it: the rule the flows above depend on is really enforced here.
    await inWorker(
      extension.worker,
      async (url: string) => {
        const [tab] = await chrome.tabs.query({ url })
        const info = { menuItemId: "analyse-image", srcUrl: `${url}#no-gesture`, pageUrl: url, mediaType: "image", editable: false, frameId: 0 }
        ;(chrome.contextMenus.onClicked as unknown as { dispatch(...args: unknown[]): void }).dispatch(info, tab)
      },
      pageUrl
    )
    await eventually(async () => workerWarnings.join("\n"), (warnings) => expect(warnings).toContain("may only be called in response to a user gesture"))
    expect(panelTarget()).toBeUndefined()

    // The closest honest route with a gesture: a real click in an extension tab sends a message,
    // and the worker dispatches contextMenus.onClicked synchronously inside it, so the registered
    // handler runs with the user's gesture as Chrome's menu would give it.
    await inWorker(extension.worker, async () => {
      chrome.runtime.onMessage.addListener((message: { type?: string; srcUrl?: string }, sender) => {
        if (message?.type !== "TEST_MENU_CLICK" || !sender.tab) return false
        const info = { menuItemId: "analyse-image", srcUrl: message.srcUrl, pageUrl: sender.tab.url, mediaType: "image", editable: false, frameId: 0 }
        ;(chrome.contextMenus.onClicked as unknown as { dispatch(...args: unknown[]): void }).dispatch(info, sender.tab)
        return false
      })
    })
    const menuPage = await browser.newPage()
    await menuPage.goto(extensionUrl("popup.html"))
    const srcUrl = fixtureUrl("square-512.png?menu")
    await menuPage.evaluate((url: string) => {
      const trigger = document.createElement("button")
      trigger.id = "menu-click"
      trigger.textContent = "Analyse image"
      trigger.addEventListener("click", () => void chrome.runtime.sendMessage({ type: "TEST_MENU_CLICK", srcUrl: url }))
      document.body.prepend(trigger)
    }, srcUrl)
    const menuTabId = await inWorker(extension.worker, async (url: string) => (await chrome.tabs.query({ url }))[0]!.id!, extensionUrl("popup.html"))
    await menuPage.click("#menu-click")
    await browser.waitForTarget((target) => target.url() === extensionUrl("sidepanel.html"), { timeout: 10_000 })
    const selected = await eventually(selectedImage, (value) => expect(value?.url).toBe(srcUrl))
    expect(selected).toMatchObject({ tabId: menuTabId, pageUrl: extensionUrl("popup.html") })
    await menuPage.close()
  })

  it("refuses the button's message from anything but its content script", async () => {
    // An extension page opened in a tab has a sender.tab too, but an extension URL.
    const panel = await browser.newPage()
    await panel.goto(extensionUrl("popup.html"))
    const fromPage = await panel.evaluate(() => chrome.runtime.sendMessage({ type: "OPEN_SIDE_PANEL_FOR_IMAGE", url: "https://example.com/a.png" }))
    expect(fromPage).toEqual({ success: false, error: "Only Image Query AI's own content script may open the side panel for an image" })
    await panel.close()
  })

  it("keeps its own UI out of the page's image list", async () => {
    const hosts = await page.$$eval("[data-image-query-ai]", (nodes) => nodes.map((node) => node.localName))
    expect(hosts).toEqual(["image-query-ai-button"])
    const images = await inWorker(
      extension.worker,
      async (url: string) => {
        const [tab] = await chrome.tabs.query({ url })
        return ((await chrome.tabs.sendMessage(tab!.id!, { type: "PAGE_IMAGES_REQUEST" }, { frameId: 0 })) as { images: PageImage[] }).images
      },
      pageUrl
    )
    expect(images.map(({ url }) => url).sort()).toEqual(
      ["square-512.png?large", "square-512.png?linked", "square-512.png?narrow", "square-512.png?shadow", "square-512.png?shrunk", "square-64.png"].map(fixtureUrl).sort()
    )
  })

  it("logged no error in the page or the service worker", () => {
    expect(pageErrors).toEqual([])
    expect(workerErrors).toEqual([])
  })
})
