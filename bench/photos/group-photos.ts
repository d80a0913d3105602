// The group photos and small print of group-photos.json, composed with sharp on each run from the hand-counted photos
// of hand-counts.json (read where npm installed them) and text drawn with the system's generic fonts: nothing is stored.
// Used by the faces-and-objects and OCR benches and by the tests that compare our reading with bare tesseract.js.
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

import sharp from "sharp"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

interface HandCounted {
  name: string
  package: string
  path: string
  faces: number
  objects: Record<string, number>
}

interface MontageSpec {
  name: string
  description: string
  cell: [number, number]
  columns: number
  photos: string[]
  mirrored?: string[]
  faces: number
  objects: Record<string, number>
  ambiguous?: Record<string, number>
}

export interface SmallPrintSpec {
  name: string
  description: string
  kind: "caption" | "caption-board" | "screenshot" | "receipt"
  fontSize: number
  faces: number
  /** The words a person reads: each must be in the reading. */
  text: string[]
}

export interface GroupPhoto {
  name: string
  description: string
  faces: number
  objects: Record<string, number>
  ambiguous?: Record<string, number>
  /** The montage as a JPEG at quality 90. */
  jpeg: Buffer
}

export interface SmallPrintImage extends SmallPrintSpec {
  /** The image as it is met: a JPEG for the photographed caption and receipt, a PNG for the screenshot. */
  bytes: Buffer
  format: "jpeg" | "png"
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(root, "bench/photos", file), "utf8")) as T

const specs = () => readJson<{ montages: MontageSpec[]; smallPrint: SmallPrintSpec[] }>("group-photos.json")

function handCounted(): Map<string, HandCounted> {
  const { photos } = readJson<{ photos: HandCounted[] }>("hand-counts.json")
  return new Map(photos.map((photo) => [photo.name, photo]))
}

const fileOf = (photo: HandCounted) => path.join(root, "node_modules", photo.package, photo.path)

/** Whole photos laid in a grid of `cell`-sized cells on dark grey, each scaled to fit its cell and centred in it. */
async function board(
  names: { name: string; mirrored: boolean }[],
  [cellWidth, cellHeight]: [number, number],
  columns: number,
  fit: "inside" | "cover" = "inside",
  background = "#2b2b2b"
): Promise<sharp.Sharp> {
  const byName = handCounted()
  const rows = Math.ceil(names.length / columns)
  const tiles = await Promise.all(
    names.map(async ({ name, mirrored }, index) => {
      const photo = byName.get(name)
      if (!photo) throw new Error(`group-photos.json names ${name}, which hand-counts.json does not hold.`)
      let image = sharp(fileOf(photo)).rotate().resize(cellWidth, cellHeight, { fit })
      if (mirrored) image = image.flop()
      const { data, info } = await image.toBuffer({ resolveWithObject: true })
      const left = (index % columns) * cellWidth + Math.floor((cellWidth - info.width) / 2)
      const top = Math.floor(index / columns) * cellHeight + Math.floor((cellHeight - info.height) / 2)
      return { input: data, left, top }
    })
  )
  return sharp({ create: { width: cellWidth * columns, height: cellHeight * rows, channels: 3, background } }).composite(tiles)
}

