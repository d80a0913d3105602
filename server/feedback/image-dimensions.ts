import type { FeedbackImageType } from "~core/feedback"

/**
 * The most pixels an uploaded image may declare. A few kilobytes of PNG or GIF can declare an image
 * whose decoded pixels take gigabytes: the admin's browser would decode it when showing the feedback.
 */
export const FEEDBACK_MAX_IMAGE_PIXELS = 40_000_000

export interface ImageDimensions {
  width: number
  height: number
}

/** Reads up to `length` bytes at `position`; fewer at the end of the file. */
export type ReadAt = (position: number, length: number) => Promise<Uint8Array>

/** JPEG segments walked before giving up on finding the frame header. */
const MAX_JPEG_SEGMENTS = 1024

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8)
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!

async function pngDimensions(read: ReadAt): Promise<ImageDimensions | null> {
  // The signature, then the IHDR chunk: length, type, width, height.
  const head = await read(8, 16)
  if (head.length < 16 || String.fromCharCode(...head.subarray(4, 8)) !== "IHDR") return null
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

/** The width and height an image's header declares, or null when the header cannot be read. */
export function imageDimensions(type: FeedbackImageType, read: ReadAt): Promise<ImageDimensions | null> {
  switch (type) {
    case "image/png":
      return pngDimensions(read)
    case "image/gif":
      return gifDimensions(read)
    case "image/jpeg":
      return jpegDimensions(read)
  }
}
