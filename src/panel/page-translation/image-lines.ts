/**
 * An image's text as Translate images on this page sends and shows it: the lines with letters read with some
 * confidence (a line of figures or signs is left as it stands, and an image with no such line is left alone), each
 * with its box, the colours sampled around it (overlay-colours.ts) and whether it is read as a column; then the
 * translation laid over those lines.
 */
import { isVerticalLine, type OcrLine } from "~core/ocr/ocr-lines"
import type { PageImageTranslation, TranslatedImageLine } from "~extension/messaging/page-translation-messages"

import type { LineColours } from "~ui/line-colours"

/** A letter of any script: a line without one (figures, dates, signs) is not translated. */
export const hasLetters = (text: string): boolean => /\p{L}/u.test(text)

/**
 * Least confidence of a line worth translating. The engine reads photos as text too: on face-api's sample photos and a
 * striped picture every such line came at 0.69 or less (most under 0.5), while drawn text reads at about 0.95.
 */
export const MIN_LINE_CONFIDENCE = 0.7

/** A line to translate: letters, read with some confidence. */
export const isTranslatable = (line: Pick<OcrLine, "text" | "confidence">): boolean => line.confidence >= MIN_LINE_CONFIDENCE && hasLetters(line.text)

/** An image's lines to translate, read on this computer. */
export interface ImageText {
  url: string
  /** The space of the boxes: the image as the engine read it. */
  imageWidth: number
  imageHeight: number
  /** Each as the page will draw it, with the original text until translated. */
  lines: TranslatedImageLine[]
}

/** The lines to translate of an OCR result (with `colours`, one per OCR line); null when there is none. */
export function imageText(url: string, ocr: { imageWidth: number; imageHeight: number; lines: readonly OcrLine[] }, colours: readonly LineColours[]): ImageText | null {
  const lines = ocr.lines.flatMap((line, index) => {
    const colour = colours[index] ?? { background: [255, 255, 255] as const, ink: [0, 0, 0] as const }
    return isTranslatable(line) ? [{ text: line.text, bbox: line.bbox, vertical: isVerticalLine(line.bbox), background: colour.background, ink: colour.ink }] : []
  })
  return lines.length ? { url, imageWidth: ocr.imageWidth, imageHeight: ocr.imageHeight, lines } : null
}

/** The image's translation as the page draws it: each translated line (at its line's index) over its line. */
export function translationOf(read: ImageText, translated: readonly string[], language: string): PageImageTranslation {
  return {
    imageWidth: read.imageWidth,
    imageHeight: read.imageHeight,
    language,
    lines: read.lines.map((line, index) => ({ bbox: line.bbox, text: translated[index] ?? "", vertical: line.vertical, background: line.background, ink: line.ink }))
  }
}
