// The screenshots the store listings show (docs/store-listing.md), 1280x800 PNG as both stores take them, made from the
// real product as the end-to-end tests drive it: the built extension (build/chrome-mv3-prod, or IQA_BENCH_EXTENSION_DIR)
// in headless Chromium, the server as `npm start` runs it, and a demo page served on 127.0.0.1.
//   node --import tsx scripts/store-screenshots.ts [output folder, default build/store-screenshots]
// Every image on the demo page is drawn here, so the screenshots hold nothing that is not ours to publish. Headless
// Chromium draws no browser window, so the panel and the popup are set beside or over the page they belong to.
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

import type { Browser, Page } from "puppeteer-core"

import { apiOf, registerVerifiedAccount } from "../tests/e2e/api-client"
import { installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, waitForContentScript } from "../tests/e2e/browser"
import { serveFixtures, startServer } from "../tests/e2e/server"

const WIDTH = 1280
const HEIGHT = 800
/** The side panel's width in the composed shot: Chrome's default side panel is about this wide. */
const PANEL_WIDTH = 400

/** The Free account the popup and the panel show, made on the fresh server. */
const ACCOUNT = { email: "reader@example.com", password: "Quiet-Lantern-58!", name: "Market Reader" }

/** The sign on the demo page: plain large type, so the text the panel reads is the text a user sees. */
const SIGN_LINES = ["FARMERS MARKET", "SATURDAY 8 AM TO 1 PM", "FRESH BREAD AND HONEY"]

