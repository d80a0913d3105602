/** The OCR sample used by the engine-check page, its end-to-end test and the OCR bench. */

export const OCR_SAMPLE_LINES = ["IMAGE QUERY AI", "LOCAL TEXT 2026", "READS WORDS"]

/**
 * Black text on white, big enough for any working OCR, as a PNG data URL. Self-contained on
 * purpose: tests and the bench run it inside a browser page with page.evaluate. Another script
 * needs a font that has it (loaded first: document.fonts.load), and `minHeight` keeps the image
 * out of the panel's small-image filter.
 */
export function sampleTextImageDataUrl(lines: string[], font = "bold 64px sans-serif", minHeight = 0): string {
  const canvas = document.createElement("canvas")
  canvas.width = 1000
  canvas.height = Math.max(minHeight, 80 + lines.length * 100)
  const context = canvas.getContext("2d")
  if (!context) throw new Error("No 2D canvas")
  context.fillStyle = "#ffffff"
  context.fillRect(0, 0, canvas.width, canvas.height)
  context.fillStyle = "#000000"
  context.font = font
  context.textBaseline = "top"
  for (let index = 0; index < lines.length; index++) context.fillText(lines[index] ?? "", 40, 40 + index * 100)
  return canvas.toDataURL("image/png")
}

/** Whitespace- and case-insensitive; capital I and small l are the same glyph in sans-serif fonts. */
export function normaliseOcrText(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/l/g, "I").toUpperCase()
}

export function readsEveryLine(text: string, lines: string[] = OCR_SAMPLE_LINES): boolean {
  const normalised = normaliseOcrText(text)
  return lines.every((line) => normalised.includes(line))
}
