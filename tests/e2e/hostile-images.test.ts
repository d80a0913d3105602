/**
 * A public page cannot make the extension reach the person's intranet, nor send it their cookies, nor swamp the panel:
 * the page names an intranet picture in every way it can, and the intranet counts what reaches it (issue 42, parts 1
 * and 3). The page is news.example and the intranet intranet.test, both mapped to 127.0.0.1 by Chromium's resolver
 * (tests/e2e/intranet-fixture.ts).
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { ADDRESS_REFUSED_MESSAGE } from "~panel/images/image-address"
import { IMAGE_TOO_LARGE_MESSAGE, MAX_ANALYSED_IMAGE_BYTES } from "~panel/images/image-bytes"

import { seriousAxeViolations } from "./axe"
import { eventually, installExtension, launchBrowser, openSidePanel, screenshot, waitForContentScript, type LoadedExtension } from "./browser"
import { BOMB_SIDE, HOST_RULES, startIntranet, startPublicSite } from "./intranet-fixture"

describe("images a hostile page names", () => {
  let intranet: Awaited<ReturnType<typeof startIntranet>>
  let site: Awaited<ReturnType<typeof startPublicSite>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page

  const card = (url: string) => `li[data-url='${url}']`
  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  /** The extension's requests for pictures: a page's carry its address as Referer (the test's own navigations are not pictures). */
  const extensionRequests = () => intranet.requests.filter((request) => !request.fromPage && request.path.includes(".png"))

  /** A card's text and its picture's address and width, once scrolled into view (thumbnails are read as they come near). */
  async function cardState(url: string) {
    return panel.$eval(card(url), (item) => {
      item.scrollIntoView({ block: "center" })
      const image = item.querySelector("img")
      return { text: item.textContent ?? "", src: image?.getAttribute("src") ?? "", width: image?.naturalWidth ?? 0 }
    })
  }

  /** The list, whatever the previous step left open. */
  async function showGrid() {
    await panel.click("#panel-tab-images")
    await panel.waitForSelector("#panel-tab-images[aria-selected='true']")
    const back = await panel.$(button("← All images"))
    if (back) await back.click()
    await panel.waitForSelector("ul[aria-label='Images on this page']")
  }

  /** The analysis's refusal; `timeout`: a 200 MB answer takes its time to be cut off on a busy machine. */
  async function openCard(url: string, timeout = 30_000) {
    await showGrid()
    await (await panel.waitForSelector(`${card(url)} > button`))!.click()
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    return (await panel.waitForSelector("[role='alert']", { timeout }))!.evaluate((element) => element.textContent ?? "")
  }

  beforeAll(async () => {
    intranet = await startIntranet()
    site = await startPublicSite(intranet.port)
    browser = await launchBrowser({ extension: true, args: [HOST_RULES] })
    extension = await installExtension(browser)
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    // The person is signed in to the intranet: its cookies are in the browser.
    await page.goto(`${intranet.origin}/login`, { waitUntil: "load" })
    await page.goto(site.url, { waitUntil: "load" })
    await waitForContentScript(extension.worker, site.url)
    panel = await openSidePanel(browser, extension, page)
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await intranet?.close()
  })

  it("sends no cookie to the intranet, and refuses its addresses named by a public page with a plain message", async () => {
    const named = ["img", "srcset", "background", "frame"].map(site.secret)
    const literal = `http://127.0.0.1:${intranet.port}/secret.png?literal`
    // Listed, from the page and from its cross-origin frame, with no click.
    await eventually(
      () => panel.$$eval("ul[aria-label='Images on this page'] li", (items) => items.map((item) => item.getAttribute("data-url"))),
      (urls) => expect(urls).toEqual(expect.arrayContaining([...named, literal, `${site.url}own.png`])),
      20_000
    )
    // Each named address is requested by the extension as its card comes into view (a name is known to be private
    // only from the address that answered, after the request: Chrome has no DNS API)...
    for (const url of named) {
      await eventually(
        async () => (await cardState(url), extensionRequests().filter((request) => `${intranet.origin}${request.path}` === url)),
        (requests) => expect(requests.length).toBeGreaterThan(0),
        20_000
      )
    }
    // ...and not one of the extension's requests carried the person's cookies (nor did the page's own, cross-site).
    expect(intranet.requests.filter((request) => request.cookie && request.path.startsWith("/secret.png"))).toEqual([])

    for (const url of [...named, literal]) {
      await eventually(
        () => cardState(url),
        (state) => expect(state.text).toContain(ADDRESS_REFUSED_MESSAGE),
        20_000
      )
    }
    // The bare private address is refused before any request.
    expect(extensionRequests().filter((request) => request.path.endsWith("?literal"))).toEqual([])
    // The page's own picture is shown, from the bytes the extension read (no live address of the page).
    await eventually(
      () => cardState(`${site.url}own.png`),
      (state) => {
        expect(state.src).toMatch(/^blob:chrome-extension:/)
        expect(state.width).toBe(640)
      },
      // As long as the refusals above: the panel reads the page's pictures one after another, and in one full CI run
      // this one was not shown within the default 10 s.
      20_000
    )
    await screenshot(panel, "hostile-page-refused")
    expect(await seriousAxeViolations(panel)).toEqual([])
  })

  it("shows an intranet page its own pictures, fetched without cookies", async () => {
    await page.goto(`${intranet.origin}/`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${intranet.origin}/`)
    const own = `${intranet.origin}/secret.png?own`
    const ownReads = () => extensionRequests().filter((request) => request.path.endsWith("?own"))
    await eventually(
      async () => (await cardState(own), ownReads()),
      (reads) => expect(reads.length).toBeGreaterThan(0),
      20_000
    )
    // The page's own load of the picture carried the cookies; the extension's did not.
    expect(intranet.requests.some((request) => request.path.endsWith("?own") && request.fromPage && request.cookie.includes("session=s3cret"))).toBe(true)
    expect(ownReads().filter((request) => request.cookie)).toEqual([])
    await eventually(
      () => cardState(own),
      (state) => {
        expect(state.src).toMatch(/^blob:chrome-extension:/)
        expect(state.width).toBe(640)
      }
    )
  })

  it("reads at most 25 MB of a 200 MB answer and closes its connection", async () => {
    // What reached the panel of each answer, as its network log counts it.
    const huge = `${intranet.origin}/huge.png`
    const session = await panel.createCDPSession()
    const received = new Map<string, number>()
    session.on("Network.requestWillBeSent", (event) => {
      if (event.request.url === huge) received.set(event.requestId, 0)
    })
    session.on("Network.dataReceived", (event) => {
      if (received.has(event.requestId)) received.set(event.requestId, received.get(event.requestId)! + event.dataLength)
    })
    await session.send("Network.enable")

    // One full CI run on a busy machine did not show the refusal within 30 s (it shows in about 3 s alone).
    expect(await openCard(huge, 75_000)).toContain(IMAGE_TOO_LARGE_MESSAGE)
    // The list's picture and the analysis each asked for it once at least; each connection closed long before the end.
    await eventually(
      async () => intranet.hugeAnswers,
      (answers) => {
        expect(answers.length).toBeGreaterThanOrEqual(2)
        for (const answer of answers) {
          expect(answer.finished).toBe(false)
          // What the panel read, and what the two ends' socket buffers held when it closed (on Linux the receiver's
          // grows to net.ipv4.tcp_rmem's 32 MB on loopback): measured about 42 MB here, against 200 MB before.
          expect(answer.written).toBeLessThan(MAX_ANALYSED_IMAGE_BYTES + 40 * 1024 * 1024)
        }
      },
      20_000
    )
    console.log(`200 MB answers: ${intranet.hugeAnswers.map((answer) => `${(answer.written / 1024 / 1024).toFixed(1)} MB written`).join(", ")}; ${[...received.values()].map((bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB reached the panel`).join(", ")}`)
    // The analysis's read, watched from the start: it stopped at the limit, plus what the browser's network service had
    // read ahead for it by the time the cancel reached it (3.4 MiB measured on a busy 2-core machine; 200 MB
    // without the limit).
    expect(received.size).toBeGreaterThan(0)
    for (const bytes of received.values()) expect(bytes).toBeLessThanOrEqual(MAX_ANALYSED_IMAGE_BYTES + 8 * 1024 * 1024)
    await session.detach()
  }, 150_000)

  it("refuses, before decoding it, a picture whose header declares 100 000 × 100 000 pixels", { timeout: 150_000 }, async () => {
    const bomb = `${intranet.origin}/bomb.png`
    const message = `${BOMB_SIDE.toLocaleString("en")} × ${BOMB_SIDE.toLocaleString("en")} pixels`
    await showGrid()
    await eventually(
      () => cardState(bomb),
      (state) => expect(state.text).toContain(message),
      20_000
    )
    await screenshot(panel, "hostile-bomb-refused")
    // The refusal comes before any decoding, but on a busy 2-core run the panel itself took over 30 s to get there.
    expect(await openCard(bomb, 75_000)).toContain(message)
    await screenshot(panel, "hostile-bomb-detail")
    expect(extensionRequests().filter((request) => request.cookie)).toEqual([])
  })
})
