import { act, fireEvent, render, screen } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import type { OcrBox, OcrLine, OcrResult } from "~analysis/ocr"
import type { FontMetrics } from "~ui/layer-font"

import { gapsBetweenWords, layoutLine, TextLayer } from "./TextLayer"
import { TextResult } from "./TextResult"

const copied: string[] = []
vi.mock("~ui/clipboard", () => ({ copyText: async (text: string) => (copied.push(text), true) }))

beforeEach(() => {
  copied.length = 0
})
afterEach(() => vi.useRealTimers())

const box = (x0: number, y0: number, x1: number, y1: number): OcrBox => ({ x0, y0, x1, y1 })
const word = (text: string, bbox: OcrBox) => ({ text, confidence: 0.9, bbox })
const lineOf = (text: string, words: ReturnType<typeof word>[]): OcrLine => ({
  text,
  confidence: 0.9,
  words,
  bbox: box(Math.min(...words.map((w) => w.bbox.x0)), Math.min(...words.map((w) => w.bbox.y0)), Math.max(...words.map((w) => w.bbox.x1)), Math.max(...words.map((w) => w.bbox.y1)))
})

/** Every character half a pixel wide per pixel of font; a highlight 1.25 font sizes tall. */
const metrics: FontMetrics = { width: (text) => text.length * 0.5, height: 1.25 }

const FIRST = lineOf("IMAGE QUERY", [word("IMAGE", box(100, 50, 300, 100)), word("QUERY", box(340, 50, 500, 100))])
const SECOND = lineOf("READS WORDS", [word("READS", box(100, 150, 260, 200)), word("WORDS", box(300, 150, 480, 200))])
const ocr: OcrResult = {
  text: "IMAGE QUERY\n\nREADS WORDS",
  confidence: 0.9,
  words: [...FIRST.words, ...SECOND.words],
  lines: [FIRST, SECOND],
  imageWidth: 1000,
  imageHeight: 500,
  durationMs: 1
}

describe("the text layer's positions", () => {
  it("finds the whitespace tesseract put between words: spaces, the columns kept by Keep layout, none in CJK", () => {
    expect(gapsBetweenWords(FIRST)).toEqual([" "])
    expect(gapsBetweenWords(lineOf("Name    Price  3", [word("Name", box(0, 0, 40, 10)), word("Price", box(200, 0, 250, 10)), word("3", box(300, 0, 310, 10))]))).toEqual(["    ", "  "])
    expect(gapsBetweenWords(lineOf("你好世界", [word("你好", box(0, 0, 40, 20)), word("世界", box(44, 0, 84, 20))]))).toEqual([""])
    // Words that are not found in the line's text (tesseract's text and words disagree): one space each.
    expect(gapsBetweenWords(lineOf("AB", [word("A", box(0, 0, 5, 5)), word("X", box(6, 0, 9, 5)), word("Y", box(10, 0, 15, 5))]))).toEqual([" ", " "])
  })

  it("places a line at its box in % of the image, with a font as tall as the box and each word spaced to its own width", () => {
    const layout = layoutLine(FIRST, { width: 1000, height: 500 }, metrics)
    expect(layout).toMatchObject({ left: 10, top: 10, width: 40, height: 10, rtl: false })
    // A 50 px tall box and a highlight of 1.25 font sizes: a 40 px font, 4% of the image's width.
    expect(layout.fontSize).toBeCloseTo(4)
    expect(layout.pieces.map((piece) => piece.text)).toEqual(["IMAGE", " ", "QUERY"])
    expect(layout.pieces.map((piece) => piece.width)).toEqual([20, 4, 16])
    // "IMAGE" is 5 × 0.5 × 40 = 100 px wide in the font, 200 px on the image: 20 px (2%) more after each letter.
    expect(layout.pieces.map((piece) => piece.letterSpacing)).toEqual([2, 2, 1.2])
    // The pieces fill the line's width exactly.
    expect(layout.pieces.reduce((sum, piece) => sum + piece.width, 0)).toBeCloseTo(layout.width)
  })

  it("gives the gap between words with no space between them (CJK) to the word before it", () => {
    const chinese = lineOf("你好世界", [word("你好", box(0, 0, 40, 20)), word("世界", box(44, 0, 84, 20))])
    const layout = layoutLine(chinese, { width: 100, height: 100 }, metrics)
    expect(layout.pieces.map((piece) => [piece.text, piece.width])).toEqual([
      ["你好", 44],
      ["世界", 40]
    ])
  })

  it("lays out a right-to-left line from its right edge, the gaps measured between each word's left and the next one's right", () => {
    const arabic = lineOf("مرحبا بالعالم", [word("مرحبا", box(600, 0, 900, 50)), word("بالعالم", box(100, 0, 560, 50))])
    const layout = layoutLine(arabic, { width: 1000, height: 100 }, metrics)
    expect(layout.rtl).toBe(true)
    expect(layout.left).toBe(10)
    expect(layout.pieces.map((piece) => piece.width)).toEqual([30, 4, 46])
  })
})

