/**
 * A page of signs for the page translation script's tests (Chromium and Firefox): one image as it stands, one in a
 * scrolling container, one scaled and turned by CSS, one that sticks to the top of the view as the page scrolls; each
 * sign an SVG whose lines lie at known boxes, so that hand-made translations can be laid over them without OCR.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { PageImageTranslation } from "~extension/messaging/page-translation-messages"

import { serveFixtures } from "./server"

export const SIGN_WIDTH = 640
export const SIGN_HEIGHT = 320
export const SIGN_YELLOW = [250, 220, 40] as const
export const SIGN_NAVY = [20, 40, 110] as const

export interface Sign {
  id: string
  file: string
  alt: string
  lines: string[]
  /** The lines' translations, in French. */
  french: string[]
  /** A word set in a column down the sign's right edge, and its translation, set in a column too. */
  column?: { original: string; french: string }
  /** Shown as an element's background image (stretched over its padding box) rather than by an <img>. */
  background?: boolean
}

export const SIGNS: Sign[] = [
  { id: "plain", file: "plain.svg", alt: "Harbour market sign", lines: ["HARBOUR", "MARKET"], french: ["PORT", "MARCHÉ"], column: { original: "EAST", french: "EST" } },
  { id: "inner", file: "inner.svg", alt: "Fresh bread sign", lines: ["FRESH", "BREAD"], french: ["PAIN", "FRAIS"] },
  { id: "turned", file: "turned.svg", alt: "City museum sign", lines: ["CITY", "MUSEUM"], french: ["MUSÉE", "MUNICIPAL"] },
  { id: "sticky", file: "sticky.svg", alt: "No parking sign", lines: ["NO", "PARKING"], french: ["STATIONNEMENT", "INTERDIT"] },
  { id: "banner", file: "banner.svg", alt: "Welcome banner", lines: ["WELCOME", "ABOARD"], french: ["BIENVENUE", "À BORD"], background: true }
]

/** Where the sign's lines are drawn: two rows across its width. */
const LINE_BOXES = [
  { x0: 40, y0: 50, x1: 540, y1: 140 },
  { x0: 40, y0: 180, x1: 540, y1: 270 }
]
/** Where a column is drawn: down the right edge, a letter under the other. */
export const COLUMN_BOX = { x0: 575, y0: 40, x1: 625, y1: 280 }

function signSvg({ lines, column }: Sign): string {
  const ink = `fill="rgb(${SIGN_NAVY.join(",")})" font-family="sans-serif" font-weight="bold"`
  const texts = lines.map((line, index) => {
    const box = LINE_BOXES[index]!
    return `<text x="${(box.x0 + box.x1) / 2}" y="${box.y1 - 12}" ${ink} font-size="84" text-anchor="middle" textLength="${box.x1 - box.x0}" lengthAdjust="spacingAndGlyphs">${line}</text>`
  })
  const columnLetters = Array.from(column?.original ?? "")
  const letters = columnLetters.map((letter, index) => {
    const step = (COLUMN_BOX.y1 - COLUMN_BOX.y0) / columnLetters.length
    return `<text x="${(COLUMN_BOX.x0 + COLUMN_BOX.x1) / 2}" y="${COLUMN_BOX.y0 + step * (index + 1) - 12}" ${ink} font-size="44" text-anchor="middle">${letter}</text>`
  })
  return `<svg xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="none" width="${SIGN_WIDTH}" height="${SIGN_HEIGHT}" viewBox="0 0 ${SIGN_WIDTH} ${SIGN_HEIGHT}"><rect width="${SIGN_WIDTH}" height="${SIGN_HEIGHT}" fill="rgb(${SIGN_YELLOW.join(",")})"/>${texts.join("")}${letters.join("")}</svg>`
}

/** The sign's hand-made French translation, as the side panel would send it. */
export function frenchTranslation(sign: Sign): PageImageTranslation {
  return {
    imageWidth: SIGN_WIDTH,
    imageHeight: SIGN_HEIGHT,
    language: "fr",
    lines: [
      ...sign.french.map((text, index) => ({ bbox: LINE_BOXES[index]!, text, vertical: false, background: SIGN_YELLOW, ink: SIGN_NAVY })),
      ...(sign.column ? [{ bbox: COLUMN_BOX, text: sign.column.french, vertical: true, background: SIGN_YELLOW, ink: SIGN_NAVY }] : [])
    ]
  }
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signs</title>
<style>
  body { margin: 0; font: 16px/1.5 sans-serif; color: #111; }
  main { max-width: 760px; margin: 0 auto; padding: 16px; }
  img { display: block; max-width: 100%; height: auto; }
  #scroller { height: 240px; overflow: auto; border: 4px solid #333; margin: 24px 0; }
  .spacer { height: 200px; background: repeating-linear-gradient(45deg, #eee 0 10px, #fff 10px 20px); }
  #turned { margin: 80px auto; transform: scale(0.8) rotate(20deg); }
  #sticky-section { height: 1400px; }
  #sticky { position: sticky; top: 0; }
  #banner { box-sizing: border-box; width: 100%; max-width: 660px; aspect-ratio: 2 / 1; border: 10px solid #333; padding: 20px; background: url(banner.svg) 0 0 / 100% 100% no-repeat padding-box; }
</style>
</head>
<body>
<main>
  <h1>Signs of the town</h1>
  ${SIGNS.map(({ id, file, alt, background }) => {
    if (background) return `<div id="${id}" role="img" aria-label="${alt}"></div>`
    const image = `<img id="${id}" src="${file}" alt="${alt}" width="${SIGN_WIDTH}" height="${SIGN_HEIGHT}">`
    if (id === "inner") return `<div id="scroller"><div class="spacer"></div>${image}<div class="spacer"></div></div>`
    if (id === "sticky") return `<section id="sticky-section">${image}</section>`
    return image
  }).join("\n  ")}
</main>
</body>
</html>`

/** Writes the signs and the page into a fresh folder and serves it; `pageUrl` is the page's address. */
export async function serveSignsPage(): Promise<{ pageUrl: string; signUrl(sign: Sign): string; close(): Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-page-translation-"))
  for (const sign of SIGNS) fs.writeFileSync(path.join(folder, sign.file), signSvg(sign))
  fs.writeFileSync(path.join(folder, "signs.html"), PAGE)
  const served = await serveFixtures(folder)
  return {
    pageUrl: `${served.url}/signs.html`,
    signUrl: (sign) => `${served.url}/${sign.file}`,
    close: async () => {
      await served.close()
      fs.rmSync(folder, { recursive: true, force: true })
    }
  }
}

/** The accessible name of a sign's translation over it. */
export const translationName = (sign: Sign) => `Image translated into French: ${sign.alt}`
