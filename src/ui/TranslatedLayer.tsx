/**
 * An image's translation laid over it: each line's translation painted over its line, on the colour sampled around
 * it and in the letters' colour, the font fitted to the line's box. One renderer for the side panel's *Show on image*
 * and for the page's own images (the page translation script, src/extension/page-translation/), so it is styled
 * inline and by its own small stylesheet: in a page's shadow root there is no Tailwind.
 */
import { Fragment, useMemo } from "react"

import { LAYER_FONT, layerFontMetrics, type FontMetrics } from "./layer-font"
import { cssColour, type Rgb } from "./line-colours"

/** A rectangle in the image's own pixels. */
export interface LineBox {
  x0: number
  y0: number
  x1: number
  y1: number
}

/** One translated line as drawn (the shape of a page image translation's lines, src/extension/messaging/page-translation-messages.ts). */
export interface TranslatedLine {
  /** The original line's box, in the pixels of the image read. */
  bbox: LineBox
  text: string
  /** Set top to bottom in a column (text read as vertical columns). */
  vertical: boolean
  /** The colour that covers the original letters, and the letters' own colour. */
  background: Rgb
  ink: Rgb
}

/** A translated line's place and font over the image, in % of the image's width and height (cqw for the font). */
export interface TranslatedLineLayout {
  left: number
  top: number
  width: number
  height: number
  fontSize: number
  /** The box's extent across the text (its height, a column's width), in % of the image's width (cqw): the line's height. */
  lineHeight: number
  vertical: boolean
}

/** How much of the painted box's extent across the text the letters take at most: about the original line's. */
const FILL = 0.8

/** How far the paint reaches past the line's box, in parts of its extent across the text: the engine's box can clip the letters' edges. */
const BLEED = 0.15

/**
 * The line's box, with the font as large as fits it: as tall as the box allows (as wide, for a column), or smaller to
 * keep the text on one line (in one column).
 */
export function fitLine(text: string, line: LineBox, image: { width: number; height: number }, metrics: FontMetrics, vertical = false): TranslatedLineLayout {
  const bleed = (vertical ? line.x1 - line.x0 : line.y1 - line.y0) * BLEED
  const box = { x0: Math.max(0, line.x0 - bleed), y0: Math.max(0, line.y0 - bleed), x1: Math.min(image.width, line.x1 + bleed), y1: Math.min(image.height, line.y1 + bleed) }
  const width = box.x1 - box.x0
  const height = box.y1 - box.y0
  // Across the text: the box's height for a line, its width for a column; along it, the other.
  const [across, along] = vertical ? [width, height] : [height, width]
  const byAcross = (across * FILL) / metrics.height
  // A column's letters advance by about their width too: CJK ones by 1 em, Latin ones turned on their side.
  const textLength = metrics.width(text)
  const byAlong = textLength > 0 ? along / textLength : byAcross
  const fontPixels = Math.min(byAcross, byAlong)
  return {
    left: (box.x0 / image.width) * 100,
    top: (box.y0 / image.height) * 100,
    width: (width / image.width) * 100,
    height: (height / image.height) * 100,
    fontSize: (fontPixels / image.width) * 100,
    lineHeight: (across / image.width) * 100,
    vertical
  }
}

const LAYER_ATTRIBUTE = "data-translated-layer"

/**
 * What inline styles cannot say: the selection's colour (the letters keep theirs), and none on the breaks between
 * lines. Rendered beside each layer, so that the panel's document and a page's shadow root both have it.
 */
export const TRANSLATED_LAYER_CSS = `[${LAYER_ATTRIBUTE}] [data-line]::selection { background: rgb(37 99 235 / 0.4); }
[${LAYER_ATTRIBUTE}] br::selection { background: transparent; }`

export interface TranslatedLayerProps {
  /** The space of the lines' boxes: the image read, in pixels. */
  width: number
  height: number
  lines: readonly TranslatedLine[]
  /** The language the translation is in (a BCP 47 tag), for the lines' `lang` (the label is in the host's language). */
  lang?: string
  /**
   * Exposes the layer to assistive technology as a group of that name, its lines read as text. Without it the layer
   * is hidden from it (the panel reads the same translation below the image).
   */
  label?: string
}

/**
 * The translation over the image, in a positioned container that the image fills: each line at its box, in % of the
 * container, so it follows any display size. Plain text in reading order, as the panel's text layer: drag to select,
 * Ctrl+C copies. The layer takes the pointer events of its container (none on a page: clicks between the lines
 * reach the page's image), its lines always.
 */
export function TranslatedLayer({ width, height, lines, lang, label }: TranslatedLayerProps) {
  const metrics = layerFontMetrics()
  const layouts = useMemo(() => lines.map((line) => fitLine(line.text, line.bbox, { width, height }, metrics, line.vertical)), [lines, width, height, metrics])
  if (!width || !height) return null
  const exposed = label !== undefined
  return (
    <>
      <style>{TRANSLATED_LAYER_CSS}</style>
      <div
        {...{ [LAYER_ATTRIBUTE]: "" }}
        data-testid="translated-layer"
        role={exposed ? "group" : undefined}
        aria-label={label}
        aria-hidden={exposed ? undefined : "true"}
        style={{ position: "absolute", inset: 0, userSelect: "text", lineHeight: 1, containerType: "inline-size", fontFamily: LAYER_FONT }}
      >
        {layouts.map((layout, index) => {
          const line = lines[index]!
          return (
            <Fragment key={index}>
              <span
                data-line={index}
                lang={lang}
                style={{
                  position: "absolute",
                  overflow: "hidden",
                  whiteSpace: "pre",
                  // Selectable where the host lets nothing through (a page's overlay): what lies between the lines stays clickable.
                  pointerEvents: "auto",
                  writingMode: layout.vertical ? "vertical-rl" : undefined,
                  left: `${layout.left}%`,
                  top: `${layout.top}%`,
                  width: `${layout.width}%`,
                  height: `${layout.height}%`,
                  fontSize: `${layout.fontSize}cqw`,
                  // As thick as the box across the text, in the container's width units: the letters stand in its middle, as inline text.
                  lineHeight: `${layout.lineHeight}cqw`,
                  background: cssColour(line.background),
                  color: cssColour(line.ink)
                }}
              >
                {line.text}
              </span>
              {index < layouts.length - 1 && <br />}
            </Fragment>
          )
        })}
      </div>
    </>
  )
}
