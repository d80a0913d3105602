import path from "node:path"

import type { Browser, Page, WebWorker } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { PAGE_INDEX_FILE, type PageImage } from "~extension/messaging/messages"

import { eventually, installExtension, inWorker, launchBrowser, type LoadedExtension } from "./browser"
import { serveFixtures } from "./server"

/**
 * Asks one frame's page index for its images. Frame ids come from chrome.scripting (the
 * extension has "scripting" and <all_urls>; webNavigation is not granted); each frame answers
 * for its own document only.
 */
function frameImages(worker: WebWorker, pageUrl: string, framePath: string): Promise<PageImage[]> {
  return inWorker(
    worker,
    async (url: string, wanted: string, indexFile: string) => {
      const [tab] = await chrome.tabs.query({ url })
      // The page index, injected as the side panel does, then each frame's path to find the one wanted.
      await chrome.scripting.executeScript({ target: { tabId: tab!.id!, allFrames: true }, files: [indexFile] })
      const frames = await chrome.scripting.executeScript({ target: { tabId: tab!.id!, allFrames: true }, func: () => location.pathname })
      const frame = frames.find((result) => result.result === wanted)
      if (!frame) throw new Error(`No frame ${wanted} in ${JSON.stringify(frames)}`)
      const response = (await chrome.tabs.sendMessage(tab!.id!, { type: "PAGE_IMAGES_REQUEST" }, { frameId: frame.frameId })) as {
        images: PageImage[]
      }
      return response.images
    },
    pageUrl,
    framePath,
    PAGE_INDEX_FILE
  )
}

const byUrl = (images: PageImage[]) => [...images].sort((a, b) => a.url.localeCompare(b.url))

describe("image detection by the content script", () => {
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let pageUrl: string

  beforeAll(async () => {
    fixtures = await serveFixtures(path.resolve("tests/fixtures"))
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    await inWorker(extension.worker, async () => {
      const store = globalThis as unknown as { changes: { count: number; frameId?: number }[] }
      store.changes = []
      chrome.runtime.onMessage.addListener((message: { type?: string; count?: number }, sender) => {
        if (message?.type === "PAGE_IMAGES_CHANGED") store.changes.push({ count: message.count!, frameId: sender.frameId })
      })
    })
    pageUrl = `${fixtures.url}/detection.html`
    page = await browser.newPage()
    await page.goto(pageUrl, { waitUntil: "load" })
  })

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
  })

  const image = (name: string, width: number, height: number, renderedWidth: number, renderedHeight: number, alt: string, source: string) => ({
    url: `${fixtures.url}/detection/${name}`,
    width,
    height,
    renderedWidth,
    renderedHeight,
    alt,
    source,
    mimeType: "image/png"
  })

  it("finds img, srcset, picture, both kinds of CSS background and the shadow root's image, follows later changes, and skips pixels, duplicates and its own nodes", async () => {
    // The first request starts the index; the lazy image (500 ms) and the src change (1 s) come through the observer.
    // document_idle: Chrome may inject the content script after the load event; until then no one answers.
    await eventually(
      () => frameImages(extension.worker, pageUrl, "/detection.html"),
      (first) => expect(first.map((found) => found.url)).toContain(`${fixtures.url}/detection/plain.png`)
    )

    const expected = [
      image("after.png", 190, 95, 190, 95, "Changing", "img"),
      image("bg-inline.png", 140, 70, 140, 70, "Inline background", "background"),
      image("bg-rule.png", 150, 75, 300, 100, "Rule background", "background"),
      image("lazy.png", 170, 85, 170, 85, "Lazy", "img"),
      image("pic-source.png", 160, 90, 160, 90, "Pictured", "picture"),
      image("plain.png", 120, 80, 120, 80, "Plain", "img"),
      image("shadow.png", 130, 65, 130, 65, "In a shadow root", "shadow-root"),
      image("wide-200.png", 200, 100, 200, 100, "Responsive", "srcset")
    ]
    await eventually(
      () => frameImages(extension.worker, pageUrl, "/detection.html"),
      (images) => expect(byUrl(images)).toEqual(expected)
    )
  })

  it("reports the iframe's images from the iframe's own content script", async () => {
    // The frame has a content script of its own, injected when the frame's document is idle.
    await eventually(
      () => frameImages(extension.worker, pageUrl, "/detection-frame.html"),
      (images) => expect(images).toEqual([image("frame.png", 110, 55, 110, 55, "In the frame", "img")])
    )
  })

  it("follows removals and additions, ignores its own hosts, and announces changes with PAGE_IMAGES_CHANGED", async () => {
    await page.evaluate(() => {
      document.getElementById("plain")!.remove()
      document.getElementById("duplicate")!.remove()
      const host = document.createElement("div")
      host.setAttribute("data-image-query-ai", "")
      host.innerHTML = '<img src="/detection/own.png?again" alt="ours">'
      document.body.append(host)
      const added = document.createElement("img")
      added.src = "/detection/lazy.png?added"
      added.alt = "Added"
      document.body.append(added)
    })
    const images = await eventually(
      () => frameImages(extension.worker, pageUrl, "/detection.html"),
      (found) => {
        const urls = found.map(({ url }) => url.replace(fixtures.url, ""))
        expect(urls).not.toContain("/detection/plain.png")
        expect(urls).toContain("/detection/lazy.png?added")
        expect(found.find(({ url }) => url.endsWith("?added"))?.width).toBe(170)
      }
    )
    expect(images.map(({ url }) => url).some((url) => url.includes("own.png"))).toBe(false)
    expect(images).toHaveLength(8)

    const changes = await eventually(
      () => inWorker(extension.worker, async () => (globalThis as unknown as { changes: { count: number; frameId?: number }[] }).changes),
      (received) => expect(received.at(-1)).toEqual({ count: 8, frameId: 0 })
    )
    // Throttled: a handful of messages for all of the page's changes, not one per mutation.
    expect(changes.length).toBeLessThanOrEqual(6)
  })
})
