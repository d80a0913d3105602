import { describe, expect, it } from "vitest"

import type { OcrWord } from "./ocr"
import { layoutText, rowsOf } from "./ocr-layout"

/** A word drawn in a monospaced font 10 px a character, 20 px high, at a column and a row. */
const word = (text: string, column: number, row: number, nudge = 0): OcrWord => ({
  text,
  confidence: 0.9,
  bbox: { x0: 100 + column * 10 + nudge, y0: 50 + row * 30, x1: 100 + (column + text.length) * 10 + nudge, y1: 70 + row * 30 }
})

describe("Keep layout", () => {
  it("puts words read column by column back into their rows, each row left to right", () => {
    // tesseract's order for a two-column table it took for two blocks: the whole first column, then the second.
    const words = [word("Apples", 0, 1), word("Pears", 0, 2), word("Item", 0, 0), word("Qty", 10, 0), word("12", 10, 1), word("7", 10, 2)]
    expect(rowsOf(words).map((row) => row.map((entry) => entry.text))).toEqual([
      ["Item", "Qty"],
      ["Apples", "12"],
      ["Pears", "7"]
    ])
    expect(layoutText(words)).toBe(["Item      Qty", "Apples    12", "Pears     7"].join("\n"))
  })

  it("keeps words of one column under one another though their glyphs start a few pixels apart", () => {
    // "1" sits further right in its cell than "3" does: a narrow glyph's side bearing.
    const words = [word("Qty", 8, 0), word("1", 8, 1, 4), word("3", 8, 2, -2), word("Item", 0, 0), word("Bread", 0, 1), word("Milk", 0, 2)]
    const columns = layoutText(words)
      .split("\n")
      .map((line) => line.search(/\S+$/))
    expect(new Set(columns).size).toBe(1)
  })

  it("keeps at least one space between words, and a blank line where rows stand apart", () => {
    const words = [word("Total", 0, 0), word("due", 3, 0), word("Tax", 0, 1), word("Paid", 0, 2), word("Signed", 0, 5)]
    expect(layoutText(words)).toBe(["Total due", "Tax", "Paid", "", "", "Signed"].join("\n"))
  })

  it("counts a character as people do: combining marks take no column of their own", () => {
    // "café" with its accent as a separate combining mark: five code points, four characters of 10 px.
    const cafe: OcrWord = { text: "cafe\u0301", confidence: 0.9, bbox: { x0: 0, y0: 0, x1: 40, y1: 20 } }
    const noir: OcrWord = { text: "noir", confidence: 0.9, bbox: { x0: 80, y0: 0, x1: 120, y1: 20 } }
    expect(layoutText([cafe, noir])).toBe(`cafe\u0301${" ".repeat(4)}noir`)
  })

  it("gives nothing for no words, blank words or empty boxes", () => {
    expect(layoutText([])).toBe("")
    expect(layoutText([{ text: " ", confidence: 1, bbox: { x0: 0, y0: 0, x1: 5, y1: 5 } }, { text: "x", confidence: 1, bbox: { x0: 3, y0: 3, x1: 3, y1: 9 } }])).toBe("")
  })
})
