import type { OcrResult } from "~analysis/ocr"
import type { LineColours } from "~ui/line-colours"
import type { TranslatedLine } from "~ui/TranslatedLayer"

/**
 * *Show on image*'s lines for the design system's TranslatedLayer: each line read, its translation and the colours
 * sampled around it (white paper, black ink where there are none). The panel reads lines as rows.
 */
export function translatedLines(ocr: OcrResult, lines: readonly string[], colours: readonly LineColours[]): TranslatedLine[] {
  return ocr.lines.map((line, index) => ({
    bbox: line.bbox,
    text: lines[index] ?? "",
    vertical: false,
    background: colours[index]?.background ?? [255, 255, 255],
    ink: colours[index]?.ink ?? [0, 0, 0]
  }))
}
