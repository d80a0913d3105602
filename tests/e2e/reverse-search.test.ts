/**
 * "Search the web for this image" in the built extension: the side panel's menu and the page's context menu open
 * each engine with the image's address; an image without one (the page's blob: and data: images) goes to the
 * upload page, which asks first and then posts the image to the engine's form. The engines are not reachable from
 * here: the tabs' addresses are what is checked, and the upload's POST is caught before it leaves the browser.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, HTTPRequest, Page, Target } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { REVERSE_SEARCH_ENGINES } from "~core/analysis/reverse-search"

import { seriousAxeViolations } from "./axe"
import { clickAndWaitForClose, eventually, installExtension, inWorker, launchBrowser, type LoadedExtension, openSidePanel, screenshot, waitForContentScript, watchPageErrors } from "./browser"
import { solidPng } from "./png"
import { serveFixtures } from "./server"

/** A page with an image at an address, one the page drew (blob:) and one inline (data:). */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reverse search</title></head><body>
<img id="photo" src="/photo.png" alt="Photo" width="500">
<img id="drawn" alt="Drawn by the page" width="500">
<script>
  const canvas = document.createElement("canvas")
  canvas.width = 600
  canvas.height = 450
  const context = canvas.getContext("2d")
  context.fillStyle = "#2563eb"
  context.fillRect(0, 0, 600, 450)
  context.fillStyle = "#fbbf24"
  context.fillRect(150, 100, 300, 250)
  canvas.toBlob((blob) => { document.getElementById("drawn").src = URL.createObjectURL(blob) }, "image/png")
