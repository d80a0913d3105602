import { describe, expect, it } from "vitest"

import { fitLine } from "./TranslatedLayer"

/** A font whose letters are 0.5 of the size wide and whose lines are 1.2 of it tall. */
const metrics = { width: (text: string) => text.length * 0.5, height: 1.2 }
const image = { width: 1000, height: 500 }

describe("fitting a translated line to its box", () => {
  const line = { x0: 100, y0: 100, x1: 500, y1: 150 }

  it("paints a little past the line's box and places it in % of the image", () => {
    const layout = fitLine("SHORT", line, image, metrics)
    // 50 px high: 7.5 px of bleed on every side.
    expect(layout.left).toBeCloseTo(9.25)
    expect(layout.top).toBeCloseTo(18.5)
    expect(layout.width).toBeCloseTo(41.5)
    expect(layout.height).toBeCloseTo(13)
    expect(layout.lineHeight).toBeCloseTo(6.5)
  })

  it("sizes a short text by the box's height, and a long one down to the box's width", () => {
    const short = fitLine("SHORT", line, image, metrics)
    expect(short.fontSize).toBeCloseTo((((65 * 0.8) / 1.2) / 1000) * 100)
    const long = "A MUCH LONGER TRANSLATION THAN THE ORIGINAL LINE"
    const fitted = fitLine(long, line, image, metrics)
    const fontPixels = (fitted.fontSize / 100) * 1000
    expect(fontPixels * metrics.width(long)).toBeCloseTo(415)
    expect(fitted.fontSize).toBeLessThan(short.fontSize)
  })

  it("keeps the paint inside the image at its edges", () => {
    const layout = fitLine("EDGE", { x0: 0, y0: 0, x1: 1000, y1: 40 }, image, metrics)
    expect(layout.left).toBe(0)
    expect(layout.top).toBe(0)
    expect(layout.width).toBe(100)
  })
})
