/**
 * Find in images in the built extension's side panel, on a page of 30 images: the panel reads them on this computer
 * (the ones in view first), with progress and Stop, waiting while the user scrolls the page; a word finds exactly the two images whose text holds it, marked;
 * "person" finds the photos with people (face-api's sample photos); Show on page scrolls the page to the image and
 * outlines it.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { OUTLINE_MARK } from "~extension/in-page/image-places"
import { OWN_NODE_ATTRIBUTE } from "~extension/in-page/own-nodes"

import { seriousAxeViolations } from "./axe"
import { eventually, installExtension, launchBrowser, openSidePanel, SCREENSHOT_DIR, type LoadedExtension, waitForContentScript, watchPageErrors } from "./browser"
import { solidPng } from "./png"
import { serveFixtures } from "./server"
import { drawTextImage } from "./text-image"

const FACE_API_DEMO = path.resolve("node_modules/@vladmandic/face-api/demo")
/** The two images whose text holds the word searched, far apart on the page; the second is far below the first view. */
const WORD_IMAGES: Record<string, string[]> = { "word-a.png": ["VISIT THE", "LIGHTHOUSE"], "word-b.png": ["LIGHTHOUSE", "TOURS DAILY"] }
const OTHER_TEXT: Record<string, string[]> = {
  "text-1.png": ["HARBOUR MARKET"],
  "text-2.png": ["FRESH BREAD"],
  "text-3.png": ["CITY MUSEUM"],
  "text-4.png": ["NO PARKING"],
  "text-5.png": ["TRAIN STATION"],
  "text-6.png": ["OPEN SUNDAY"]
}
const PHOTOS = ["sample1.jpg", "sample2.jpg"]
const PLAIN_COUNT = 20
/** Page order: the word images at 4 and 27, the photos at 12 and 20. */
function pageOrder(): string[] {
  const plain = Array.from({ length: PLAIN_COUNT }, (_, index) => `plain-${index}.png`)
  const order = [...Object.keys(OTHER_TEXT), ...plain]
  order.splice(4, 0, "word-a.png")
  order.splice(12, 0, PHOTOS[0]!)
  order.splice(20, 0, PHOTOS[1]!)
  order.splice(27, 0, "word-b.png")
  return order
}

