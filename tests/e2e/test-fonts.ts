/**
 * Fonts the test pages load from npm packages (fontsource), so that text in scripts a bare system lacks (Devanagari,
 * Japanese) is drawn the same on any machine with Node and Chromium: no fonts to install. A family is split by
 * fontsource into files per unicode-range (the Japanese one into 124 of them); a page gets only the files whose
 * ranges hold a character of its text, as data: URLs in @font-face rules.
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"

const require = createRequire(import.meta.url)

/** A family the page does not have until its @font-face rules are added. */
export interface WebFont {
  /** The CSS family, quoted: `'Noto Sans JP'`. */
  family: string
  /** @font-face rules with the files inlined. */
  faces: string
}

export const NOTO_SANS_DEVANAGARI = "@fontsource/noto-sans-devanagari"
export const NOTO_SANS_JP = "@fontsource/noto-sans-jp"

/** Whether a CSS unicode-range (`U+0900-097F,U+20B9,U+4??`) holds the code point. */
function inUnicodeRange(range: string, codePoint: number): boolean {
  return range.split(",").some((part) => {
    const [from = "", to = from] = part.trim().replace(/^U\+/i, "").split("-")
    const low = parseInt(from.replace(/\?/g, "0"), 16)
    const high = parseInt(to.replace(/\?/g, "f"), 16)
    return codePoint >= low && codePoint <= high
  })
}

/**
 * The @font-face rules of a fontsource package (`@fontsource/noto-sans-jp`) at one weight, for the files whose
 * unicode-range holds a character of `text` (spaces aside). Throws when a character is in none of its files: the
 * family cannot draw it, and another font would.
 */
export function fontsourceFont(pkg: string, text: string, weight = 400): WebFont {
  const folder = path.dirname(require.resolve(`${pkg}/package.json`))
  const css = fs.readFileSync(path.join(folder, `${weight}.css`), "utf8")
  const codePoints = [...new Set([...text.replace(/\s/g, "")].map((character) => character.codePointAt(0)!))]
  let family = ""
  const faces: string[] = []
  for (const block of css.match(/@font-face\s*{[^}]*}/g) ?? []) {
    family = /font-family:\s*([^;]+);/.exec(block)?.[1]?.trim() ?? family
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1]
    const file = /url\(\.\/(files\/[^)]+\.woff2)\)/.exec(block)?.[1]
    if (!file || (range && !codePoints.some((codePoint) => inUnicodeRange(range, codePoint)))) continue
    const data = fs.readFileSync(path.join(folder, file)).toString("base64")
    faces.push(block.replace(/src:[^;]+;/, `src: url(data:font/woff2;base64,${data}) format('woff2');`))
  }
  const ranges = [...css.matchAll(/unicode-range:\s*([^;]+);/g)].map((match) => match[1]!)
  const missing = codePoints.filter((codePoint) => !ranges.some((range) => inUnicodeRange(range, codePoint)))
  if (missing.length || !faces.length) throw new Error(`${pkg} (${weight}) cannot draw ${missing.length ? `"${String.fromCodePoint(...missing)}"` : `"${text}"`}`)
  return { family, faces: faces.join("\n") }
}
