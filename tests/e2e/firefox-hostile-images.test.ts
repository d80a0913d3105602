/**
 * The Firefox build against the hostile page of hostile-images.test.ts: Firefox resolves an image's name before the
 * panel asks for it (browser.dns, src/panel/images/image-address.ts), so the intranet a public page names is never requested
 * at all. The names are this computer's through Firefox's network.dns.localDomains, as the intranet's would be
 * through a company's DNS. The build of `npm run build:firefox` (the store package is the firefox.test.ts file's).
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { ADDRESS_REFUSED_MESSAGE } from "~panel/images/image-address"

import { seriousAxeViolations } from "./axe"
import { eventually, screenshot } from "./browser"
import { FIREFOX_EXTENSION_DIR, FIREFOX_PATH, firefoxUnavailableReason, inExtensionPage, launchFirefoxWithExtension, openExtensionPage, waitInPage } from "./firefox"
import { FRAME_HOST, INTRANET_HOST, PUBLIC_HOST, startIntranet, startPublicSite } from "./intranet-fixture"

const unavailable = firefoxUnavailableReason()
if (unavailable && process.env.CI) throw new Error(`The Firefox end-to-end tests must run in CI, but ${unavailable}.`)
if (unavailable) console.warn(`Firefox end-to-end tests skipped: ${unavailable}.`)

describe.skipIf(unavailable)("images a hostile page names, in Firefox", () => {
  let intranet: Awaited<ReturnType<typeof startIntranet>>
  let site: Awaited<ReturnType<typeof startPublicSite>>
  let browser: Browser
  let page: Page
  let panel: Page

  const extensionRequests = () => intranet.requests.filter((request) => !request.fromPage && request.path.includes(".png"))
  /** A card's text and its picture's address and width, once scrolled into view. */
  const cardState = (url: string) =>
    panel.$eval(`li[data-url='${url}']`, (item) => {
      item.scrollIntoView({ block: "center" })
      const image = item.querySelector("img")
      return { text: item.textContent ?? "", src: image?.getAttribute("src") ?? "", width: image?.naturalWidth ?? 0 }
    })

  /** The panel of the tab showing `url`, as the on-image button opens it in a window of its own. */
  async function openPanelFor(url: string): Promise<Page> {
    const helper = await browser.newPage()
    await openExtensionPage(helper, "popup.html")
    const tabId = await eventually(
      // Firefox's match patterns carry no port: the tabs are compared by address instead.
      () => inExtensionPage(helper, async (pageUrl: string) => (await chrome.tabs.query({})).find((tab) => tab.url === pageUrl)?.id ?? null, url),
      (id) => expect(id).not.toBeNull()
    )
    await openExtensionPage(helper, `sidepanel.html?tab=${tabId}`)
    return helper
  }

  beforeAll(async () => {
    intranet = await startIntranet()
    site = await startPublicSite(intranet.port)
    browser = await launchFirefoxWithExtension(FIREFOX_EXTENSION_DIR, FIREFOX_PATH, { "network.dns.localDomains": [PUBLIC_HOST, FRAME_HOST, INTRANET_HOST].join(",") })
    page = (await browser.pages())[0]!
    await page.goto(`${intranet.origin}/login`, { waitUntil: "load" })
    await page.goto(site.url, { waitUntil: "load" })
    await waitInPage(page, () => document.querySelector("iframe") !== null, [])
    panel = await openPanelFor(site.url)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await intranet?.close()
  })

  it("never requests the intranet a public page names, and says why in the panel", async () => {
    const named = ["img", "srcset", "background", "frame"].map(site.secret)
    const literal = `http://127.0.0.1:${intranet.port}/secret.png?literal`
    for (const url of [...named, literal]) {
      await eventually(
        () => cardState(url),
        (state) => expect(state.text).toContain(ADDRESS_REFUSED_MESSAGE),
        30_000
      )
    }
    await eventually(
      () => cardState(`${site.url}own.png`),
      (state) => {
        expect(state.src).toMatch(/^blob:moz-extension:/)
        expect(state.width).toBe(640)
      }
    )
    // Resolved first: not one request of the extension reached the intranet, and none carried a cookie.
    expect(extensionRequests()).toEqual([])
    expect(intranet.requests.filter((request) => request.cookie && request.path.startsWith("/secret.png"))).toEqual([])
    await screenshot(panel, "firefox-hostile-page-refused")
    expect(await seriousAxeViolations(panel)).toEqual([])
  })

  it("shows an intranet page its own pictures, fetched without cookies", async () => {
    await page.bringToFront()
    await page.goto(`${intranet.origin}/`, { waitUntil: "load" })
    const own = `${intranet.origin}/secret.png?own`
    // The panel follows its tab: the intranet's page is listed once loaded.
    await eventually(
      () => cardState(own),
      (state) => {
        expect(state.src).toMatch(/^blob:moz-extension:/)
        expect(state.width).toBe(640)
      },
      30_000
    )
    expect(intranet.requests.some((request) => request.path.endsWith("?own") && request.fromPage && request.cookie.includes("session=s3cret"))).toBe(true)
    const reads = extensionRequests().filter((request) => request.path.endsWith("?own"))
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.filter((request) => request.cookie)).toEqual([])
  })
})
