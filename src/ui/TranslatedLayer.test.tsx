import { render, screen } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { fitLine, TranslatedLayer, type TranslatedLine } from "./TranslatedLayer"

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

describe("fitting a translated column to its box", () => {
  // A column 50 px wide and 400 px tall.
  const column = { x0: 100, y0: 50, x1: 150, y1: 450 }

  it("bleeds by the column's width and sizes the font by it, the line as thick as the column", () => {
    const layout = fitLine("縦", column, image, metrics, true)
    expect(layout.vertical).toBe(true)
    // 7.5 px of bleed on every side.
    expect(layout.left).toBeCloseTo(9.25)
    expect(layout.top).toBeCloseTo(8.5)
    expect(layout.width).toBeCloseTo(6.5)
    expect(layout.height).toBeCloseTo(83)
    expect(layout.lineHeight).toBeCloseTo(6.5)
    expect(layout.fontSize).toBeCloseTo((((65 * 0.8) / 1.2) / 1000) * 100)
  })

  it("shrinks a long text to the column's height", () => {
    const long = "A TRANSLATION LONGER THAN THE COLUMN"
    const layout = fitLine(long, column, image, metrics, true)
    const fontPixels = (layout.fontSize / 100) * 1000
    expect(fontPixels * metrics.width(long)).toBeCloseTo(415)
  })
})

describe("the layer", () => {
  const lines: TranslatedLine[] = [
    { bbox: { x0: 100, y0: 100, x1: 500, y1: 150 }, text: "Bonjour", vertical: false, background: [250, 220, 40], ink: [10, 20, 90] },
    { bbox: { x0: 800, y0: 50, x1: 850, y1: 450 }, text: "縦書き", vertical: true, background: [255, 255, 255], ink: [0, 0, 0] }
  ]

  it("paints each line at its box in its colours, columns set top to bottom, hidden from assistive technology without a label", () => {
    const { container } = render(<TranslatedLayer width={1000} height={500} lines={lines} />)
    const layer = screen.getByTestId("translated-layer")
    expect(layer.getAttribute("aria-hidden")).toBe("true")
    expect(layer.getAttribute("role")).toBeNull()
    const spans = Array.from(container.querySelectorAll<HTMLElement>("[data-line]"))
    expect(spans.map((span) => span.textContent)).toEqual(["Bonjour", "縦書き"])
    expect(spans[0]!.style.backgroundColor).toBe("rgb(250 220 40)")
    expect(spans[0]!.style.color).toBe("rgb(10 20 90)")
    expect(spans[0]!.style.writingMode).toBe("")
    expect(spans[1]!.style.writingMode).toBe("vertical-rl")
    // Its own selection colours, with no stylesheet of the host's.
    expect(container.querySelector("style")?.textContent).toContain("::selection")
  })

  it("with a label, is a group of that name in the translation's language, whose lines are read", () => {
    render(<TranslatedLayer width={1000} height={500} lines={lines} lang="fr" label="Image translated into French" />)
    const group = screen.getByRole("group", { name: "Image translated into French" })
    expect(group.getAttribute("lang")).toBeNull()
    expect(Array.from(group.querySelectorAll("[data-line]"), (line) => line.getAttribute("lang"))).toEqual(["fr", "fr"])
    expect(group.getAttribute("aria-hidden")).toBeNull()
    expect(group.textContent).toBe("Bonjour縦書き")
  })

  it("draws nothing for an image of no size", () => {
    const { container } = render(<TranslatedLayer width={0} height={500} lines={lines} />)
    expect(container.innerHTML).toBe("")
  })
})
