import { describe, expect, it } from "vitest"

import { cropBox, MIN_AREA_SIDE_CSS_PX, parseSelectedArea } from "./area-capture"

const viewport = { width: 1000, height: 600 }
const answer = (area: object, extra: object = {}) => ({ area, viewport, devicePixelRatio: 2, ...extra })

describe("the overlay's answer", () => {
  it("is taken when it names an area inside the viewport", () => {
    expect(parseSelectedArea(answer({ x: 10, y: 20, width: 300, height: 100 }))).toEqual(answer({ x: 10, y: 20, width: 300, height: 100 }))
  })

  it("is refused for areas smaller than the minimum on either side", () => {
    expect(parseSelectedArea(answer({ x: 10, y: 20, width: MIN_AREA_SIDE_CSS_PX - 1, height: 100 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 10, y: 20, width: 100, height: 2 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 10, y: 20, width: MIN_AREA_SIDE_CSS_PX, height: MIN_AREA_SIDE_CSS_PX }))).not.toBeNull()
  })

  it("is refused outside the viewport, malformed, or cancelled (null)", () => {
    expect(parseSelectedArea(answer({ x: -5, y: 0, width: 100, height: 100 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 950, y: 0, width: 100, height: 100 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 0, y: 0, width: "100", height: 100 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 0, y: 0, width: Number.NaN, height: 100 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 0, y: 0, width: 100, height: 100 }, { devicePixelRatio: 0 }))).toBeNull()
    expect(parseSelectedArea(answer({ x: 0, y: 0, width: 100, height: 100 }, { viewport: { width: 0, height: 600 } }))).toBeNull()
    expect(parseSelectedArea(null)).toBeNull()
    expect(parseSelectedArea("area")).toBeNull()
  })
})

describe("the crop in the screenshot's pixels", () => {
  const area = { x: 100, y: 50, width: 320, height: 180 }

  it("is the area itself at a device pixel ratio of 1", () => {
    expect(cropBox({ area, viewport }, { width: 1000, height: 600 })).toEqual(area)
  })

  it("is scaled by the device pixel ratio", () => {
    expect(cropBox({ area, viewport }, { width: 2000, height: 1200 })).toEqual({ x: 200, y: 100, width: 640, height: 360 })
  })

  it("covers every device pixel the area touches at a fractional ratio", () => {
    // 1.25: 100.5 × 1.25 = 125.625 starts in pixel 125; (100.5 + 10.3) × 1.25 = 138.5 ends in pixel 138.
    expect(cropBox({ area: { x: 100.5, y: 0, width: 10.3, height: 8 }, viewport }, { width: 1250, height: 750 })).toEqual({ x: 125, y: 0, width: 14, height: 10 })
  })

  it("stays inside the screenshot", () => {
    expect(cropBox({ area: { x: 990, y: 590, width: 10.4, height: 10.4 }, viewport }, { width: 2000, height: 1200 })).toEqual({ x: 1980, y: 1180, width: 20, height: 20 })
  })
})
