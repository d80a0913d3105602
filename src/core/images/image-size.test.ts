// @vitest-environment node
import { describe, expect, it } from "vitest"

import { DEFAULT_IMAGE_FILTER, filterImagesBySize, isHiddenAsSmall, sizeClassOf, type ImageDimensions } from "./image-size"

const image = (width: number, height: number): ImageDimensions => ({ width, height })

describe("the image-size rule", () => {
  it("hides an image as small when either side is under 400 px", () => {
    expect(isHiddenAsSmall(image(399, 1000))).toBe(true)
    expect(isHiddenAsSmall(image(1000, 399))).toBe(true)
    expect(isHiddenAsSmall(image(400, 400))).toBe(false)
    expect(isHiddenAsSmall(image(0, 0))).toBe(true)
  })

  it.each([
    [799, 2000, "small"],
    [2000, 799, "small"],
    [800, 800, "medium"],
    [1024, 1024, "medium"],
    [1400, 900, "medium"],
    [1401, 900, "large"],
    [1600, 1200, "large"],
    [1600, 600, "small"]
  ] as const)("classes %i×%i as %s", (width, height, expected) => {
    expect(sizeClassOf(image(width, height))).toBe(expected)
  })

  it("filters with 'Hide small images' on by default and combines it with the size", () => {
    const images = [image(100, 100), image(500, 500), image(800, 800), image(1024, 768), image(1600, 1200)]
    expect(DEFAULT_IMAGE_FILTER).toEqual({ size: "any", hideSmall: true })
    expect(filterImagesBySize(images, DEFAULT_IMAGE_FILTER)).toEqual([image(500, 500), image(800, 800), image(1024, 768), image(1600, 1200)])
    expect(filterImagesBySize(images, { size: "small", hideSmall: true })).toEqual([image(500, 500), image(1024, 768)])
    expect(filterImagesBySize(images, { size: "small", hideSmall: false })).toEqual([image(100, 100), image(500, 500), image(1024, 768)])
    expect(filterImagesBySize(images, { size: "medium", hideSmall: true })).toEqual([image(800, 800)])
    expect(filterImagesBySize(images, { size: "large", hideSmall: true })).toEqual([image(1600, 1200)])
  })

  it("puts the sample sizes 800, 1024, 1200 and 1600 in their classes", () => {
    expect([800, 1024, 1200, 1600].map((side) => sizeClassOf(image(side, side)))).toEqual(["medium", "medium", "medium", "large"])
  })
})
