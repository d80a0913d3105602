/**
 * A page of signs to translate in place, for the end-to-end tests and the bench of *Translate images on this page*:
 * one-word signs drawn by the browser (navy capitals on yellow, 800 × 400 px, shown at 380 × 190), four in view, four
 * further down, one in a scrolling box and one turned by a CSS transform among them, two more the page adds when
 * asked (window.addSigns()), and a picture without text. The model stand-in translates into French from a small
 * dictionary (otherwise "[<language>] <line>") and counts the lines it is sent. What the person sees is checked by
 * reading a screenshot of each image's place with tesseract.js in Node, with the extension's own English model.
 */
import fs from "node:fs"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { createWorker, OEM, type Worker as TesseractWorker } from "tesseract.js"
import { expect } from "vitest"

import { completion, sendJson, startStandIn } from "../../server/test-kit/stand-in"
import { eventually, EXTENSION_DIR } from "./browser"

export const SIGNS: Record<string, string> = {
  EXIT: "SORTIE",
  OPEN: "OUVERT",
  CLOSED: "FERME",
  PUSH: "POUSSER",
  PULL: "TIRER",
  STOP: "ARRET",
  WARNING: "ATTENTION",
  TOILETS: "TOILETTES",
  ENTRANCE: "ENTREE",
  KITCHEN: "CUISINE",
  GARDEN: "JARDIN",
  MARKET: "MARCHE"
}
/** The page's eight signs, in the page's order: the first four in view. */
export const PAGE_SIGNS = ["EXIT", "OPEN", "CLOSED", "PUSH", "PULL", "STOP", "WARNING", "TOILETS"]
/** Added by the page after the command (window.addSigns()). */
export const LATER_SIGNS = ["ENTRANCE", "KITCHEN"]
/** On a second page, once the month's quota is spent. */
export const QUOTA_SIGNS = ["GARDEN", "MARKET"]
/** In the scrolling box, and turned by a transform. */
export const SCROLLED_SIGN = "PULL"
export const TRANSFORMED_SIGN = "STOP"

/** The model stand-in: each request's lines translated into French from SIGNS; `lines` counts what it was sent. */
export async function startTranslator() {
  const sent: string[] = []
  const provider = await startStandIn((request, response) => {
    const body = JSON.parse(request.body) as { messages: { content: string }[] }
    const target = /into (\w+)\./.exec(body.messages[0]!.content)?.[1]
    const lines = JSON.parse(body.messages[1]!.content) as string[]
    sent.push(...lines)
    sendJson(response, 200, completion(JSON.stringify(lines.map((line) => (target === "French" ? SIGNS[line.trim()] : undefined) ?? `[${target}] ${line}`))))
  })
  return Object.assign(provider, { sent })
}

/** Each sign drawn by the browser as a PNG. */
export async function drawSigns(browser: Browser, words: readonly string[]): Promise<Map<string, Buffer>> {
  const page = await browser.newPage()
  const drawn = new Map<string, Buffer>()
  try {
    for (const word of words) {
      await page.setContent(
        `<div id="sign" style="display:flex;align-items:center;justify-content:center;width:800px;height:400px;background:rgb(253,224,71);color:rgb(30,58,138);font:bold 120px sans-serif">${word}</div>`
      )
      await page.evaluate(() => document.fonts.ready)
      drawn.set(word, Buffer.from(await (await page.$("#sign"))!.screenshot({ type: "png" })))
    }
    await page.setContent(`<div id="plain" style="width:800px;height:400px;background:linear-gradient(90deg,#8ab,#cde)"></div>`)
    drawn.set("plain", Buffer.from(await (await page.$("#plain"))!.screenshot({ type: "png" })))
  } finally {
    await page.close()
  }
  return drawn
}

const signImage = (word: string, style = "") => `<img src="${word.toLowerCase()}.png" alt="A sign" width="380" height="190" data-sign="${word}" style="${style}">`