describe("the text layer over the image", () => {
  it("is hidden from assistive technology and puts each line at its place", () => {
    render(<TextLayer ocr={ocr} highlightedLine={null} />)
    const layer = screen.getByTestId("text-layer")
    expect(layer.getAttribute("aria-hidden")).toBe("true")
    const lines = [...layer.querySelectorAll<HTMLElement>("[data-line]")]
    expect(lines.map((line) => line.textContent)).toEqual(["IMAGE QUERY", "READS WORDS"])
    expect(lines.map((line) => [line.style.left, line.style.top, line.style.width, line.style.height])).toEqual([
      ["10%", "10%", "40%", "10%"],
      ["10%", "30%", "38%", "10%"]
    ])
    expect(layer.querySelectorAll("[tabindex]")).toHaveLength(0)
  })

  it("copies a clicked line and says so, then clears the message", async () => {
    vi.useFakeTimers()
    render(<TextLayer ocr={ocr} highlightedLine={null} />)
    fireEvent.click(screen.getByText("READS", { exact: false }).closest("[data-line]")!, { detail: 1 })
    await act(async () => {})
    expect(copied).toEqual(["READS WORDS"])
    expect(screen.getByRole("status").textContent).toBe("Line copied")
    await act(async () => vi.advanceTimersByTime(2000))
    expect(screen.getByRole("status").textContent).toBe("")
  })

  it("leaves a drag selection and a double click to the browser", async () => {
    render(<TextLayer ocr={ocr} highlightedLine={null} />)
    const line = screen.getByTestId("text-layer").querySelector("[data-line='0']")!
    fireEvent.click(line, { detail: 2 })
    const selection = window.getSelection()!
    selection.selectAllChildren(line)
    fireEvent.click(line, { detail: 1 })
    selection.removeAllRanges()
    await act(async () => {})
    expect(copied).toEqual([])
  })

  it("outlines the line in focus in the text block", () => {
    render(<TextLayer ocr={ocr} highlightedLine={1} />)
    const layer = screen.getByTestId("text-layer")
    expect(layer.querySelector("[data-line='1']")!.className).toContain("outline")
    expect(layer.querySelector("[data-line='0']")!.className).not.toContain("outline-2")
  })

  it("is not drawn without lines or without the image's size", () => {
    const { container, rerender } = render(<TextLayer ocr={{ ...ocr, lines: [] }} highlightedLine={null} />)
    expect(container.innerHTML).toBe("")
    rerender(<TextLayer ocr={{ ...ocr, imageWidth: 0 }} highlightedLine={null} />)
    expect(container.innerHTML).toBe("")
  })
})

describe("the text block's lines from the keyboard", () => {
  it("keeps the text as read, is one Tab stop, moves with the arrow keys, copies with Enter and outlines the line on the image", async () => {
    const focused: (number | null)[] = []
    render(<TextResult ocr={ocr} keepLayout={false} onKeepLayoutChange={() => {}} onUsageChanged={() => {}} onLineFocus={(line) => focused.push(line)} />)
    const block = screen.getByTestId("ocr-text")
    expect(block.textContent).toBe(ocr.text)
    const lines = [...block.querySelectorAll<HTMLElement>("[data-line]")]
    expect(lines.map((line) => line.tabIndex)).toEqual([0, -1])

    act(() => lines[0]!.focus())
    fireEvent.keyDown(lines[0]!, { key: "ArrowDown" })
    expect(document.activeElement).toBe(lines[1])
    expect(lines.map((line) => line.tabIndex)).toEqual([-1, 0])
    fireEvent.keyDown(lines[1]!, { key: "Enter" })
    await act(async () => {})
    expect(copied).toEqual(["READS WORDS"])
    expect(screen.getByRole("status").textContent).toBe("Line copied")
    fireEvent.keyDown(lines[1]!, { key: "Home" })
    fireEvent.keyDown(lines[0]!, { key: "c", ctrlKey: true })
    await act(async () => {})
    expect(copied).toEqual(["READS WORDS", "IMAGE QUERY"])
    expect(focused).toEqual([0, null, 1, null, 0])
  })

  it("outlines no line on the image when the text's lines are not the layer's", () => {
    const focused: (number | null)[] = []
    const { unmount } = render(
      <TextResult ocr={{ ...ocr, text: "IMAGE QUERY\nREADS\nWORDS" }} keepLayout={false} onKeepLayoutChange={() => {}} onUsageChanged={() => {}} onLineFocus={(line) => focused.push(line)} />
    )
    act(() => screen.getByText("WORDS").focus())
    unmount()
    // Keep layout's rows are made from the boxes, whatever tesseract's lines: as many here, still not outlined.
    render(<TextResult ocr={ocr} keepLayout onKeepLayoutChange={() => {}} onUsageChanged={() => {}} onLineFocus={(line) => focused.push(line)} />)
    const rows = [...screen.getByTestId("ocr-text").querySelectorAll<HTMLElement>("[data-line]")]
    expect(rows.map((row) => row.textContent)).toEqual(["IMAGE  QUERY", "READS WORDS"])
    act(() => rows[1]!.focus())
    expect(focused).toEqual([null, null])
  })
})
