import { Fragment, useMemo, type MouseEvent } from "react"

import type { OcrLine, OcrResult } from "~analysis/ocr"
import { LAYER_FONT, layerFontMetrics, type FontMetrics } from "~ui/layer-font"

import { useLineCopy } from "./use-line-copy"

/**
 * A word, or the space between two words: `width` in % of the image's width, which the text's letter spacing
 * (also in % of the image's width) makes it take. The text is transparent, so spacing, not scaling, fits it:
 * it stays plain inline text, whose selection the browser paints without holes.
 */
export interface LinePiece {
  text: string
  width: number
  letterSpacing: number
}

/** A line's place over the image, in % of the image box, so it follows any display size. */
export interface LineLayout {
  left: number
  top: number
  width: number
  height: number
  /** % of the image's width. */
  fontSize: number
  rtl: boolean
  pieces: LinePiece[]
}

/** The whitespace tesseract put between each two words of the line (one space when the words cannot be found in it). */
export function gapsBetweenWords(line: OcrLine): string[] {
  const gaps: string[] = []
  let cursor = 0
  let previousEnd = -1
  for (const word of line.words) {
    const start = line.text.indexOf(word.text, cursor)
    if (start < 0) return line.words.slice(1).map(() => " ")
    if (previousEnd >= 0) {
      const between = line.text.slice(previousEnd, start)
      gaps.push(/^\s*$/.test(between) ? between : " ")
    }
    previousEnd = cursor = start + word.text.length
  }
  return gaps
}

/**
 * Each word at its box: the line sits at its box with a font as tall as the box, and each word and gap is spaced
 * to its own width, as a PDF viewer's text layer does. Text stays in reading order, so a selection copies the
 * line as read.
 */
export function layoutLine(line: OcrLine, image: { width: number; height: number }, metrics: FontMetrics): LineLayout {
  const { bbox, words } = line
  const percentOfWidth = (pixels: number) => (pixels / image.width) * 100
  const fontPixels = (bbox.y1 - bbox.y0) / metrics.height
  const piece = (text: string, pixels: number): LinePiece => {
    const characters = Array.from(text).length
    const spacing = characters ? (pixels - metrics.width(text) * fontPixels) / characters : 0
    return { text, width: percentOfWidth(pixels), letterSpacing: percentOfWidth(spacing) }
  }
  const rtl = words.length > 1 && words[words.length - 1]!.bbox.x0 < words[0]!.bbox.x0
  const gaps = gapsBetweenWords(line)
  const pieces: LinePiece[] = []
  words.forEach((word, index) => {
    const next = words[index + 1]
    const gapPixels = next ? Math.max(0, rtl ? word.bbox.x0 - next.bbox.x1 : next.bbox.x0 - word.bbox.x1) : 0
    const gap = gaps[index] ?? ""
    // Without a space between them (CJK), the word takes the gap too.
    pieces.push(piece(word.text, word.bbox.x1 - word.bbox.x0 + (gap ? 0 : gapPixels)))
    if (gap) pieces.push(piece(gap, gapPixels))
  })
  return {
    left: percentOfWidth(bbox.x0),
    top: (bbox.y0 / image.height) * 100,
    width: percentOfWidth(bbox.x1 - bbox.x0),
    height: ((bbox.y1 - bbox.y0) / image.height) * 100,
    fontSize: percentOfWidth(fontPixels),
    rtl,
    pieces
  }
}

/**
 * The recognised text as a transparent layer over the image, each word at its box: drag to select across
 * words and lines (Ctrl+C copies them in reading order), click a line to copy it. It is hidden from assistive
 * technology, which reads the same text in the text block below, where keyboard users copy lines too.
 */
export function TextLayer({ ocr, highlightedLine }: { ocr: OcrResult; highlightedLine: number | null }) {
  const { status, copyLine } = useLineCopy()
  const metrics = layerFontMetrics()
  const layouts = useMemo(() => {
    if (!ocr.imageWidth || !ocr.imageHeight) return []
    const image = { width: ocr.imageWidth, height: ocr.imageHeight }
    return ocr.lines.map((line) => layoutLine(line, image, metrics))
  }, [ocr, metrics])
  if (layouts.length === 0) return null

  const copyClickedLine = (line: OcrLine, event: MouseEvent) => {
    // The first click of a double or triple click copies; the next ones select a word or the line, natively.
    if (event.detail > 1) return
    // A click that ends a drag leaves the selection to copy with Ctrl+C.
    if (window.getSelection()?.toString()) return
    copyLine(line.text)
  }

  return (
    <>
      <div aria-hidden="true" data-testid="text-layer" className="absolute inset-0 select-text leading-none [container-type:inline-size]" style={{ fontFamily: LAYER_FONT }}>
        {ocr.lines.map((line, index) => {
          const layout = layouts[index]!
          const highlighted = index === highlightedLine
          return (
            <Fragment key={index}>
              <span
                data-line={index}
                dir={layout.rtl ? "rtl" : "ltr"}
                title="Click to copy this line"
                onClick={(event) => copyClickedLine(line, event)}
                className={`absolute cursor-text whitespace-pre rounded-sm text-transparent selection:bg-blue-600/40 selection:text-transparent ${
                  highlighted ? "bg-blue-500/25 outline outline-2 outline-blue-600" : "hover:bg-blue-500/15"
                }`}
                style={{
                  left: `${layout.left}%`,
                  top: `${layout.top}%`,
                  width: `${layout.width}%`,
                  height: `${layout.height}%`,
                  fontSize: `${layout.fontSize}cqw`,
                  lineHeight: metrics.height
                }}
              >
                {layout.pieces.map((piece, pieceIndex) => (
                  <span key={pieceIndex} style={{ letterSpacing: `${piece.letterSpacing}cqw` }}>
                    {piece.text}
                  </span>
                ))}
              </span>
              {/* Lines out of the flow are not separated in a selection's text: a break in the flow is. */}
              {index < ocr.lines.length - 1 && <br className="selection:bg-transparent" />}
            </Fragment>
          )
        })}
      </div>
      <p role="status" className="pointer-events-none absolute inset-x-0 bottom-2 flex justify-center">
        {status && <span className="rounded-md bg-gray-900/85 px-2 py-1 text-xs font-medium text-white shadow">{status}</span>}
      </p>
    </>
  )
}
