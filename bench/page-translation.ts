// Translate images on this page (src/panel/page-translation/, src/extension/page-translation/), through the built
// extension with the model stand-in on loopback:
// - from the command (the Images tab's toggle pressed) to the first sign's translation drawn over it on the page,
//   and to every sign translated;
// - the page's main-thread busy time in windows of WINDOW_MS while it scrolls with the mode on and every sign's
//   translation following its image, against the same page in a browser without the extension, taken in turn so that
//   the load of a shared machine weighs on both alike (target: ratio ≤ 1.15). Busy time is read from performance
//   traces (bench/page-trace.ts).
// Run alone with `node --import tsx bench/page-translation.ts`, or call measurePageTranslation().
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"

import { apiOf, registerVerifiedAccount } from "../tests/e2e/api-client"
import { installExtension, launchBrowser, openExtensionSession, openSidePanel, waitForContentScript } from "../tests/e2e/browser"
import { closedShadowTexts } from "../tests/e2e/closed-shadow"
import { drawSigns, SIGNS, startTranslator } from "../tests/e2e/signs-fixture"
import { serveFixtures, startServer } from "../tests/e2e/server"
import { mean, runIfMain } from "./figures"
import { busyWindow } from "./page-trace"

/** A Free account's month: ten images translated. */
const WORDS = Object.keys(SIGNS).slice(0, 10)
const WINDOW_MS = 8000
const WINDOWS = 5
const TIMEOUT_MS = 180_000

export interface PageTranslationFigures {
  images: number
  /** Toggle pressed to the first sign's translation in the page's overlay, and to all of them, ms. */
  firstShownMs: number
  allShownMs: number
  /** Mean ms the page's main thread was busy per window while scrolling, with the mode on and without the extension. */
  busyWithMs: number
  /** Of busyWithMs: the extension's scripts in the page (the page translation script following the images). */
  extensionScriptMs: number
  busyBareMs: number
  ratio: number
}

/** A long article: a sign after every few paragraphs, and a scroll that goes up and down as a reader's would. */
function articleHtml(): string {
  const paragraph = "<p>" + "The quick brown fox jumps over the lazy dog. ".repeat(12) + "</p>"
  const parts = WORDS.map((word) => `${paragraph.repeat(3)}<img src="${word.toLowerCase()}.png" alt="A sign" width="480" height="240">`)
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signs, an article</title>
<style>body{margin:0 auto;max-width:720px;font:16px/1.5 serif} img{display:block;margin:16px 0}</style></head><body>
${parts.join("")}${paragraph.repeat(3)}<script>
let step = 40, timer = 0
window.startScrolling = () => { timer = setInterval(() => {
  if (scrollY + innerHeight >= document.documentElement.scrollHeight - 2 || (scrollY === 0 && step < 0)) step = -step
  scrollBy(0, step) }, 50) }
window.stopScrolling = () => clearInterval(timer)
</script></body></html>`
}

const scrolling = (page: Page, on: boolean) => page.evaluate((start: boolean) => (window as unknown as Record<string, () => void>)[start ? "startScrolling" : "stopScrolling"]!(), on)

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 900 })
  await page.goto(url, { waitUntil: "load" })
  return page
}

/** Polls the page's overlay until `done` holds for its text; the ms it took. */
async function until(page: Page, done: (texts: string) => boolean, started: number): Promise<number> {
  while (Date.now() - started < TIMEOUT_MS) {
    if (done((await closedShadowTexts(page)).join(" "))) return Date.now() - started
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error("The page's images were not translated in time")
}

export async function measurePageTranslation(): Promise<{ figures: PageTranslationFigures; lines: string[] }> {
  const provider = await startTranslator()
  const server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-bench-page-translation-"))
  const withExtension = await launchBrowser({ extension: true })
  const bare = await launchBrowser()
  try {
    const account = { email: "bench.pages@example.com", password: "Amber-Signal-73!", name: "Bench Reader" }
    await registerVerifiedAccount(server, account)
    const siteToken = (await apiOf(server)("/api/auth/login", { method: "POST", body: { email: account.email, password: account.password } })).body.data!.token as string
    const extension = await installExtension(withExtension)
    await openExtensionSession(extension.worker, server.url, siteToken)
    for (const [word, png] of await drawSigns(withExtension, WORDS)) fs.writeFileSync(path.join(folder, `${word.toLowerCase()}.png`), png)
    fs.writeFileSync(path.join(folder, "article.html"), articleHtml())
    const fixtures = await serveFixtures(folder)
    const url = `${fixtures.url}/article.html`
    const page = await openPage(withExtension, url)
    await waitForContentScript(extension.worker, url)
    const panel = await openSidePanel(withExtension, extension, page)
    await (await panel.waitForSelector("section[aria-label='Translate images'] select", { timeout: TIMEOUT_MS }))!.select("fr")
    const toggle = (await panel.waitForSelector("xpath/.//button[normalize-space()='Translate images on this page']", { timeout: TIMEOUT_MS }))!
    await page.bringToFront()
    const started = Date.now()
    await toggle.click()
    const firstShownMs = await until(page, (text) => text.includes(SIGNS[WORDS[0]!]!), started)
    // The rest follow, nearest first, while the page stands still.
    const allShownMs = await until(page, (text) => WORDS.every((word) => text.includes(SIGNS[word]!)), started)

    const barePage = await openPage(bare, url)
    const withMode: { busy: number; extension: number }[] = []
    const without: { busy: number; extension: number }[] = []
    for (let window = 0; window < WINDOWS; window++) {
      await scrolling(page, true)
      withMode.push(await busyWindow(page, WINDOW_MS))
      await scrolling(page, false)
      await scrolling(barePage, true)
      without.push(await busyWindow(barePage, WINDOW_MS))
      await scrolling(barePage, false)
    }
    await fixtures.close()
    const figures: PageTranslationFigures = {
      images: WORDS.length,
      firstShownMs,
      allShownMs,
      busyWithMs: mean(withMode.map((window) => window.busy)),
      extensionScriptMs: mean(withMode.map((window) => window.extension)),
      busyBareMs: mean(without.map((window) => window.busy)),
      ratio: 0
    }
    figures.ratio = figures.busyWithMs / figures.busyBareMs
    return { figures, lines: pageTranslationLines(figures) }
  } finally {
    await withExtension.close()
    await bare.close()
    await server.stop()
    await provider.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

export function pageTranslationLines(figures: PageTranslationFigures): string[] {
  const ms = (value: number) => `${Math.round(value)} ms`
  return [
    `Translate images on this page (${figures.images} signs, model stand-in on loopback): first translated image on the page ${ms(figures.firstShownMs)} after the command, all ${ms(figures.allShownMs)}`,
    `  page main thread while scrolling, per ${WINDOW_MS / 1000} s window: ${ms(figures.busyWithMs)} with the mode on (the extension's scripts ${ms(figures.extensionScriptMs)}), ${ms(figures.busyBareMs)} without the extension: ×${figures.ratio.toFixed(2)} (target ≤ 1.15)`
  ]
}

runIfMain(import.meta.url, "page translation", measurePageTranslation)