/** The montages, or only those `names` names: each one composed costs a second or two. */
export async function groupPhotos(names?: readonly string[]): Promise<GroupPhoto[]> {
  return Promise.all(
    specs()
      .montages.filter((spec) => !names || names.includes(spec.name))
      .map(async (spec) => {
      const names = [...spec.photos.map((name) => ({ name, mirrored: false })), ...(spec.mirrored ?? []).map((name) => ({ name, mirrored: true }))]
      const image = await board(names, spec.cell, spec.columns)
      const jpeg = await sharp(await image.png().toBuffer()).jpeg({ quality: 90 }).toBuffer()
      return { name: spec.name, description: spec.description, faces: spec.faces, objects: spec.objects, ambiguous: spec.ambiguous, jpeg }
    })
  )
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

function svgText(width: number, height: number, background: string, lines: { x: number; y: number; text: string; font: string; size: number; weight?: string; anchor?: string }[], extra = "") {
  const texts = lines
    .map(
      (line) =>
        `<text x="${line.x}" y="${line.y}" font-family="${line.font}" font-size="${line.size}" font-weight="${line.weight ?? "normal"}" text-anchor="${line.anchor ?? "start"}" fill="#222">${escapeXml(line.text)}</text>`
    )
    .join("")
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${extra}${texts}</svg>`)
}

const SIX = ["sample1", "sample2", "sample3", "sample4", "sample5", "sample6"].map((name) => ({ name, mirrored: false }))

/** Photos with the names in three lines under them: a strip of six, or (`board3`) six cropped to fill three columns. */
async function caption(spec: SmallPrintSpec, board3 = false): Promise<Buffer> {
  const width = board3 ? 1200 : 2400
  const photoHeight = board3 ? 600 : 300
  const strip = await (await board(SIX, [400, 300], board3 ? 3 : 6, board3 ? "cover" : "inside", board3 ? "#333333" : undefined)).png().toBuffer()
  const lineHeight = Math.round(spec.fontSize * (board3 ? 1.4 : 1.45))
  const lines = [spec.text.slice(0, 9), spec.text.slice(9, 18), spec.text.slice(18)].map((names, index) => ({
    x: board3 ? 10 : 12,
    y: (board3 ? 10 : 8) + lineHeight * (index + 1) - 4,
    text: names.join(", "),
    font: board3 ? "Liberation Serif" : "serif",
    size: spec.fontSize
  }))
  const captionHeight = lineHeight * 3 + (board3 ? 20 : 16)
  const captionPng = await sharp(svgText(width, captionHeight, "#f4f1ea", lines)).png().toBuffer()
  const jpeg = await sharp({ create: { width, height: photoHeight + captionHeight, channels: 3, background: "#ffffff" } })
    .composite([
      { input: strip, left: 0, top: 0 },
      { input: captionPng, left: 0, top: photoHeight }
    ])
    .jpeg({ quality: 85 })
    .toBuffer()
  // Posted again: decoded and saved once more, as a site does with what it is given.
  return board3 ? sharp(jpeg).jpeg({ quality: 85 }).toBuffer() : jpeg
}

async function screenshot(spec: SmallPrintSpec): Promise<Buffer> {
  const rows: [string, string][] = [
    ["Email digest", "Weekly"],
    ["Language", "English"],
    ["Time zone", "Europe/Berlin"],
    ["Storage used", "2.4 GB of 15 GB"],
    ["Two-step sign-in", "Enabled"],
    ["Session timeout", "30 minutes"]
  ]
  const size = spec.fontSize
  const bands = rows.map((_, index) => (index % 2 ? `<rect x="0" y="${70 + index * 44}" width="900" height="44" fill="#f3f4f6"/>` : "")).join("")
  const lines = [
    { x: 24, y: 40, text: "Notifications", font: "sans-serif", size: size + 5, weight: "bold" },
    ...rows.flatMap(([label, value], index) => [
      { x: 24, y: 97 + index * 44, text: label, font: "sans-serif", size },
      { x: 876, y: 97 + index * 44, text: value, font: "sans-serif", size, anchor: "end" }
    ]),
    { x: 24, y: 380, text: "Download your data", font: "sans-serif", size }
  ]
  return sharp(svgText(900, 420, "#ffffff", lines, bands)).png().toBuffer()
}

async function receipt(spec: SmallPrintSpec): Promise<Buffer> {
  const items: [string, string][] = [
    ["Oat milk", "2.49"],
    ["Sourdough loaf", "4.20"],
    ["Free range eggs", "3.85"],
    ["Cheddar", "5.10"],
    ["Apples", "2.76"]
  ]
  const size = spec.fontSize
  const step = Math.round(size * 1.7)
  const line = (y: number, left: string, right = "") => [
    { x: 24, y, text: left, font: "monospace", size },
    ...(right ? [{ x: 356, y, text: right, font: "monospace", size, anchor: "end" }] : [])
  ]
  const top = 90
  const lines = [
    { x: 190, y: 44, text: "CORNER GROCERY", font: "monospace", size: size + 2, weight: "bold", anchor: "middle" },
    { x: 190, y: 66, text: "12 Market Street", font: "monospace", size, anchor: "middle" },
    ...items.flatMap(([item, price], index) => line(top + index * step, item, price)),
    ...line(top + (items.length + 1) * step, "SUBTOTAL", "18.40"),
    ...line(top + (items.length + 2) * step, "TOTAL", "18.40"),
    { x: 190, y: top + (items.length + 5) * step, text: "Thank you", font: "monospace", size, anchor: "middle" }
  ]
  const png = await sharp(svgText(380, 520, "#f7f3e8", lines)).png().toBuffer()
  // A photographed receipt: a little blur and a JPEG's loss.
  return sharp(png).blur(0.4).jpeg({ quality: 80 }).toBuffer()
}

/** The small-print images, or only those `names` names. */
export async function smallPrintImages(names?: readonly string[]): Promise<SmallPrintImage[]> {
  return Promise.all(
    specs()
      .smallPrint.filter((spec) => !names || names.includes(spec.name))
      .map(async (spec) => {
      if (spec.kind === "caption" || spec.kind === "caption-board") return { ...spec, bytes: await caption(spec, spec.kind === "caption-board"), format: "jpeg" as const }
      if (spec.kind === "screenshot") return { ...spec, bytes: await screenshot(spec), format: "png" as const }
      return { ...spec, bytes: await receipt(spec), format: "jpeg" as const }
    })
  )
}

/** How many of the words a person reads are in a reading (whitespace runs counted as one space). */
export function wordsRead(reading: string, words: readonly string[]): number {
  const flat = reading.replace(/\s+/g, " ")
  return words.filter((word) => flat.includes(word)).length
}

/** The formats the API and the extension accept, each as sharp writes it. */
export const IMAGE_FORMATS = {
  jpeg: (image: sharp.Sharp) => image.jpeg({ quality: 90 }),
  png: (image: sharp.Sharp) => image.png(),
  webp: (image: sharp.Sharp) => image.webp({ quality: 90 }),
  gif: (image: sharp.Sharp) => image.gif()
} as const
export type ImageFormat = keyof typeof IMAGE_FORMATS

/** The small-print image in `format`: its own bytes in the format it comes in, else sharp's conversion of them. */
export async function inFormat(image: SmallPrintImage, format: ImageFormat): Promise<Buffer> {
  return format === image.format ? image.bytes : IMAGE_FORMATS[format](sharp(image.bytes)).toBuffer()
}
