/**
 * The on-image button on a page that tries to steer it (issue 42, part 2), in Chromium with the built extension:
 * - clickjacking: the page draws a decoy over the button in the top layer (a popover with pointer-events: none, which
 *   our highest z-index cannot beat and a click passes through), in the page's DOM or inside a closed shadow root, and
 *   may take the decoy away at the very press. The click must do nothing and say why;
 * - a swapped image: a capturing pointerdown points the pointed-at image at an "intranet" address. The click must be
 *   refused, say so, and the intranet server must see no request.
 * The page's CSP allows only its own images, so it cannot load the intranet address itself: every request the intranet
 * server counts comes from the extension.
 */
import fs from "node:fs"
import http from "node:http"
import type net from "node:net"
import path from "node:path"

import type { Browser, BoundingBox, Page } from "puppeteer-core"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { BUTTON_COVERED_MESSAGE, IMAGE_CHANGED_MESSAGE } from "~extension/button-host"
import type { SelectedImage } from "~extension/selected-image"

import { eventually, installExtension, inWorker, launchBrowser, SCREENSHOT_DIR, watchPageErrors, type LoadedExtension } from "./browser"

const BUTTON = 'aria/Analyse image with Image Query AI[role="button"]'
const PHOTO = fs.readFileSync(path.resolve("tests/fixtures/square-512.png"))

interface CountingServer {
  url: string
  /** The paths asked for, in order. */
  requests: string[]
  close(): Promise<void>
}

/** An HTTP server on 127.0.0.1 answering `routes` (path to type and body) and remembering every path asked for. */
async function countingServer(routes: Record<string, { type: string; body: string | Buffer }>): Promise<CountingServer> {
  const requests: string[] = []
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://server").pathname
    requests.push(pathname)
    const route = routes[pathname]
    if (!route) response.writeHead(404).end("not found")
    else response.writeHead(200, { "content-type": route.type, "cache-control": "no-store" }).end(route.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

const HOSTILE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="img-src 'self'">
<title>Claim your prize</title>
<style>body { margin: 0; padding: 24px; font: 16px sans-serif; }</style>
</head><body>
<h1>Claim your prize</h1>
<img id="photo" src="/photo.png" alt="A prize" width="480" height="360">
</body></html>`

/**
 * The decoy a page draws over the button: a transparent top-layer popover over the whole viewport that lets clicks
 * through, with a "Claim prize" button painted where ours is. `where` says where it lives; `hideOnPress` takes it
 * away in a capturing pointerdown, before our button sees the press.
 */
function drawDecoy(box: { x: number; y: number; width: number; height: number }, where: "document" | "closed shadow root", hideOnPress: boolean) {
  const layer = document.createElement("div")
  layer.setAttribute("popover", "manual")
  layer.style.cssText = "position: fixed; inset: 0; width: 100vw; height: 100vh; margin: 0; padding: 0; border: 0; background: transparent; pointer-events: none"
  const prize = document.createElement("div")
  prize.textContent = "Claim prize"
  prize.style.cssText = `position: absolute; left: ${box.x - 6}px; top: ${box.y - 6}px; width: ${box.width + 12}px; height: ${box.height + 12}px; display: grid; place-items: center; background: #16A34A; color: white; font: bold 15px sans-serif; border-radius: 8px`
  layer.append(prize)
  if (where === "document") document.body.append(layer)
  else {
    const host = document.createElement("prize-banner")
    host.attachShadow({ mode: "closed" }).append(layer)
    document.body.append(host)
  }
  layer.showPopover()
  if (hideOnPress) window.addEventListener("pointerdown", () => layer.hidePopover(), true)
}

describe("the on-image button on a hostile page", () => {
  let intranet: CountingServer
  let site: CountingServer
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
      expect(intranet.requests).toEqual([])
    }
  }

  const clickCentre = (box: BoundingBox, delay = 0) => page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { delay })

  beforeAll(async () => {
    intranet = await countingServer({ "/secret.png": { type: "image/png", body: PHOTO } })
    site = await countingServer({
      "/": { type: "text/html; charset=utf-8", body: HOSTILE_PAGE },
      "/photo.png": { type: "image/png", body: PHOTO },
      "/favicon.ico": { type: "image/png", body: PHOTO }
    })
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    page = await browser.newPage()
    pageErrors = watchPageErrors(page)
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await intranet?.close()
  })

  /** Each test on a fresh load of the page, with the panel closed and nothing picked. */
  beforeEach(async () => {
    await inWorker(extension.worker, async () => {
      for (const window of await chrome.windows.getAll()) await chrome.sidePanel.close({ windowId: window.id! }).catch(() => {})
      await chrome.storage.session.remove("selectedImage")
    })
    await eventually(async () => panelOpen(), (open) => expect(open).toBe(false))
    await page.goto(`${site.url}/`, { waitUntil: "load" })
  })

  it("acts on a plain click on this page: the photo is picked and the side panel opens", async () => {
    const button = await pointAtPhoto()
    await clickCentre(button)
    await eventually(selectedImage, (picked) => expect(picked?.url).toBe(`${site.url}/photo.png`))
    await eventually(async () => panelOpen(), (open) => expect(open).toBe(true))
  })

  it.each([
    ["a top-layer popover in the page", "document", false],
    ["a top-layer popover in a closed shadow root", "closed shadow root", false],
    ["a top-layer popover the page takes away as the button is pressed", "document", true]
  ] as const)("does nothing when %s is drawn over it, and says why", async (_name, where, hideOnPress) => {
    const box = await pointAtPhoto()
    await page.mouse.move(5, 5)
    await page.waitForSelector(BUTTON, { hidden: true, timeout: 5_000 })
    await page.evaluate(drawDecoy, { x: box.x, y: box.y, width: box.width, height: box.height }, where, hideOnPress)
    // The person points at the "prize" (the photo under it brings our button up beneath the decoy), reads it, clicks.
    expect(await pointAtPhoto()).toEqual(box)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (where === "document") {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
      await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "image-button-decoy.png"), clip: { x: 0, y: 0, width: 560, height: 440 } })
    }
    await clickCentre(box, 80)
    await eventually(accessibleTexts, (texts) => expect(texts).toContain(BUTTON_COVERED_MESSAGE))
    await expectNothingHappensFor(1_500)
  })

  it("refuses the click when the page points the image at another address as it is pressed, and fetches nothing from there", async () => {
    await page.evaluate((secret: string) => {
      window.addEventListener("pointerdown", () => ((document.getElementById("photo") as HTMLImageElement).src = secret), true)
    }, `${intranet.url}/secret.png`)
    const box = await pointAtPhoto()
    // A person's press lasts a little: long enough for the swapped address to become the image's current one.
    await clickCentre(box, 250)
    await eventually(accessibleTexts, (texts) => expect(texts).toContain(IMAGE_CHANGED_MESSAGE))
    expect(await page.$eval("#photo", (image) => (image as HTMLImageElement).currentSrc)).toBe(`${intranet.url}/secret.png`)
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "image-button-changed.png"), clip: { x: 0, y: 0, width: 560, height: 440 } })
    await expectNothingHappensFor(1_500)
  })

  it("logged no error in the page", () => {
    // The swapped address is refused by the page's own CSP: that is the page's doing, not ours.
    expect(pageErrors.filter((error) => !error.includes("Content Security Policy") && !error.includes("secret.png"))).toEqual([])
  })
})