describe("Find in images", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  let panelErrors: string[]
  /** The images the panel fetched to read them, in order (the list's thumbnails are fetched at a low priority). */
  const fetched: string[] = []
  /** Every request the panel makes: none of them may carry an image or its text anywhere. */
  const panelRequests: { url: string; method: string }[] = []
  const order = pageOrder()

  const progress = () => panel.$eval("[data-testid='find-progress']", (element) => element.textContent ?? "")
  const readCount = async () => Number(/Read (\d+) of/.exec(await progress())?.[1] ?? -1)
  const gridNames = () =>
    panel.$$eval("ul[aria-label='Images on this page'] li:not([hidden])", (items) => items.map((item) => (item.getAttribute("data-url") ?? "").split("/").pop()!))
  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`

  async function search(query: string) {
    const box = (await panel.waitForSelector("input#find-in-images"))!
    await box.click({ count: 3 })
    await panel.keyboard.press("Backspace")
    if (query) await box.type(query)
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-find-"))
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    for (const [name, lines] of Object.entries({ ...WORD_IMAGES, ...OTHER_TEXT })) {
      fs.writeFileSync(path.join(folder, name), await drawTextImage(browser, lines, { minHeight: 440 }))
    }
    for (let index = 0; index < PLAIN_COUNT; index++) {
      fs.writeFileSync(path.join(folder, `plain-${index}.png`), solidPng(600 + index * 10, 450, [40 + index * 9, 120, 200 - index * 5]))
    }
    for (const photo of PHOTOS) fs.copyFileSync(path.join(FACE_API_DEMO, photo), path.join(folder, photo))
    const images = order.map((name) => `<figure><img src="/${name}" alt="Image ${name}" id="${name.replace(/\W/g, "-")}"><figcaption>${name}</figcaption></figure>`)
    fs.writeFileSync(
      path.join(folder, "index.html"),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thirty images</title>
      <style>figure{margin:0 0 40px} img{display:block;width:400px;height:260px;object-fit:contain;background:#eee}</style></head>
      <body><h1>Thirty images</h1>${images.join("")}</body></html>`
    )
    fixtures = await serveFixtures(folder)

    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    panel = await openSidePanel(browser, extension, page)
    panelErrors = watchPageErrors(panel)
    panel.on("request", (request) => panelRequests.push({ url: request.url(), method: request.method() }))
    const network = await panel.createCDPSession()
    await network.send("Network.enable")
    network.on("Network.requestWillBeSent", ({ type, request }) => {
      if (type === "Fetch" && request.url.startsWith(fixtures.url) && request.initialPriority !== "Low") fetched.push(request.url.split("/").pop()!)
    })
    await eventually(
      () => panel.$eval("[data-testid='image-count']", (element) => element.textContent),
      (count) => expect(count).toBe("30 images"),
      20_000
    )
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("reads nothing until asked, then the images in view first, with progress, Stop and Continue", async () => {
    expect(await progress()).toMatch(/^Reads this page's images on this computer/)
    expect(fetched).toEqual([])
    // The user is looking at the middle of the page: those images are read first.
    await page.evaluate(() => document.getElementById("plain-8-png")!.scrollIntoView({ block: "start" }))
    const inView = await page.$$eval("img", (images) =>
      images.filter((image) => image.getBoundingClientRect().bottom > 0 && image.getBoundingClientRect().top < innerHeight).map((image) => image.getAttribute("src")!.slice(1))
    )
    expect(inView.length).toBeGreaterThanOrEqual(2)
    expect(inView).not.toContain(order[0])

    panelRequests.length = 0
    await panel.click(button("Read images"))
    await eventually(readCount, (count) => expect(count).toBeGreaterThanOrEqual(inView.length), 120_000)
    expect(fetched.slice(0, inView.length).sort()).toEqual([...inView].sort())
    expect(await progress()).toMatch(/^Read \d+ of 30 images$/)
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "find-in-images-reading.png") })

    await panel.click(button("Stop"))
    await eventually(progress, (text) => expect(text).toMatch(/^Stopped\. Read \d+ of 30 images\.$/), 60_000)
    const stoppedAt = await readCount()
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(await readCount()).toBe(stoppedAt)
    expect(fetched).toHaveLength(stoppedAt)

    // The user scrolls the page: reading waits until the page has been left alone for a moment (up to 10 s).
    await page.evaluate(() => {
      let step = 8
      const timer = setInterval(() => {
        if (scrollY + innerHeight >= document.documentElement.scrollHeight - 2 || (scrollY === 0 && step < 0)) step = -step
        scrollBy(0, step)
      }, 50)
      Object.assign(window, { stopScrolling: () => clearInterval(timer) })
    })
    await panel.click(button("Continue"))
    await eventually(progress, (text) => expect(text).toBe(`Read ${stoppedAt} of 30 images`))
    await new Promise((resolve) => setTimeout(resolve, 5000))
    expect(await readCount()).toBe(stoppedAt)
    await page.evaluate(() => (window as unknown as { stopScrolling(): void }).stopScrolling())
    await eventually(progress, (text) => expect(text).toBe("Read 30 of 30 images"), 300_000)
    expect(new Set(fetched).size).toBe(30)
    // Read on this computer: the panel only downloaded the page's images (and its own engine files).
    expect(panelRequests.filter(({ url }) => !url.startsWith(fixtures.url) && !url.startsWith("chrome-extension://") && !url.startsWith("data:") && !url.startsWith("blob:"))).toEqual([])
    expect(panelRequests.filter(({ method }) => method !== "GET")).toEqual([])
    expect(await panel.$(button("Stop"))).toBeNull()
  }, 420_000)

  it("finds exactly the two images whose text holds the word, with the word marked, and every word must match", async () => {
    await search("lighthouse")
    await eventually(gridNames, (names) => expect(names.sort()).toEqual(["word-a.png", "word-b.png"]))
    expect(await panel.$eval("[data-testid='image-count']", (element) => element.textContent)).toBe("2 images match")
    const marks = await panel.$$eval("[data-testid='match-reasons'] mark", (elements) => elements.map((element) => element.textContent))
    expect(marks).toEqual(["LIGHTHOUSE", "LIGHTHOUSE"])

    await search("Lighthouse  VISIT")
    await eventually(gridNames, (names) => expect(names).toEqual(["word-a.png"]))
    await search("lighthouse parking")
    await eventually(gridNames, (names) => expect(names).toEqual([]))
    expect(await panel.$eval("main", (element) => element.textContent)).toContain("No image shows all these words.")
  })

  it("finds the photos with people for “person”, saying why", async () => {
    await search("person")
    await eventually(gridNames, (names) => expect(names.sort()).toEqual([...PHOTOS].sort()))
    const reasons = await panel.$$eval("[data-testid='match-reasons']", (elements) => elements.map((element) => element.textContent ?? ""))
    for (const reason of reasons) expect(reason).toMatch(/Objects: .*person/)
    await search("faces")
    await eventually(gridNames, (names) => expect(names.sort()).toEqual([...PHOTOS].sort()))
    expect(await panel.$$eval("[data-testid='match-reasons'] mark", (elements) => elements.map((element) => element.textContent))).toEqual(["3 faces", "3 faces"])
  })

  it("shows an image on the page: scrolled into view and outlined for a moment", async () => {
    await page.evaluate(() => window.scrollTo(0, 0))
    await search("lighthouse tours")
    await eventually(gridNames, (names) => expect(names).toEqual(["word-b.png"]))
    const imageBox = () => page.$eval("#word-b-png", (image) => JSON.parse(JSON.stringify(image.getBoundingClientRect())) as DOMRect)
    expect((await imageBox()).top).toBeGreaterThan(900)

    await panel.click(button("Show on page"))
    const outline = `[${OWN_NODE_ATTRIBUTE}="${OUTLINE_MARK}"]`
    await page.waitForSelector(outline, { timeout: 10_000 })
    const placed = await eventually(
      async () => ({ image: await imageBox(), outline: await page.$eval(outline, (element) => JSON.parse(JSON.stringify(element.getBoundingClientRect())) as DOMRect), scrollY: await page.evaluate(() => scrollY) }),
      ({ image, outline: drawn }) => {
        expect(image.top).toBeGreaterThanOrEqual(0)
        expect(image.bottom).toBeLessThanOrEqual(900)
        // The outline lies around the image.
        expect(drawn.left).toBeLessThan(image.left)
        expect(drawn.top).toBeLessThan(image.top)
        expect(drawn.right).toBeGreaterThan(image.right)
        expect(drawn.bottom).toBeGreaterThan(image.bottom)
      }
    )
    expect(placed.scrollY).toBeGreaterThan(1000)
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "find-in-images-page.png") })
    await page.waitForSelector(outline, { hidden: true, timeout: 10_000 })
  })

  it("looks right at 375 and 1280 px, with the words marked, and passes axe", async () => {
    await search("lighthouse")
    await eventually(gridNames, (names) => expect(names).toHaveLength(2))
    for (const width of [375, 1280]) {
      await panel.setViewport({ width, height: 900 })
      await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, `find-in-images-${width}.png`), fullPage: true })
    }
    expect(await seriousAxeViolations(panel)).toEqual([])
    expect(panelErrors.filter((error) => !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(error))).toEqual([])
  })
})
