/**
 * The font of the text laid over an image (the panel's text layer, the translation over an image in the panel and on
 * the page): measured once on a canvas, so that text can be fitted to a box before it is drawn.
 */

/** The layer's text is measured in this family, and drawn in it: the two must agree for the spacing to fit. */
export const LAYER_FONT = "sans-serif"

/** Widths of text in the layer's font, per pixel of font size. */
export interface FontMetrics {
  width: (text: string) => number
  /** Ascent plus descent: the height a selection highlight takes. */
  height: number
}

/** Measured on a canvas in the layer's font; a rough stand-in where there is no canvas (DOM tests). */
function measureFont(): FontMetrics {
  const context = document.createElement("canvas").getContext?.("2d")
  if (!context) return { width: (text) => text.length * 0.55, height: 1.15 }
  context.font = `100px ${LAYER_FONT}`
  const sample = context.measureText("Hg")
  const height = (sample.fontBoundingBoxAscent + sample.fontBoundingBoxDescent) / 100 || 1.15
  return { width: (text) => context.measureText(text).width / 100, height }
}

let fontMetrics: FontMetrics | null = null
/** The layer font's metrics, measured once. */
export const layerFontMetrics = () => (fontMetrics ??= measureFont())
