/**
 * The colours a translated line is painted in over the image: the background the line's box stands on, sampled
 * from a ring of pixels just outside the box (so the original letters do not show through), and the ink, the
 * pixel inside the box furthest from that background (the letters' own colour), or black or white when the box
 * has no contrast to speak of.
 */
import type { OcrBox } from "~analysis/ocr"
import type { LineColours, Rgb } from "~ui/line-colours"

export interface Pixels {
  width: number
  height: number
  /** RGBA, row by row, as ImageData holds it. */
  data: Uint8ClampedArray
}

/** How far outside the box the ring of background pixels lies, in pixels. */
const RING = 3
/** Least distance (0-441) between ink and background for the letters' own colour to be used. */
const LEAST_CONTRAST = 120

function pixelAt({ data, width }: Pixels, x: number, y: number): Rgb {
  const offset = (y * width + x) * 4
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!]
}

const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])

/** Each channel's median: a stray letter or edge in the ring does not tint the background. */
function median(colours: Rgb[]): Rgb {
  const channel = (index: number) => {
    const values = colours.map((colour) => colour[index]!).sort((a, b) => a - b)
    return values[Math.floor(values.length / 2)] ?? 255
  }
  return [channel(0), channel(1), channel(2)]
}

/** Every `step`th pixel of the ring around the box, clipped to the image. */
function ring(pixels: Pixels, box: OcrBox): Rgb[] {
  const x0 = Math.max(0, Math.floor(box.x0) - RING)
  const y0 = Math.max(0, Math.floor(box.y0) - RING)
  const x1 = Math.min(pixels.width - 1, Math.ceil(box.x1) + RING)
  const y1 = Math.min(pixels.height - 1, Math.ceil(box.y1) + RING)
  const step = Math.max(1, Math.round((x1 - x0 + y1 - y0) / 200))
  const samples: Rgb[] = []
  for (let x = x0; x <= x1; x += step) samples.push(pixelAt(pixels, x, y0), pixelAt(pixels, x, y1))
  for (let y = y0; y <= y1; y += step) samples.push(pixelAt(pixels, x0, y), pixelAt(pixels, x1, y))
  return samples
}

function furthestInside(pixels: Pixels, box: OcrBox, from: Rgb): Rgb | null {
  const x0 = Math.max(0, Math.floor(box.x0))
  const y0 = Math.max(0, Math.floor(box.y0))
  const x1 = Math.min(pixels.width - 1, Math.ceil(box.x1))
  const y1 = Math.min(pixels.height - 1, Math.ceil(box.y1))
  const step = Math.max(1, Math.round(Math.sqrt(((x1 - x0) * (y1 - y0)) / 4000)))
  let best: Rgb | null = null
  let bestDistance = -1
  for (let y = y0; y <= y1; y += step) {
    for (let x = x0; x <= x1; x += step) {
      const colour = pixelAt(pixels, x, y)
      const away = distance(colour, from)
      if (away > bestDistance) [best, bestDistance] = [colour, away]
    }
  }
  return bestDistance >= LEAST_CONTRAST ? best : null
}

/** Black or white, whichever reads better on `background` (WCAG's relative luminance). */
export function readableOn(background: Rgb): Rgb {
  const linear = background.map((value) => {
    const channel = value / 255
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  })
  const luminance = 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!
  return luminance > 0.179 ? [0, 0, 0] : [255, 255, 255]
}

export function lineColours(pixels: Pixels, box: OcrBox): LineColours {
  if (pixels.width === 0 || pixels.height === 0) return { background: [255, 255, 255], ink: [0, 0, 0] }
  const background = median(ring(pixels, box))
  return { background, ink: furthestInside(pixels, box, background) ?? readableOn(background) }
}
