import { describe, expect, it } from "vitest"

import { contrastRatio, relativeLuminance, TEXT_ON_DARK, TEXT_ON_LIGHT, textColorOn } from "./contrast"

describe("text on an organisation's accent colour", () => {
  it("measures as WCAG 2 does", () => {
    expect(relativeLuminance("#000000")).toBe(0)
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1)
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21)
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2)
  })

  it("writes white on dark colours and black on light ones", () => {
    expect(textColorOn("#0a7d5a")).toBe(TEXT_ON_DARK)
    expect(textColorOn("#1f2937")).toBe(TEXT_ON_DARK)
    expect(textColorOn("#3b82f6")).toBe(TEXT_ON_LIGHT)
    expect(textColorOn("#ffd400")).toBe(TEXT_ON_LIGHT)
    expect(textColorOn("#f5f5f5")).toBe(TEXT_ON_LIGHT)
  })

  it("keeps AA's 4.5:1 for small text on every colour, the mid-tones included", () => {
    const steps = [0x00, 0x33, 0x55, 0x66, 0x77, 0x80, 0x88, 0x99, 0xaa, 0xcc, 0xff]
    const hex = (value: number) => value.toString(16).padStart(2, "0")
    let worst = 21
    for (const r of steps) for (const g of steps) for (const b of steps) {
      const background = `#${hex(r)}${hex(g)}${hex(b)}`
      worst = Math.min(worst, contrastRatio(background, textColorOn(background)))
    }
    expect(worst).toBeGreaterThanOrEqual(4.5)
  })
})
