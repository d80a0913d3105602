/**
 * The Firefox store package in Firefox ESR, the installed one and the oldest the extension supports when the run has
 * it (tests/e2e/firefox.ts), installed from the unpacked zip: it loads, finds a page's images, opens its panel, reads
 * an image's text on the device, and takes the site's sign-in through the site bridge, which no hostile page or frame
 * can use; the session it keeps is sealed where content scripts cannot read it, and outlives a restart of the extension.
 * Firefox keeps its sidebar out of WebDriver's reach: the sidebar is checked through sidebarAction.isOpen, and what it
 * shows is read in the same page opened as the panel window the on-image button opens.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Frame, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { readsEveryLine } from "~engine-check/ocr-sample"
import { SITE_BRIDGE_GLOBAL } from "~core/extension-message-types"
import { SEAL_ALGORITHM, SEAL_DATABASE, SEAL_KEY_NAME, SEAL_STORE } from "~extension/account/sealed-item"
import { packageExtensions, unzipTo } from "../../scripts/package-extension.mjs"
import { apiOf, registerVerifiedAccount } from "./api-client"
import { seriousAxeViolations } from "./axe"
import { eventually, screenshot } from "./browser"
import { FIREFOX_EXTENSION_DIR, FIREFOX_EXTENSION_ORIGIN, firefoxesUnderTest, findExtensionPage, firefoxUnavailableReason, inExtensionPage, launchFirefoxWithExtension, openExtensionPage, signInOnSite, waitInPage } from "./firefox"
import { serveFixtures, serveHostilePage, startServer, type RunningServer } from "./server"
import { DRAWN_TEXT_SCRIPT } from "./side-panel-fixture"
import { relay, trustedLoopbackOrigin } from "./site-relay"

const NAME = "Grace Firefox"
const EMAIL = "grace.firefox@example.com"
const PASSWORD = "Blue-Harbor-42!"
const SESSION_KEY = "extensionSession"
/** An access token (a JWT) anywhere in a text. */
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/

interface OpenedSession {
  user: { name?: string; email: string }
  token: string
  refreshToken: string
}

const unavailable = firefoxUnavailableReason()
if (unavailable && process.env.CI) throw new Error(`The Firefox end-to-end tests must run in CI, but ${unavailable}.`)
if (unavailable) console.warn(`Firefox end-to-end tests skipped: ${unavailable}.`)