</script>
</body></html>`

describe("search the web for this image", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  let panelErrors: string[]

  const pageUrl = () => `${fixtures.url}/index.html`
  const photoUrl = () => `${fixtures.url}/photo.png`
  const seenUploads = new Set<Target>()
  /** The upload page opened since the last call (earlier ones are closed, but their targets may linger a moment). */
  async function newUploadPage(): Promise<Target> {
    const target = await browser.waitForTarget(
      (candidate) => !seenUploads.has(candidate) && candidate.url().startsWith(`chrome-extension://${extension.id}/tabs/reverse-search.html#`),
      { timeout: 10_000 }
    )
    seenUploads.add(target)
    return target
  }

  async function backToGrid() {
    const back = await panel.$("xpath/.//button[normalize-space()='← All images']")
    if (back) await back.click()
    await panel.waitForSelector("ul[aria-label='Images on this page']")
  }

  async function openImage(selector: string) {
    // An engine's tab opens in front; the panel belongs to the page's tab.
    await page.bringToFront()
    await backToGrid()
    await (await panel.waitForSelector(selector, { timeout: 15_000 }))!.click()
    await panel.waitForSelector("xpath/.//button[normalize-space()='← All images']")
  }

  async function chooseFromPanelMenu(engineName: string) {
    await (await panel.waitForSelector("xpath/.//button[starts-with(normalize-space(), 'Search the web')]"))!.click()
    await (await panel.waitForSelector(`xpath/.//*[@role='menuitem'][starts-with(normalize-space(), '${engineName}')]`))!.click()
  }

  /** Runs the worker's registered context-menu handler as Chrome's menu would call it on the page's image. */
  async function clickContextMenu(menuItemId: string, srcUrl: string) {
    await inWorker(
      extension.worker,
      async (id: string, src: string, url: string) => {
        const [tab] = await chrome.tabs.query({ url })
        const info = { menuItemId: id, parentMenuItemId: "reverse-search", srcUrl: src, pageUrl: url, mediaType: "image", editable: false, frameId: 0 }
        ;(chrome.contextMenus.onClicked as unknown as { dispatch(...args: unknown[]): void }).dispatch(info, tab)
      },
      menuItemId,
      srcUrl,
      pageUrl()
    )
  }

  /** The upload page's tab, its requests to the engines caught and answered here (the page itself loads from the extension). */
  async function catchUpload(target: Target): Promise<{ upload: Page; posts: HTTPRequest[] }> {
    const upload = (await target.asPage()) as Page
    const posts: HTTPRequest[] = []
    await upload.setRequestInterception(true)
    upload.on("request", (request) => {
      // The page's own files and the image's preview (blob:) stay in the browser.
      if (!/^https?:/.test(request.url())) return void request.continue()
      posts.push(request)
      void request.respond({ status: 200, contentType: "text/html", body: "<!doctype html><title>Engine stand-in</title><p>Results</p>" })
    })
    return { upload, posts }
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-reverse-search-"))
    fs.writeFileSync(path.join(folder, "photo.png"), solidPng(800, 600, [30, 140, 90]))
    fs.writeFileSync(path.join(folder, "index.html"), PAGE)
    fixtures = await serveFixtures(folder)
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    page = await browser.newPage()
    await page.goto(pageUrl(), { waitUntil: "load" })
    await page.waitForFunction(() => (document.getElementById("drawn") as HTMLImageElement).complete && (document.getElementById("drawn") as HTMLImageElement).src.startsWith("blob:"))
    await waitForContentScript(extension.worker, pageUrl())
    panel = await openSidePanel(browser, extension, page)
    panelErrors = watchPageErrors(panel)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("opens an engine with the image's address from the side panel's menu", async () => {
    await openImage(`li[data-url='${photoUrl()}'] > button`)
    await (await panel.waitForSelector("xpath/.//button[starts-with(normalize-space(), 'Search the web')]"))!.click()
    const entries = await eventually(
      () => panel.$$eval("[role='menuitem']", (items) => items.map((item) => item.textContent?.trim())),
      (names) => expect(names).toHaveLength(REVERSE_SEARCH_ENGINES.length)
    )
    expect(entries).toEqual(REVERSE_SEARCH_ENGINES.map((engine) => engine.name))
    await panel.setViewport({ width: 375, height: 900 })
    await screenshot(panel, "reverse-search-panel-menu-375")
    await panel.keyboard.press("Escape")

    const expected = `https://tineye.com/search?url=${encodeURIComponent(photoUrl())}`
    await chooseFromPanelMenu("TinEye")
    const tab = await browser.waitForTarget((target) => target.url() === expected, { timeout: 10_000 })
    await (await tab.asPage())?.close()
    // No API server runs here: the panel's account check is refused, and that is all.
    expect(panelErrors.filter((error) => !error.includes("ERR_CONNECTION_REFUSED"))).toEqual([])
  })

  it("registers the context menu's four engines on images, and each opens its engine with the image's address", async () => {
    for (const id of ["reverse-search", ...REVERSE_SEARCH_ENGINES.map((engine) => `reverse-search:${engine.id}`)]) {
      // Updating an entry fails when it does not exist (no API reads back an entry).
      const outcome = await eventually(
        () => inWorker(extension.worker, (entry: string) => new Promise<string>((resolve) => chrome.contextMenus.update(entry, {}, () => resolve(chrome.runtime.lastError?.message ?? "exists"))), id),
        (value) => expect(value).toBe("exists")
      )
      expect(outcome).toBe("exists")
    }
    for (const engine of REVERSE_SEARCH_ENGINES) {
      await clickContextMenu(`reverse-search:${engine.id}`, photoUrl())
      const tab = await browser.waitForTarget((target) => target.url() === engine.searchUrl(photoUrl()), { timeout: 10_000 })
      await (await tab.asPage())?.close()
    }
  })

  it("asks before uploading the page's own image, and uploads nothing on Cancel", async () => {
    const drawn = await page.$eval("#drawn", (image) => (image as HTMLImageElement).src)
    await openImage(`li[data-url='${drawn}'] > button`)
    await chooseFromPanelMenu("Google Lens")
    const { upload, posts } = await catchUpload(await newUploadPage())
    await upload.waitForSelector("xpath/.//p[contains(., 'has no public address')]", { timeout: 15_000 })
    expect(await upload.$eval("p", (paragraph) => paragraph.textContent)).toMatch(/so Google Lens cannot fetch it\. To search with it, the image \(\d+ KB\) must be uploaded to Google Lens/)
    expect(await seriousAxeViolations(upload)).toEqual([])
    await upload.setViewport({ width: 375, height: 800 })
    await screenshot(upload, "reverse-search-upload-375")
    await upload.setViewport({ width: 1280, height: 800 })
    await screenshot(upload, "reverse-search-upload-1280")
    expect(posts).toEqual([])
    const cancel = (await upload.waitForSelector("xpath/.//button[normalize-space()='Cancel']"))!
    await clickAndWaitForClose(upload, () => cancel.click())
    expect(posts).toEqual([])
  })

  it("uploads the page's blob: image to Bing as base64 once the user says so", async () => {
    const drawn = await page.$eval("#drawn", (image) => (image as HTMLImageElement).src)
    await openImage(`li[data-url='${drawn}'] > button`)
    await chooseFromPanelMenu("Bing Visual Search")
    const { upload, posts } = await catchUpload(await newUploadPage())
    await (await upload.waitForSelector("xpath/.//button[normalize-space()='Upload to Bing Visual Search']", { timeout: 15_000 }))!.click()
    const post = (await eventually(async () => posts[0], (request) => expect(request).toBeDefined()))!
    expect(post.method()).toBe("POST")
    expect(post.url()).toBe("https://www.bing.com/images/search?view=detailv2&iss=sbi&FORM=SBIIDP")
    const body = post.postData() ?? (await post.fetchPostData()) ?? ""
    expect(body).toContain('name="imageBin"')
    // The canvas's PNG, as the page drew it: base64 of the PNG signature.
    expect(body).toMatch(/name="imageBin"\r\n\r\niVBORw0KGgo[A-Za-z0-9+/=]{100,}\r\n/)
    await upload.waitForSelector("xpath/.//p[normalize-space()='Results']")
    await upload.close()
  })

  it("uploads a data: image from the context menu to TinEye as a file", async () => {
    const png = solidPng(420, 420, [200, 60, 60])
    const dataUrl = `data:image/png;base64,${png.toString("base64")}`
    await clickContextMenu("reverse-search:tineye", dataUrl)
    const { upload, posts } = await catchUpload(await newUploadPage())
    await (await upload.waitForSelector("xpath/.//button[normalize-space()='Upload to TinEye']", { timeout: 15_000 }))!.click()
    const post = (await eventually(async () => posts[0], (request) => expect(request).toBeDefined()))!
    expect(post.method()).toBe("POST")
    expect(post.url()).toBe("https://tineye.com/search")
    expect(post.headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/)
    const body = post.postData() ?? (await post.fetchPostData()) ?? ""
    expect(body).toContain('Content-Disposition: form-data; name="image"; filename="image.png"\r\nContent-Type: image/png')
    await upload.close()
  })
})