/** The page of signs, written into `folder` with its pictures. */
export async function writeSignsPage(browser: Browser, folder: string): Promise<void> {
  const drawn = await drawSigns(browser, [...PAGE_SIGNS, ...LATER_SIGNS, ...QUOTA_SIGNS])
  for (const [word, png] of drawn) fs.writeFileSync(path.join(folder, `${word.toLowerCase()}.png`), png)
  const [first, second, third, fourth] = PAGE_SIGNS
  const below = PAGE_SIGNS.slice(4).filter((word) => word !== SCROLLED_SIGN && word !== TRANSFORMED_SIGN)
  const grid = "display:grid;grid-template-columns:repeat(2,380px);gap:12px"
  fs.writeFileSync(
    path.join(folder, "signs.html"),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signs</title>
<style>body{margin:8px;font:16px sans-serif} img{display:block}</style></head><body>
<div style="${grid}">${[first, second, third, fourth].map((word) => signImage(word!)).join("")}</div>
<div style="height:900px"></div>
<div id="scroller" style="width:400px;height:260px;overflow:auto;border:1px solid #888"><div style="height:120px"></div>${signImage(SCROLLED_SIGN)}<div style="height:600px"></div></div>
<div style="padding:40px">${signImage(TRANSFORMED_SIGN, "transform:translateX(60px) scale(0.9)")}</div>
<div style="${grid}">${below.map((word) => signImage(word)).join("")}<img src="plain.png" alt="A gradient" width="380" height="190"></div>
<div id="later" style="${grid}"></div>
<script>
window.addSigns = () => { document.getElementById("later").insertAdjacentHTML("beforeend", ${JSON.stringify(LATER_SIGNS.map((word) => signImage(word)).join(""))}) }
</script>
</body></html>`
  )
  fs.writeFileSync(
    path.join(folder, "more.html"),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>More signs</title></head><body>
<div style="display:grid;grid-template-columns:repeat(2,380px);gap:12px">${QUOTA_SIGNS.map((word) => signImage(word)).join("")}</div></body></html>`
  )
}

let reader: Promise<TesseractWorker> | null = null

/** What the person sees at the sign's place on the page: a screenshot of its box (scrolled into view first), read. */
export async function readSignOnScreen(page: Page, word: string): Promise<string> {
  const image = (await page.$(`img[data-sign='${word}']`))!
  await image.evaluate((element) => element.scrollIntoView({ block: "center" }))
  // Two frames: the overlay follows in the frame after the scroll.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  // The page's pixels at the image's box: whatever is drawn over it (the overlay) is in the picture.
  const png = await image.screenshot({ type: "png" })
  reader ??= createWorker("eng", OEM.LSTM_ONLY, { langPath: path.join(EXTENSION_DIR, "engines/ocr"), gzip: true, cacheMethod: "none" })
  const { data } = await (await reader).recognize(Buffer.from(png))
  return data.text.replace(/\s+/g, " ").trim().toUpperCase()
}

export async function stopReadingSigns(): Promise<void> {
  const worker = reader
  reader = null
  if (worker) await (await worker).terminate()
}

/** The panel's toggle of the mode, *Translate images on this page*. */
export const TRANSLATE_TOGGLE = "xpath/.//button[normalize-space()='Translate images on this page']"

/** Waits until the sign reads as its translation on the page, and not as itself. */
export const translatedOnPage = (page: Page, word: string, timeoutMs = 120_000) =>
  eventually(
    () => readSignOnScreen(page, word),
    (text) => {
      expect(text).toContain(SIGNS[word])
      expect(text).not.toContain(word)
    },
    timeoutMs
  )

/** Waits until the sign reads as itself on the page. */
export const originalOnPage = (page: Page, word: string) => eventually(() => readSignOnScreen(page, word), (text) => expect(text).toContain(word), 30_000)

/** The toggle's aria-pressed in the panel. */
export const togglePressed = async (panel: Page) => (await panel.waitForSelector(TRANSLATE_TOGGLE))!.evaluate((button) => button.getAttribute("aria-pressed"))