/** The page the extension scans: drawn text (a blob: image, as a page shows a canvas) and a photo. */
const FIXTURE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Firefox fixture</title></head>
<body style="margin:8px">
<img id="text" alt="Drawn text" width="500" height="250">
<img id="photo" src="/sample1.jpg" alt="Three people" width="400">
<script>${DRAWN_TEXT_SCRIPT}</script>
</body></html>`

// Each Firefox under test in turn (the site's trusted port is one: two at once would wait on each other's relay).
describe.skipIf(unavailable).each(firefoxesUnderTest())("the Firefox build in $version", ({ path: firefoxPath, version }) => {
  /** Screenshots per Firefox (firefox140-…, firefox153-…), so that one run keeps both. */
  const shot = (page: Page, name: string) => screenshot(page, `firefox${/\d+/.exec(version)?.[0] ?? ""}-${name}`)

  let server: RunningServer
  let siteOrigin: string
  let siteRelay: { close(): Promise<void> }
  let fixtures: { url: string; close(): Promise<void> }
  let hostile: Awaited<ReturnType<typeof serveHostilePage>>
  let browser: Browser
  let page: Page
  /** An extension page in a tab of its own: where the tests call the extension's APIs. */
  let extensionPage: Page
  let panel: Page
  let fixtureFolder: string

  /** Everything in storage.local as text: what every content script of the extension can read in Firefox. */
  const readableByContentScripts = () => inExtensionPage(extensionPage, async () => JSON.stringify(await chrome.storage.local.get(null)))
  /** The stored session as it is kept (sealed), as text; null when there is none. */
  const storedSession = () =>
    inExtensionPage(extensionPage, async (key: string) => {
      const stored: unknown = (await chrome.storage.local.get(key))[key]
      return stored === undefined ? null : JSON.stringify(stored)
    }, SESSION_KEY)
  /**
   * The session opened as the extension opens it, in one of its pages: with the sealing key from the IndexedDB of the
   * extension's origin (src/extension/account/sealed-item.ts). Null when there is none, or it is not sealed with that key.
   */
  const openedSession = () =>
    inExtensionPage(
      extensionPage,
      async (key: string, database: string, store: string, keyName: string, algorithm: string) => {
        const stored = (await chrome.storage.local.get(key))[key] as { iv?: string; data?: string } | undefined
        if (!stored?.iv || !stored.data) return null
        const sealingKey = await new Promise<CryptoKey | undefined>((resolve, reject) => {
          const opening = indexedDB.open(database)
          opening.onerror = () => reject(opening.error)
          opening.onsuccess = () => {
            if (!opening.result.objectStoreNames.contains(store)) return resolve(undefined)
            const reading = opening.result.transaction(store).objectStore(store).get(keyName)
            reading.onerror = () => reject(reading.error)
            reading.onsuccess = () => resolve(reading.result as CryptoKey | undefined)
          }
        })
        if (!sealingKey) return null
        const bytes = (text: string) => Uint8Array.from(atob(text), (character) => character.charCodeAt(0))
        const plain = await crypto.subtle.decrypt({ name: algorithm, iv: bytes(stored.iv), additionalData: new TextEncoder().encode(key) }, sealingKey, bytes(stored.data))
        return JSON.parse(new TextDecoder().decode(plain)) as OpenedSession
      },
      SESSION_KEY,
      SEAL_DATABASE,
      SEAL_STORE,
      SEAL_KEY_NAME,
      SEAL_ALGORITHM
    )
  const sidebarOpen = () =>
    inExtensionPage(extensionPage, async () => {
      const { id } = await chrome.windows.getLastFocused({ windowTypes: ["normal"] })
      return (globalThis as unknown as { browser: { sidebarAction: { isOpen(details: { windowId?: number }): Promise<boolean> } } }).browser.sidebarAction.isOpen({ windowId: id })
    })

  /** Hovers the image, then clicks the on-image button (over its top right corner, inside a closed shadow root). */
  async function clickImageButton(selector: string) {
    const box = await page.$eval(selector, (element) => {
      element.scrollIntoView({ block: "center" })
      const { x, y, width, height } = element.getBoundingClientRect()
      return { x, y, width, height }
    })
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    // The button shows once the pointer has rested on the image; its host is our own element in the page.
    await eventually(
      () => page.evaluate(() => document.documentElement.querySelectorAll(":scope > *:not(head):not(body)").length),
      (hosts) => expect(hosts).toBeGreaterThan(0)
    )
    await page.mouse.click(box.x + box.width - 8 - 16, box.y + 8 + 16)
  }

  beforeAll(async () => {
    server = await startServer()
    // The Firefox build trusts the same origins as the Chrome one (one build environment).
    const trusted = trustedLoopbackOrigin()
    siteOrigin = trusted.origin
    siteRelay = await relay(trusted, server.port)
    hostile = await serveHostilePage()
    fixtureFolder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-firefox-fixture-"))
    fs.writeFileSync(path.join(fixtureFolder, "index.html"), FIXTURE_PAGE)
    fs.copyFileSync(path.join(FIREFOX_EXTENSION_DIR, "engines/samples/sample1.jpg"), path.join(fixtureFolder, "sample1.jpg"))
    fixtures = await serveFixtures(fixtureFolder)
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })

    // What the store gets: the Firefox zip of `npm run package`, unpacked.
    const packaged = await packageExtensions({ outDir: fixtureFolder, browsers: ["firefox"] })
    browser = await launchFirefoxWithExtension(unzipTo(packaged.firefox!, path.join(fixtureFolder, "firefox")), firefoxPath)
    page = (await browser.pages())[0]!
    extensionPage = await browser.newPage()
    await openExtensionPage(extensionPage, "popup.html")
  })

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    await hostile?.close()
    await siteRelay?.close()
    await server?.stop()
    if (fixtureFolder) fs.rmSync(fixtureFolder, { recursive: true, force: true })
  })

  it("loads: Firefox's manifest, and the popup of the running extension", async () => {
    const manifest = await inExtensionPage(extensionPage, async () => chrome.runtime.getManifest() as unknown as Record<string, unknown>)
    expect(manifest).toMatchObject({ name: "Image Query AI", sidebar_action: { default_panel: expect.stringMatching(/\/sidepanel\.html$/) } })
    expect(manifest).not.toHaveProperty("externally_connectable")
    await eventually(() => extensionPage.evaluate(() => document.body.innerText), (text) => expect(text).toContain("Not signed in"))
  })

  it("renders the companion site in its tab page from the package's own modules", async () => {
    const tab = await browser.newPage()
    await openExtensionPage(tab, "tabs/site.html")
    await tab.evaluate(() => (location.hash = "#/pricing"))
    await eventually(() => tab.evaluate(() => document.querySelector("h1")?.textContent ?? ""), (heading) => expect(heading).toContain("Pricing"))
    await tab.close()
  })

  it("opens its panel from the on-image button, pinned to the page, listing the page's images", async () => {
    await page.bringToFront()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitInPage(page, () => (document.getElementById("text") as HTMLImageElement).complete && (document.getElementById("text") as HTMLImageElement).src.startsWith("blob:"), [])
    await clickImageButton("#text")
    // A page's click is no user action in Firefox: with the sidebar closed, the panel opens in a window of its own.
    panel = await findExtensionPage(browser, `${FIREFOX_EXTENSION_ORIGIN}/sidepanel.html?tab=`)
    // The extension sizes the window (420 px, a panel's width; headless Firefox draws no frame): the screenshots and axe
    // see the panel as people do, at the size the product chose.
    expect(await panel.evaluate(() => window.innerWidth)).toBe(420)
    // It shows the selected image, and behind it the page's images.
    await (await panel.waitForSelector("xpath/.//button[contains(., 'All images')]", { timeout: 20_000 }))!.click()
    await eventually(
      () => panel.$eval("[data-testid='image-count']", (element) => element.textContent),
      (count) => expect(count).toBe("2 images"),
      20_000
    )
    await shot(panel, "panel-images-420")
    expect(await seriousAxeViolations(panel)).toEqual([])
    await panel.click("li[data-url^='blob:'] > button")
  })

  it("reads the selected image's text on the device", async () => {
    await (await panel.waitForSelector("xpath/.//button[normalize-space()='Text (OCR)']", { timeout: 15_000 }))!.click()
    await panel.waitForSelector("[data-testid='ocr-text']", { timeout: 90_000 })
    expect(readsEveryLine(await panel.$eval("[data-testid='ocr-text']", (element) => element.textContent ?? ""))).toBe(true)
    await shot(panel, "panel-ocr-420")
  }, 120_000)

  it("says in Settings why questions and translations go to Image Query AI's service: Firefox has no built-in model", async () => {
    await panel.click("#panel-tab-settings")
    const reason = "Not available in this browser: Firefox does not offer a built-in AI model to extensions"
    for (const capability of ["questions", "translation"]) {
      await waitInPage(panel, (id: string, text: string) => document.querySelector(`[data-testid='${id}']`)?.textContent === text, [`engine-state-${capability}`, reason])
    }
    expect(await panel.$$eval("[data-testid^='engine-'] p", (lines) => lines.filter((line) => line.textContent === "Automatic uses Image Query AI's service here.").length)).toBe(2)
    await shot(panel, "panel-ai-engines-420")
    await panel.click("#panel-tab-images")
  }, 30_000)

  it("opens the sidebar from the popup's button, and the on-image button then selects into it", async () => {
    // The popup belongs to the focused window, where Firefox opens the sidebar.
    await openExtensionPage(extensionPage, "popup.html")
    await extensionPage.bringToFront()
    await (await extensionPage.waitForSelector("xpath/.//button[normalize-space()='Open side panel']"))!.click()
    await eventually(sidebarOpen, (open) => expect(open).toBe(true))
    await page.bringToFront()
    const windowsBefore = await inExtensionPage(extensionPage, async () => (await chrome.windows.getAll()).length)
    await clickImageButton("#photo")
    await eventually(
      () => inExtensionPage(extensionPage, async () => ((await chrome.storage.session.get("selectedImage")).selectedImage as { url?: string } | undefined)?.url),
      (url) => expect(url).toBe(`${fixtures.url}/sample1.jpg`)
    )
    // Shown in the open sidebar: no other window, for as long as a refused open() takes to fall back to one.
    for (const until = Date.now() + 1_500; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 250))) {
      expect(await inExtensionPage(extensionPage, async () => (await chrome.windows.getAll()).length)).toBe(windowsBefore)
    }
  })

  it("takes the site's sign-in through the site bridge, and shows the account in the panel", async () => {
    const site = await signInOnSite(browser, siteOrigin, { email: EMAIL, password: PASSWORD })
    await eventually(storedSession, (stored) => expect(stored).not.toBeNull(), 20_000)
    const siteToken = await site.evaluate(() => localStorage.getItem("authToken"))
    await waitInPage(panel, (name: string) => document.body.innerText.includes(name), [NAME], 20_000)
    await shot(panel, "panel-signed-in-420")
    // The extension's own session: the site's token was used once, never kept.
    expect(await readableByContentScripts()).not.toContain(siteToken!)
    await site.close()
  })

  it("keeps the tokens out of what content scripts can read: storage.local holds the session sealed", async () => {
    // Firefox's content scripts read storage.local as the extension's pages do (it has no access level to close it).
    const readable = await readableByContentScripts()
    expect(readable).toContain(SESSION_KEY)
    expect(readable).not.toMatch(JWT)
    const session = (await openedSession())!
    expect(session.user).toMatchObject({ name: NAME, email: EMAIL })
    // The extension's own session, alive on the service: the site's token was used once, never kept.
    expect((await apiOf(server)("/api/auth/profile", { token: session.token })).status).toBe(200)
    for (const secret of [session.token, session.refreshToken, EMAIL]) expect(readable).not.toContain(secret)
  })

  it("gives a hostile page no bridge, no token and no way to sign the extension out", async () => {
    const session = await storedSession()
    const hostilePage = await browser.newPage()
    await hostilePage.goto(`${hostile.url}/`, { waitUntil: "load" })
    const probe = await hostilePage.evaluate(async (name: string, target: string) => {
      const opened = window.open(`${target}/dashboard`)
      // For 3 s, while the site loads in the window: a page in the background gets its timers once a second at most.
      for (const started = Date.now(); Date.now() - started < 3_000; ) {
        for (const type of ["EXTENSION_LOGOUT_REQUEST", "WEBSITE_AUTH_LOGOUT"]) opened?.postMessage({ type, timestamp: Date.now() }, "*")
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      return { bridge: typeof (window as unknown as Record<string, unknown>)[name], page: document.documentElement.outerHTML + JSON.stringify({ ...localStorage }) }
    }, SITE_BRIDGE_GLOBAL, siteOrigin)
    expect(probe.bridge).toBe("undefined")
    expect(probe.page).not.toContain((await openedSession())!.token)
    expect(await storedSession()).toBe(session)
    await hostilePage.close()
  })

  it("gives a frame of another origin inside a page of the site neither a bridge nor its parent's", async () => {
    const site = await browser.newPage()
    await site.goto(`${siteOrigin}/`, { waitUntil: "load" })
    await waitInPage(site, (name: string) => typeof (window as unknown as Record<string, unknown>)[name] === "object", [SITE_BRIDGE_GLOBAL])
    // The site's CSP admits no frame of another origin; a sandboxed frame is one anyway (an opaque origin).
    await site.evaluate(() => {
      const frame = document.createElement("iframe")
      frame.name = "hostile"
      frame.setAttribute("sandbox", "allow-scripts")
      frame.srcdoc = "<p>Framed</p>"
      document.body.append(frame)
    })
    const frame = await eventually(async () => site.frames().find((candidate) => candidate !== site.mainFrame()) ?? null, (found) => expect(found).not.toBeNull())
    const seen = await (frame as Frame).evaluate((name: string) => {
      let parentBridge: string
      try {
        parentBridge = typeof (parent as unknown as Record<string, unknown>)[name]
      } catch {
        parentBridge = "unreachable"
      }
      return { own: typeof (window as unknown as Record<string, unknown>)[name], parentBridge }
    }, SITE_BRIDGE_GLOBAL)
    expect(seen).toEqual({ own: "undefined", parentBridge: "unreachable" })
    await site.close()
  })

  it("stays signed in when the extension starts again, its session still sealed", async () => {
    const sealed = await storedSession()
    // A reload stops the background and every page of the extension, as quitting Firefox does; storage.local and the
    // extension origin's IndexedDB stay, as on disk. (A temporary add-on does not survive a restart of Firefox itself.)
    await extensionPage.evaluate(() => chrome.runtime.reload()).catch(() => undefined)
    // Each try in a page of its own: a navigation sent while the extension was still starting may arrive late, and
    // would take away the popup a later try had loaded (a screenshot then found no document).
    const popup = await eventually(
      async () => {
        const candidate = await browser.newPage()
        try {
          await openExtensionPage(candidate, "popup.html")
          await waitInPage(candidate, (name: string) => document.body.innerText.includes(name), [NAME])
          return candidate
        } catch {
          await candidate.close().catch(() => undefined)
          return null
        }
      },
      (found) => expect(found).not.toBeNull(),
      60_000
    )
    extensionPage = popup!
    await extensionPage.bringToFront()
    await shot(extensionPage, "popup-signed-in-after-restart")
    expect(await storedSession()).toBe(sealed)
    expect(await readableByContentScripts()).not.toMatch(JWT)
  }, 90_000)
})
