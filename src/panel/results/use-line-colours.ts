import { useEffect, useState } from "react"

import type { OcrResult } from "~analysis/ocr"
import type { LineColours } from "~ui/line-colours"

import { readImage, type ImageLocation } from "../images/image-bytes"
import { lineColours, type Pixels } from "./overlay-colours"

/** The image's pixels at the size the engine read it, so that the lines' boxes fall on them. */
async function pixelsAt(image: Blob, width: number, height: number): Promise<Pixels> {
  const bitmap = await createImageBitmap(image)
  try {
    const canvas = new OffscreenCanvas(width, height)
    const context = canvas.getContext("2d", { willReadFrequently: true })
    if (!context) throw new Error("No 2D canvas")
    context.drawImage(bitmap, 0, 0, width, height)
    return context.getImageData(0, 0, width, height)
  } finally {
    bitmap.close()
  }
}

/**
 * Each line's background and ink for `ocr`'s lines, sampled from the image's pixels (as `read` gives its bytes); white
 * paper and black ink for every line when the image cannot be read again, rather than no translation.
 */
export async function sampleLineColours(location: ImageLocation, ocr: Pick<OcrResult, "lines" | "imageWidth" | "imageHeight">, read: (location: ImageLocation) => Promise<Blob> = readImage): Promise<LineColours[]> {
  try {
    const pixels = await pixelsAt(await read(location), ocr.imageWidth, ocr.imageHeight)
    return ocr.lines.map((line) => lineColours(pixels, line.bbox))
  } catch {
    return ocr.lines.map(() => ({ background: [255, 255, 255], ink: [0, 0, 0] }))
  }
}

/** Each line's background and ink for `ocr`'s lines, sampled from the image shown (null until read, or without lines). */
export function useLineColours(location: ImageLocation, ocr: OcrResult | null): LineColours[] | null {
  // Kept with the lines they were sampled for: another text result shows none until its own are read.
  const [sampled, setSampled] = useState<{ ocr: OcrResult; colours: LineColours[] } | null>(null)
  const { url, tabId, frameId, pageUrl } = location
  useEffect(() => {
    if (!ocr) return
    let current = true
    void sampleLineColours({ url, tabId, frameId, pageUrl }, ocr).then((colours) => {
      if (current) setSampled({ ocr, colours })
    })
    return () => {
      current = false
    }
  }, [url, tabId, frameId, pageUrl, ocr])
  return sampled && sampled.ocr === ocr ? sampled.colours : null
}
