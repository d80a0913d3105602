/**
 * The width and height an image's header declares, read without decoding it: a few kilobytes can declare a picture
 * whose decoded pixels take gigabytes, so whoever decodes (the admin's browser showing feedback images, the side panel
 * analysing a page's image) checks the size first. Every raster format Chrome and Firefox decode: PNG (and APNG), JPEG,
 * GIF, WebP, BMP, ICO/CUR and AVIF.
 */
import { imageTypeOf } from "./image-type"

export type DimensionedImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/bmp" | "image/x-icon" | "image/avif"

export interface ImageDimensions {
  width: number
  height: number
}

/** Reads up to `length` bytes at `position`; fewer at the end of the file. */
export type ReadAt = (position: number, length: number) => Promise<Uint8Array>

/** JPEG segments walked before giving up on finding the frame header. */
const MAX_JPEG_SEGMENTS = 1024
/** ICO entries and ISO media boxes looked at: real files have a handful. */
const MAX_ICON_ENTRIES = 64
const MAX_BOXES = 256

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8)
const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!
const u32le = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
const i32le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)
const text = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))

/** Bytes rasterTypeOf needs. */
export const RASTER_SIGNATURE_BYTES = 32

/**
 * The raster format the bytes start with, as browsers recognise it (the leading bytes, never a declared type), or null
 * for anything else: SVG (drawn at the size the panel asks), text, or a format no browser decodes.
 */
export function rasterTypeOf(head: Uint8Array): DimensionedImageType | null {
  const sniffed = imageTypeOf(head)
  if (sniffed) return sniffed
  if (head.length >= 2 && head[0] === 0x42 && head[1] === 0x4d) return "image/bmp"
  // ICO (type 1) and CUR (type 2): a reserved zero word, the type, and at least one entry.
  if (head.length >= 6 && u16le(head, 0) === 0 && (u16le(head, 2) === 1 || u16le(head, 2) === 2) && u16le(head, 4) > 0) return "image/x-icon"
  if (head.length >= 12 && text(head, 4, 8) === "ftyp" && ["avif", "avis"].includes(text(head, 8, 12))) return "image/avif"
  return null
}

async function pngDimensions(read: ReadAt, at = 0): Promise<ImageDimensions | null> {
  // The signature, then the IHDR chunk: length, type, width, height.
  const head = await read(at + 8, 16)
  if (head.length < 16 || text(head, 4, 8) !== "IHDR") return null
  return { width: u32be(head, 8), height: u32be(head, 12) }
}

async function gifDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  // The logical screen after "GIF89a": width and height, little-endian.
  const screen = await read(6, 4)
  return screen.length < 4 ? null : { width: u16le(screen, 0), height: u16le(screen, 2) }
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are other segments. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

async function jpegDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  let position = 2
  for (let segment = 0; segment < MAX_JPEG_SEGMENTS; segment++) {
    const header = await read(position, 9)
    if (header.length < 2 || header[0] !== 0xff) return null
    const marker = header[1]!
    // Fill bytes before a marker.
    if (marker === 0xff) {
      position += 1
      continue
    }
    // Markers without a length: restart markers and TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      position += 2
      continue
    }
    // The image data or its end came before any frame header.
    if (marker === 0xda || marker === 0xd9 || header.length < 4) return null
    if (isStartOfFrame(marker)) {
      // Length, precision, then height and width.
      return header.length < 9 ? null : { width: u16be(header, 7), height: u16be(header, 5) }
    }
    const length = u16be(header, 2)
    if (length < 2) return null
    position += 2 + length
  }
  return null
}

async function webpDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  // RIFF, size, WEBP, then the first chunk's name and size at 12; its data starts at 20.
  const head = await read(12, 18)
  if (head.length < 18) return null
  switch (text(head, 0, 4)) {
    case "VP8 ":
      // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
      return head[11] === 0x9d && head[12] === 0x01 && head[13] === 0x2a ? { width: u16le(head, 14) & 0x3fff, height: u16le(head, 16) & 0x3fff } : null
    case "VP8L": {
      // Lossless: the signature 0x2f, then width - 1 and height - 1 in 14 bits each.
      if (head[8] !== 0x2f) return null
      const bits = u32le(head, 9)
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
    }
    case "VP8X":
      // Extended: flags and reserved bytes, then the canvas's width - 1 and height - 1 in 24 bits each.
      return { width: u24le(head, 12) + 1, height: u24le(head, 15) + 1 }
    default:
      return null
  }
}

