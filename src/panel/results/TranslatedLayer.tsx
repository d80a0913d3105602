import { Fragment, useMemo } from "react"

import type { OcrResult } from "~analysis/ocr"

import { cssColour, type LineColours } from "./overlay-colours"
import { LAYER_FONT, layerFontMetrics, type FontMetrics } from "./TextLayer"

/** A translated line's place and font over the image, in % of the image's width and height (cqw for the font). */
export interface TranslatedLineLayout {
  left: number
  top: number
  width: number
  height: number
  fontSize: number
  /** The box's height in % of the image's width (cqw), the line's height. */
  lineHeight: number
}

/** How much of the painted box's height the letters take at most: about the original line's height. */
const FILL = 0.8

/** How far the paint reaches past the line's box, in parts of its height: the engine's box can clip the letters' edges. */
const BLEED = 0.15

/** The line's box, with the font as large as fits it: the box's height, or narrower to keep the text on one line. */
export function fitLine(text: string, line: { x0: number; y0: number; x1: number; y1: number }, image: { width: number; height: number }, metrics: FontMetrics): TranslatedLineLayout {
  const bleed = (line.y1 - line.y0) * BLEED
  const box = { x0: Math.max(0, line.x0 - bleed), y0: Math.max(0, line.y0 - bleed), x1: Math.min(image.width, line.x1 + bleed), y1: Math.min(image.height, line.y1 + bleed) }
  const width = box.x1 - box.x0
  const height = box.y1 - box.y0
  const byHeight = (height * FILL) / metrics.height
  const textWidth = metrics.width(text)
  const byWidth = textWidth > 0 ? width / textWidth : byHeight
  const fontPixels = Math.min(byHeight, byWidth)
  return {
    left: (box.x0 / image.width) * 100,
    top: (box.y0 / image.height) * 100,
    width: (width / image.width) * 100,
    height: (height / image.height) * 100,
    fontSize: (fontPixels / image.width) * 100,
    lineHeight: (height / image.width) * 100
  }
}

/**
 * The translation laid over the image: each line's translation painted over its line, on the colour sampled around
 * it and in the letters' colour, the font fitted to the box. Plain text in reading order, as the text layer: drag
 * to select, Ctrl+C copies. Hidden from assistive technology, which reads the same translation below the text.
 */
export function TranslatedLayer({ ocr, lines, colours }: { ocr: OcrResult; lines: readonly string[]; colours: readonly LineColours[] }) {
  const metrics = layerFontMetrics()
  const layouts = useMemo(() => {
    const image = { width: ocr.imageWidth, height: ocr.imageHeight }
    return ocr.lines.map((line, index) => fitLine(lines[index] ?? "", line.bbox, image, metrics))
  }, [ocr, lines, metrics])
  if (!ocr.imageWidth || !ocr.imageHeight) return null
  return (
    <div aria-hidden="true" data-testid="translated-layer" className="absolute inset-0 select-text leading-none [container-type:inline-size]" style={{ fontFamily: LAYER_FONT }}>
      {layouts.map((layout, index) => {
        const colour = colours[index]
        return (
          <Fragment key={index}>
            <span
              data-line={index}
              className="absolute overflow-hidden whitespace-pre selection:bg-blue-600/40"
              style={{
                left: `${layout.left}%`,
                top: `${layout.top}%`,
                width: `${layout.width}%`,
                height: `${layout.height}%`,
                fontSize: `${layout.fontSize}cqw`,
                // As tall as the box, in the container's width units: the letters stand mid-height, as inline text.
                lineHeight: `${layout.lineHeight}cqw`,
                background: colour ? cssColour(colour.background) : "white",
                color: colour ? cssColour(colour.ink) : "black"
              }}
            >
              {lines[index]}
            </span>
            {index < layouts.length - 1 && <br className="selection:bg-transparent" />}
          </Fragment>
        )
      })}
    </div>
  )
}
