import { describe, expect, it } from "vitest"

import type { Rgb } from "~ui/line-colours"

import { lineColours, readableOn, type Pixels } from "./overlay-colours"

/** An image of `background` with a block of `ink` letters at the box, and a stray mark in the ring. */
function image(width: number, height: number, background: Rgb, paint: (x: number, y: number) => Rgb | null): Pixels {
  const data = new Uint8ClampedArray(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = paint(x, y) ?? background
      data.set([...colour, 255], (y * width + x) * 4)
    }
  }
  return { width, height, data }
}

describe("the colours of a translated line", () => {
  const box = { x0: 20, y0: 20, x1: 80, y1: 40 }

  it("paints on the colour around the box, in the letters' own colour", () => {
    const sign = image(100, 60, [0, 110, 60], (x, y) => (x >= 25 && x <= 75 && y >= 24 && y <= 36 && x % 3 === 0 ? [250, 250, 250] : null))
    expect(lineColours(sign, box)).toEqual({ background: [0, 110, 60], ink: [250, 250, 250] })
  })

  it("is not tinted by a stray mark on the ring", () => {
    const sign = image(100, 60, [240, 230, 200], (x, y) => (y === 17 && x < 40 ? [0, 0, 0] : x >= 30 && x <= 60 && y === 30 ? [20, 20, 120] : null))
    expect(lineColours(sign, box).background).toEqual([240, 230, 200])
    expect(lineColours(sign, box).ink).toEqual([20, 20, 120])
  })

  it("writes in black or white where the box has too little contrast to find the letters", () => {
    const pale = image(100, 60, [250, 250, 250], (x, y) => (x === 50 && y === 30 ? [235, 235, 235] : null))
    expect(lineColours(pale, box)).toEqual({ background: [250, 250, 250], ink: [0, 0, 0] })
    expect(readableOn([20, 30, 90])).toEqual([255, 255, 255])
    expect(readableOn([255, 220, 0])).toEqual([0, 0, 0])
  })

  it("samples a box at the image's edge within the image", () => {
    const edge = image(50, 30, [10, 10, 10], () => null)
    expect(lineColours(edge, { x0: 0, y0: 0, x1: 50, y1: 30 }).background).toEqual([10, 10, 10])
  })
})
