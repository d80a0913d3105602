/**
 * "Keep layout": the recognised words set out again as on the image, for tables and forms. tesseract reads a
 * table column by column when it takes the columns for separate blocks; this puts the words back in rows (by
 * their boxes, whatever block they came from) and starts each word at the column of text where it stands, so
 * columns line up in a monospaced font, as `pdftotext -layout` does.
 */
import type { OcrBox, OcrWord } from "./ocr"

/** More blank lines than this between two rows say nothing more about the layout. */
const MAX_BLANK_LINES = 2

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

const middle = (box: OcrBox) => (box.y0 + box.y1) / 2

/** Characters of a word as people count them (a combining mark or a surrogate pair is not a column of its own). */
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })
const characterCount = (text: string) => Math.max(1, [...graphemes.segment(text)].length)

interface Row {
  words: OcrWord[]
  top: number
  bottom: number
}

/** Words whose middles lie within one another's height share a row, top to bottom; each row left to right. */
export function rowsOf(words: readonly OcrWord[]): OcrWord[][] {
  const rows: Row[] = []
  for (const word of [...words].sort((a, b) => middle(a.bbox) - middle(b.bbox))) {
    const row = rows.at(-1)
    const centre = middle(word.bbox)
    if (row && centre >= row.top && centre <= row.bottom) {
      row.words.push(word)
      continue
    }
    rows.push({ words: [word], top: word.bbox.y0, bottom: word.bbox.y1 })
  }
  return rows.map((row) => row.words.sort((a, b) => a.bbox.x0 - b.bbox.x0))
}

/**
 * The column of text each left edge stands at. Edges less than a character apart are one column (glyphs of one
 * column start a pixel or two apart), so words set under one another stay under one another.
 */
function textColumns(lefts: number[], characterWidth: number): Map<number, number> {
  const sorted = [...new Set(lefts)].sort((a, b) => a - b)
  const columns = new Map<number, number>()
  let columnEdge = sorted[0]!
  for (const left of sorted) {
    if (left - columnEdge > characterWidth * 0.6) columnEdge = left
    columns.set(left, Math.round((columnEdge - sorted[0]!) / characterWidth))
  }
  return columns
}

/** The words as rows of monospaced text, columns kept; "" when there are none. */
export function layoutText(words: readonly OcrWord[]): string {
  const usable = words.filter((word) => word.text.trim() && word.bbox.x1 > word.bbox.x0 && word.bbox.y1 > word.bbox.y0)
  if (usable.length === 0) return ""
  const characterWidth = median(usable.map((word) => (word.bbox.x1 - word.bbox.x0) / characterCount(word.text)))
  const columnOf = textColumns(usable.map((word) => word.bbox.x0), characterWidth)
  const rows = rowsOf(usable)
  const tops = rows.map((row) => Math.min(...row.map((word) => word.bbox.y0)))
  // A blank line where rows stand further apart than they usually do (a paragraph break, a table's sections).
  const usualPitch = median(tops.slice(1).map((top, index) => top - tops[index]!))
  const lines: string[] = []
  rows.forEach((row, index) => {
    if (index > 0 && usualPitch > 0) {
      const blank = Math.min(MAX_BLANK_LINES, Math.round((tops[index]! - tops[index - 1]!) / usualPitch) - 1)
      for (let count = 0; count < blank; count += 1) lines.push("")
    }
    let line = ""
    for (const word of row) {
      const column = columnOf.get(word.bbox.x0)!
      line += " ".repeat(line ? Math.max(1, column - characterCount(line)) : column) + word.text
    }
    lines.push(line)
  })
  return lines.join("\n")
}