const DEMO_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Riverside farmers market is back</title>
<style>
  body { margin: 0; font: 18px/1.6 Georgia, serif; color: #1f2937; background: #f8fafc; }
  header { background: #14532d; color: #fff; padding: 18px 48px; font: 600 22px sans-serif; }
  main { max-width: 760px; margin: 32px auto; padding: 0 24px; }
  h1 { font: 700 34px/1.2 sans-serif; margin: 0 0 8px; }
  .meta { color: #64748b; font: 14px sans-serif; margin-bottom: 24px; }
  img { display: block; width: 100%; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.15); }
  figcaption { color: #64748b; font: 14px sans-serif; margin-top: 8px; }
</style></head>
<body>
<header>The Riverside Weekly</header>
<main>
  <h1>The farmers market is back on the riverside</h1>
  <p class="meta">Local news · 4 min read</p>
  <figure style="margin:0 0 24px"><img id="sign" src="/sign.png" alt="The market's sign"><figcaption>The sign at the market's gate.</figcaption></figure>
  <p>After a winter away, the stalls return to the river path this weekend, with bakers, beekeepers and growers from the valley.</p>
</main>
</body></html>`

/** The market's sign as a PNG, drawn by Chromium: over 400 px a side, or the button and the panel would pass it as small. */
async function drawSign(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    await page.setContent(
      `<div id="sign" style="width:760px;height:440px;display:flex;flex-direction:column;justify-content:center;background:#fef3c7;color:#14532d;font:bold 52px/1.5 sans-serif;text-align:center;border:14px solid #14532d;box-sizing:border-box">${SIGN_LINES.map((line) => `<div>${line}</div>`).join("")}</div>`
    )
    return Buffer.from(await (await page.$("#sign"))!.screenshot({ type: "png" }))
  } finally {
    await page.close()
  }
}

/** One 1280x800 PNG of `parts`, each a PNG placed at its position with its own CSS (later ones over earlier ones). */
async function compose(browser: Browser, file: string, parts: { png: Uint8Array; left: number; top: number; style?: string }[]) {
  const page = await browser.newPage()
  try {
    await page.setViewport({ width: WIDTH, height: HEIGHT })
    const images = parts.map(
      ({ png, left, top, style = "" }) =>
        `<img style="position:absolute;left:${left}px;top:${top}px;${style}" src="data:image/png;base64,${Buffer.from(png).toString("base64")}">`
    )
    await page.setContent(`<body style="margin:0;width:${WIDTH}px;height:${HEIGHT}px;overflow:hidden;background:#e5e7eb">${images.join("")}</body>`)
    await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode())))
    await page.screenshot({ path: file as `${string}.png`, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })
  } finally {
    await page.close()
  }
}

const shot = (page: Page, width: number, height: number) => page.screenshot({ type: "png", clip: { x: 0, y: 0, width, height } })

/** The demo page with the on-image button shown over the sign, as the pointer rests on it. */
async function onImageButton(page: Page, file: string) {
  await page.setViewport({ width: WIDTH, height: HEIGHT })
  await page.hover("#sign")
  await page.waitForSelector('aria/Analyse image with Image Query AI[role="button"]', { visible: true, timeout: 10_000 })
  await page.screenshot({ path: file as `${string}.png`, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })
  // Away from the sign, so the button is gone from the later shots of the page.
  await page.mouse.move(5, 5)
}

/** The page and, beside it, the side panel with the sign's text read on the device. */
async function panelWithText(browser: Browser, extension: LoadedExtension, page: Page, file: string) {
  await page.setViewport({ width: WIDTH - PANEL_WIDTH, height: HEIGHT })
  const panel = await openSidePanel(browser, extension, page)
  await panel.setViewport({ width: PANEL_WIDTH, height: HEIGHT })
  await (await panel.waitForSelector("li[data-url$='/sign.png'] > button", { timeout: 20_000 }))!.click()
  await (await panel.waitForSelector("xpath/.//button[normalize-space()='Text (OCR)']"))!.click()
  await panel.waitForFunction(() => document.querySelector("[data-testid='ocr-text']")?.textContent?.includes("MARKET"), { timeout: 90_000 })
  // The word boxes are drawn once the image's size is known.
  await panel.waitForSelector("[data-testid='box-overlay'] rect", { timeout: 10_000 })
  await compose(browser, file, [
    { png: await shot(page, WIDTH - PANEL_WIDTH, HEIGHT), left: 0, top: 0 },
    // The line Chrome draws between the page and its side panel.
    { png: await shot(panel, PANEL_WIDTH, HEIGHT), left: WIDTH - PANEL_WIDTH - 1, top: 0, style: "border-left:1px solid #cbd5e1" }
  ])
  await panel.close()
}

/** The popup of a signed-in user, over the page it was opened on, where the toolbar puts it. */
async function popupOverPage(browser: Browser, extension: LoadedExtension, page: Page, file: string) {
  await page.setViewport({ width: WIDTH, height: HEIGHT })
  const popup = await browser.newPage()
  await popup.goto(`chrome-extension://${extension.id}/popup.html`)
  await popup.waitForFunction(() => document.body.innerText.includes("Service online"), { timeout: 15_000 })
  await popup.waitForFunction((name: string) => document.body.innerText.includes(name), { timeout: 15_000 }, ACCOUNT.name)
  // A toolbar popup is as large as its content: its width at the narrowest, then its height at that width.
  await popup.setViewport({ width: 100, height: 100 })
  const width = await popup.evaluate(() => document.documentElement.scrollWidth)
  await popup.setViewport({ width, height: 100 })
  const size = { width, height: await popup.evaluate(() => document.documentElement.scrollHeight) }
  await popup.setViewport(size)
  const popupPng = await shot(popup, size.width, size.height)
  await popup.close()
  await compose(browser, file, [
    { png: await shot(page, WIDTH, HEIGHT), left: 0, top: 0 },
    { png: popupPng, left: WIDTH - size.width - 24, top: 16, style: "box-shadow:0 8px 32px rgba(0,0,0,.35);border-radius:8px" }
  ])
}

/** The site's pricing page, as a visitor sees it. */
async function pricing(browser: Browser, siteUrl: string, file: string) {
  const page = await browser.newPage()
  await page.setViewport({ width: WIDTH, height: HEIGHT })
  await page.goto(`${siteUrl}/pricing`, { waitUntil: "networkidle0" })
  await page.waitForSelector("main h1", { timeout: 15_000 })
  await page.evaluate(() => document.fonts.ready)
  await page.screenshot({ path: file as `${string}.png`, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })
  await page.close()
}

/** Writes the store screenshots into `outDir`; answers their paths. */
export async function storeScreenshots(outDir = path.resolve("build/store-screenshots")): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true })
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-store-"))
  const server = await startServer()
  const browser = await launchBrowser({ extension: true })
  const fixtures = await serveFixtures(folder)
  try {
    const extension = await installExtension(browser)
    fs.writeFileSync(path.join(folder, "index.html"), DEMO_PAGE)
    fs.writeFileSync(path.join(folder, "sign.png"), await drawSign(browser))

    // A verified Free account, signed in to the extension as the site's sign-in makes it.
    await registerVerifiedAccount(server, ACCOUNT)
    const login = await apiOf(server)("/api/auth/login", { method: "POST", body: { email: ACCOUNT.email, password: ACCOUNT.password } })
    await openExtensionSession(extension.worker, server.url, login.body.data!.token as string)

    const page = await browser.newPage()
    await page.setViewport({ width: WIDTH, height: HEIGHT })
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)

    const files = ["1-on-image-button.png", "2-side-panel-text.png", "3-popup.png", "4-pricing.png"].map((name) => path.join(outDir, name))
    await onImageButton(page, files[0]!)
    await panelWithText(browser, extension, page, files[1]!)
    await popupOverPage(browser, extension, page, files[2]!)
    await pricing(browser, server.url, files[3]!)
    return files
  } finally {
    await browser.close()
    await fixtures.close()
    await server.stop()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await storeScreenshots(process.argv[2] ? path.resolve(process.argv[2]) : undefined)
  for (const file of files) console.warn(`Wrote ${path.relative(process.cwd(), file)}`)
}
