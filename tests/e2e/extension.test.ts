import fs from "node:fs"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"

import { EXTENSION_DIR, eventually, installExtension, inWorker, launchBrowser, type LoadedExtension, screenshot, watchPageErrors } from "./browser"
import { serveFixtures, startServer, type RunningServer } from "./server"
import { relay, trustedLoopbackOrigin } from "./site-relay"

describe("the built extension in Chromium", () => {
  let server: RunningServer
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  const workerErrors: string[] = []

  beforeAll(async () => {
    server = await startServer()
    fixtures = await serveFixtures(path.resolve("tests/fixtures"))
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    extension.worker.on("console", (message) => {
      if (message.type() === "error") workerErrors.push(message.text())
    })
  })

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    await server?.stop()
  })

  const extensionUrl = (file: string) => `chrome-extension://${extension.id}/${file}`

  it("has a manifest with the permissions, side panel and CSP the product needs", async () => {
    const manifest = await inWorker(extension.worker, async () => chrome.runtime.getManifest())
    expect(manifest.manifest_version).toBe(3)
    expect(manifest.name).toBe("Image Query AI")
    expect(manifest.version).toBe("1.0.0")
    expect([...(manifest.permissions ?? [])].sort()).toEqual(["activeTab", "clipboardWrite", "contextMenus", "scripting", "sidePanel", "storage", "tabs", "webRequest"])
    expect(manifest.host_permissions).toEqual(["<all_urls>"])
    expect((manifest.content_security_policy as { extension_pages: string }).extension_pages).toBe(
      "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'"
    )
    expect((manifest as { side_panel?: { default_path: string } }).side_panel?.default_path).toBe("sidepanel.html")
    expect(manifest.content_scripts?.[0]?.matches).toEqual(["<all_urls>"])
  })

  it("carries no code that loads scripts from elsewhere: no Firebase SDK and no Google script loader (MV3 forbids remote code)", () => {
    const scripts = fs.readdirSync(EXTENSION_DIR, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"))
    expect(scripts.length).toBeGreaterThan(5)
    const offending = scripts.filter((file) => /apis\.google\.com|identitytoolkit\.googleapis\.com/.test(fs.readFileSync(path.join(EXTENSION_DIR, file), "utf8")))
    expect(offending).toEqual([])
  })

  it("registers the 'Analyse image' context-menu entry from its service worker", async () => {
    // Updating an entry fails when it does not exist; the install handler may still be running.
    const deadline = Date.now() + 10_000
    let outcome = ""
    while (Date.now() < deadline) {
      outcome = await inWorker(
        extension.worker,
        () =>
          new Promise<string>((resolve) =>
            chrome.contextMenus.update("analyse-image", { title: "Analyse image" }, () => resolve(chrome.runtime.lastError?.message ?? "exists"))
          )
      )
      if (outcome === "exists") break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(outcome).toBe("exists")
  })

  it("runs its content script on a page served from 127.0.0.1 and reports the page's images", async () => {
    const page = await browser.newPage()
    await page.goto(`${fixtures.url}/images.html`, { waitUntil: "load" })
    // The page index, injected as the side panel does; retried while the page is still loading.
    await eventually(
      () =>
        inWorker(
          extension.worker,
          async (pageUrl: string, indexFile: string) => {
            const [tab] = await chrome.tabs.query({ url: pageUrl })
            await chrome.scripting.executeScript({ target: { tabId: tab!.id! }, files: [indexFile] })
            return (await chrome.tabs.sendMessage(tab!.id!, { type: "PAGE_IMAGES_REQUEST" }, { frameId: 0 })) as {
              images: { url: string; width: number; height: number; renderedWidth: number; alt: string }[]
            }
          },
          `${fixtures.url}/images.html`,
          PAGE_INDEX_FILE
        ),
      (images) =>
        expect(images.images.map(({ url, width, height, renderedWidth, alt }) => ({ url, width, height, renderedWidth, alt }))).toEqual([
          { url: `${fixtures.url}/square-512.png`, width: 512, height: 512, renderedWidth: 256, alt: "Large square" },
          { url: `${fixtures.url}/square-64.png`, width: 64, height: 64, renderedWidth: 64, alt: "Small square" }
        ])
    )
    await page.close()
  })

  it("shows the service status in the popup and opens the real side panel listing the active tab's images", async () => {
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), server.url)
    const page = await browser.newPage()
    await page.goto(`${fixtures.url}/images.html`, { waitUntil: "load" })

    const popup = await browser.newPage()
    const popupErrors = watchPageErrors(popup)
    await popup.goto(extensionUrl("popup.html"))
    await popup.waitForFunction(() => document.body.innerText.includes("Service online · version 1.0.0"))
    await screenshot(popup, "extension-popup")

    await popup.click("xpath/.//button[normalize-space()='Open side panel']")
    await page.bringToFront()
    const panelTarget = await browser.waitForTarget((target) => target.url() === extensionUrl("sidepanel.html"), { timeout: 10_000 })
    const panel = (await panelTarget.asPage()) as Page
    // 'Hide small images' is on by default: the 64 px square is counted but not shown.
    await panel.waitForFunction(() => document.querySelector("[data-testid='image-count']")?.textContent === "1 of 2 images", { timeout: 10_000 })
    const sizes = await panel.$$eval("ul[aria-label='Images on this page'] li p", (items) => items.map((item) => item.textContent))
    expect(sizes).toEqual(["512 × 512"])
    await screenshot(panel, "extension-side-panel")
    expect(popupErrors).toEqual([])
  })

  it("tells the user when the service cannot be reached", async () => {
    await inWorker(extension.worker, () => chrome.storage.local.set({ apiOrigin: "http://127.0.0.1:9" }))
    const popup = await browser.newPage()
    await popup.goto(extensionUrl("popup.html"))
    await popup.waitForFunction(() => document.body.innerText.includes("Service unreachable at http://127.0.0.1:9"))
    await inWorker(extension.worker, () => chrome.storage.local.remove("apiOrigin"))
    await popup.close()
  })

  it("renders the companion site in its tab page with hash routing", async () => {
    // The tab page calls the API at the build's origin (the pricing page asks how the trial is taken): the server is
    // reached there, as it is where the extension is used.
    const siteRelay = await relay(trustedLoopbackOrigin(), server.port)
    onTestFinished(() => siteRelay.close())
    const page = await browser.newPage()
    const errors = watchPageErrors(page)
    await page.goto(extensionUrl("tabs/site.html#/"))
    await page.waitForSelector("main h1")
    expect(await page.$eval("main h1", (element) => element.textContent)).toBe("Understand every image on the web with Image Query AI")
    await screenshot(page, "extension-site-mount")

    await page.click("nav[aria-label='Main'] a[href='#/pricing']")
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Pricing")
    expect(new URL(page.url()).hash).toBe("#/pricing")

    await page.goto(extensionUrl("tabs/site.html#/admin/no-such-area"))
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Page not found")
    await page.goto(extensionUrl("tabs/site.html#/app"))
    await page.waitForFunction(() => location.hash === "#/login")
    expect(errors).toEqual([])
  })

  it("logged no error in its service worker", () => {
    expect(workerErrors).toEqual([])
  })
})
