import { describe, expect, it } from "vitest"

import { isVerticalLine } from "./ocr-lines"

describe("a line read as a column", () => {
  it("is vertical when its box is more than one and a half times as tall as it is wide", () => {
    // A column of Japanese: 40 px wide, 300 px tall.
    expect(isVerticalLine({ x0: 100, y0: 20, x1: 140, y1: 320 })).toBe(true)
    // A line of Latin text, and a square one-character line.
    expect(isVerticalLine({ x0: 0, y0: 0, x1: 300, y1: 40 })).toBe(false)
    expect(isVerticalLine({ x0: 0, y0: 0, x1: 40, y1: 40 })).toBe(false)
    // Exactly 1.5 times as tall is not yet a column.
    expect(isVerticalLine({ x0: 0, y0: 0, x1: 40, y1: 60 })).toBe(false)
    expect(isVerticalLine({ x0: 0, y0: 0, x1: 40, y1: 61 })).toBe(true)
  })

  it("is not vertical when the box has no width or height to speak of", () => {
    expect(isVerticalLine({ x0: 5, y0: 5, x1: 5, y1: 5 })).toBe(false)
    expect(isVerticalLine({ x0: 5, y0: 0, x1: 5, y1: 30 })).toBe(true)
  })
})
