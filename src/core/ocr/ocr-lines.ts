/**
 * tesseract.js's page, reduced to what we show and answer: lines of words with their boxes and confidences, in
 * reading order, empty words and lines left out. The extension's OCR engine (src/analysis/ocr.ts) and the public
 * API's (server/local-vision) read their results through this one function.
 */

export interface OcrBox {
  x0: number
  y0: number
  x1: number
  y1: number
}

export interface OcrWord {
  text: string
  /** 0–1 */
  confidence: number
  /** Pixels of the analysed image, top-left origin. */
  bbox: OcrBox
}

export interface OcrLine {
  /** The line as read: the spaces between its words are tesseract's (none between CJK characters). */
  text: string
  /** 0–1, tesseract's for the line. */
  confidence: number
  /** Around its words. */
  bbox: OcrBox
  words: OcrWord[]
}

/** The part of tesseract.js's `Block` these read (its own type drags the whole library's typings into core). */
export interface TesseractBlock {
  paragraphs: { lines: { text: string; confidence: number; words: { text: string; confidence: number; bbox: OcrBox }[] }[] }[]
}

/** A tesseract percentage as 0–1, to three decimals. */
export const ocrConfidence = (percent: number) => Math.round(percent * 10) / 1000

export function linesOf(blocks: readonly TesseractBlock[] | null): OcrLine[] {
  const lines: OcrLine[] = []
  for (const block of blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines) {
        const words: OcrWord[] = []
        for (const word of line.words) {
          const text = word.text.trim()
          if (!text) continue
          const { x0, y0, x1, y1 } = word.bbox
          words.push({ text, confidence: ocrConfidence(word.confidence), bbox: { x0, y0, x1, y1 } })
        }
        if (words.length === 0) continue
        const bbox = {
          x0: Math.min(...words.map((word) => word.bbox.x0)),
          y0: Math.min(...words.map((word) => word.bbox.y0)),
          x1: Math.max(...words.map((word) => word.bbox.x1)),
          y1: Math.max(...words.map((word) => word.bbox.y1))
        }
        lines.push({ text: line.text.trim(), confidence: ocrConfidence(line.confidence), bbox, words })
      }
  return lines
}

/** How much taller than wide a line's box must be to be read as a column. */
export const VERTICAL_LINE_RATIO = 1.5

/**
 * A line read top to bottom (Japanese, Traditional Chinese set in columns): its box is a column, taller than 1.5 times
 * its width. Its translation is set vertically too.
 */
export function isVerticalLine({ x0, y0, x1, y1 }: OcrBox): boolean {
  return y1 - y0 > VERTICAL_LINE_RATIO * (x1 - x0)
}