async function bmpDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  // The 14-byte file header, then the DIB header's size: 12 for OS/2's 16-bit sizes, more for the signed 32-bit ones.
  const head = await read(14, 12)
  if (head.length < 8) return null
  if (u32le(head, 0) === 12) return { width: u16le(head, 4), height: u16le(head, 6) }
  if (head.length < 12) return null
  // A negative height means rows stored top-down.
  return { width: Math.abs(i32le(head, 4)), height: Math.abs(i32le(head, 8)) }
}

async function iconDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  // A directory of entries (16 bytes each from 6); an entry's bytes may be a whole PNG, whose header then tells.
  const count = u16le(await read(4, 2), 0)
  if (!count || count > MAX_ICON_ENTRIES) return null
  const directory = await read(6, count * 16)
  if (directory.length < count * 16) return null
  let largest: ImageDimensions | null = null
  for (let entry = 0; entry < count; entry++) {
    const at = entry * 16
    const offset = u32le(directory, at + 12)
    const signature = await read(offset, 8)
    const isPng = signature.length === 8 && signature[0] === 0x89 && text(signature, 1, 4) === "PNG"
    // A width or height byte of 0 means 256.
    const size = isPng ? await pngDimensions(read, offset) : { width: directory[at]! || 256, height: directory[at + 1]! || 256 }
    if (!size) return null
    if (!largest || size.width * size.height > largest.width * largest.height) largest = size
  }
  return largest
}

/**
 * AVIF: the ISO media boxes meta → iprp → ipco hold one `ispe` (image spatial extents) per image item; the largest is
 * the picture (a grid's own ispe declares the whole grid).
 */
async function avifDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  let largest: ImageDimensions | null = null
  let boxes = 0
  // Walks the boxes from `from` to `to` (the file's end for the top level), stopping at the first that does not fit.
  const walk = async (from: number, to: number, path: string): Promise<void> => {
    let position = from
    while (position + 8 <= to && ++boxes <= MAX_BOXES) {
      const header = await read(position, 16)
      if (header.length < 8) return
      let size = u32be(header, 0)
      let body = position + 8
      if (size === 1) {
        if (header.length < 16) return
        size = u32be(header, 8) * 2 ** 32 + u32be(header, 12)
        body += 8
      } else if (size === 0) size = to - position
      if (size < body - position || position + size > to) return
      const type = text(header, 4, 8)
      const end = position + size
      // meta is a full box: a version and flags before its children.
      if (path === "" && type === "meta") await walk(body + 4, end, "meta")
      else if (path === "meta" && type === "iprp") await walk(body, end, "iprp")
      else if (path === "iprp" && type === "ipco") await walk(body, end, "ipco")
      else if (path === "ipco" && type === "ispe") {
        const extents = await read(body + 4, 8)
        if (extents.length < 8) return
        const found = { width: u32be(extents, 0), height: u32be(extents, 4) }
        if (!largest || found.width * found.height > largest.width * largest.height) largest = found
      }
      position = end
    }
  }
  await walk(0, Number.MAX_SAFE_INTEGER, "")
  return largest
}

/** The width and height an image's header declares, or null when the header cannot be read. */
export function imageDimensions(type: DimensionedImageType, read: ReadAt): Promise<ImageDimensions | null> {
  switch (type) {
    case "image/png":
      return pngDimensions(read)
    case "image/gif":
      return gifDimensions(read)
    case "image/jpeg":
      return jpegDimensions(read)
    case "image/webp":
      return webpDimensions(read)
    case "image/bmp":
      return bmpDimensions(read)
    case "image/x-icon":
      return iconDimensions(read)
    case "image/avif":
      return avifDimensions(read)
  }
}
