import { describe, expect, it } from "vitest"

import type { Box, DetectedObject } from "./detections"
import { cutByTile, fromTile, LARGE_PERSON_HEIGHT, MAX_TILES, mergeDetections, TILE_OVERLAP, tileLayout, tileOnCopy, tilesAfter, tilingCopySide } from "./tiles"

const SIDE = 1024

/** Whether every pixel of the image lies in some tile. */
function covers(tiles: Box[], width: number, height: number): boolean {
  const inTile = (x: number, y: number) => tiles.some((tile) => x >= tile.x && x < tile.x + tile.width && y >= tile.y && y < tile.y + tile.height)
  for (let y = 0; y < height; y += 7) for (let x = 0; x < width; x += 7) if (!inTile(x, y)) return false
  return inTile(width - 1, height - 1) && inTile(width - 1, 0) && inTile(0, height - 1)
}

const person = (score: number, x: number, y: number, width: number, height: number): DetectedObject => ({ label: "person", score, box: { x, y, width, height } })

describe("tileLayout", () => {
  it("does not tile an image the full pass sees well enough", () => {
    expect(tileLayout(1169, 584, SIDE)).toEqual([])
    expect(tileLayout(1536, 1536, SIDE)).toEqual([])
    expect(tileLayout(400, 300, SIDE)).toEqual([])
  })

  it("covers a large image with tiles that overlap their neighbours by the overlap share", () => {
    const sizes: [number, number][] = [
      [1920, 960],
      [1920, 1280],
      [1537, 200],
      [6000, 4000],
      [800, 5000]
    ]
    for (const [width, height] of sizes) {
      const tiles = tileLayout(width, height, SIDE)
      expect(tiles.length).toBeGreaterThan(1)
      expect(tiles.length).toBeLessThanOrEqual(MAX_TILES)
      expect(covers(tiles, width, height)).toBe(true)
      for (const tile of tiles) {
        expect(tile.x + tile.width).toBeLessThanOrEqual(width)
        expect(tile.y + tile.height).toBeLessThanOrEqual(height)
      }
      const [first, second] = tiles as [Box, Box]
      const overlap = first.y === second.y ? first.x + first.width - second.x : first.y + first.height - second.y
      const side = first.y === second.y ? first.width : first.height
      expect(overlap / side).toBeCloseTo(TILE_OVERLAP, 1)
    }
  })

  it("lays a 1920 × 960 montage out as three columns and two rows", () => {
    expect(tileLayout(1920, 960, SIDE)).toEqual([
      { x: 0, y: 0, width: 738, height: 533 },
      { x: 591, y: 0, width: 738, height: 533 },
      { x: 1182, y: 0, width: 738, height: 533 },
      { x: 0, y: 427, width: 738, height: 533 },
      { x: 591, y: 427, width: 738, height: 533 },
      { x: 1182, y: 427, width: 738, height: 533 }
    ])
  })

  it("gives a very large image larger tiles, not more of them", () => {
    const tiles = tileLayout(12000, 8000, SIDE)
    expect(tiles).toHaveLength(MAX_TILES)
    expect(tilingCopySide(12000, 8000, tiles, SIDE)).toBeLessThan(12000)
  })
})

describe("tileOnCopy and fromTile", () => {
  it("finds a tile on a shrunk copy and moves its boxes back to the copy", () => {
    const cut = tileOnCopy({ x: 591, y: 427, width: 738, height: 533 }, 2, 960, 480)
    expect(cut).toEqual({ x: 296, y: 214, width: 369, height: 266 })
    expect(fromTile([{ label: "person", score: 0.5, box: [10, 20, 30, 40] }], cut)).toEqual([{ label: "person", score: 0.5, box: [306, 234, 30, 40] }])
  })
})

describe("mergeDetections", () => {
  const left = { x: 0, y: 0, width: 738, height: 533 }
  const right = { x: 591, y: 0, width: 738, height: 533 }

  it("counts once a person cut by a tile's edge whom the full pass saw whole", () => {
    const whole = person(0.3, 650, 100, 160, 400)
    const cutPart = person(0.6, 650, 100, 85, 390)
    expect(cutByTile(cutPart.box, left, 1920, 960)).toBe(true)
    const merged = mergeDetections([{ objects: [whole] }, { objects: [cutPart], tile: left }, { objects: [person(0.5, 652, 98, 158, 404)], tile: right }], 1920, 960, 100)
    // The full pass's whole box, the best score.
    expect(merged).toEqual([{ label: "person", score: 0.6, box: whole.box }])
    // Seen only by the tiles, the person gets the union of the cut part and the whole.
    expect(mergeDetections([{ objects: [] }, { objects: [cutPart], tile: left }, { objects: [person(0.5, 652, 98, 158, 404)], tile: right }], 1920, 960, 100)).toEqual([
      { label: "person", score: 0.6, box: { x: 650, y: 98, width: 160, height: 404 } }
    ])
  })

  it("adds the small people only the tiles found", () => {
    const merged = mergeDetections([{ objects: [person(0.5, 100, 100, 200, 400)] }, { objects: [person(0.4, 400, 100, 60, 150), person(0.45, 102, 99, 198, 402)], tile: left }], 1920, 960, 100)
    expect(merged.map((object) => object.box.x)).toEqual([100, 400])
  })

  it("keeps two people standing shoulder to shoulder apart", () => {
    const a = person(0.5, 100, 100, 100, 300)
    const b = person(0.4, 170, 110, 100, 300)
    expect(mergeDetections([{ objects: [a, b] }], 1920, 960, 100)).toHaveLength(2)
    expect(mergeDetections([{ objects: [a] }, { objects: [b], tile: left }], 1920, 960, 100)).toHaveLength(2)
  })

  it("merges label by label", () => {
    const cup = { label: "cup", score: 0.4, box: { x: 300, y: 300, width: 50, height: 60 } }
    const bottle = { label: "bottle", score: 0.35, box: { x: 301, y: 300, width: 50, height: 60 } }
    const merged = mergeDetections([{ objects: [cup] }, { objects: [bottle, { ...cup, score: 0.5 }], tile: left }], 1920, 960, 100)
    expect(merged.map((object) => [object.label, object.score])).toEqual([
      ["cup", 0.5],
      ["bottle", 0.35]
    ])
  })

  it("lists the best first, at most the limit", () => {
    const merged = mergeDetections([{ objects: [person(0.3, 0, 0, 10, 10), person(0.9, 100, 0, 10, 10)] }, { objects: [person(0.5, 300, 300, 10, 10)], tile: left }], 1920, 960, 2)
    expect(merged.map((object) => object.score)).toEqual([0.9, 0.5])
  })
})

describe("tilesAfter", () => {
  const cup: DetectedObject = { label: "cup", score: 0.6, box: { x: 100, y: 900, width: 60, height: 80 } }

  it("spares a photo of a few people close up the tiles' time", () => {
    const tall = LARGE_PERSON_HEIGHT * 1280
    expect(tilesAfter([person(0.9, 0, 0, 500, tall), person(0.8, 600, 100, 500, 1100), cup], 1920, 1280, SIDE)).toEqual([])
  })

  it("looks again when a person the full pass found is small, or it found no one", () => {
    const layout = tileLayout(1920, 1280, SIDE)
    expect(layout.length).toBeGreaterThan(1)
    expect(tilesAfter([person(0.9, 0, 0, 500, 1100), person(0.5, 900, 400, 80, 300)], 1920, 1280, SIDE)).toEqual(layout)
    expect(tilesAfter([cup], 1920, 1280, SIDE)).toEqual(layout)
    expect(tilesAfter([], 1920, 1280, SIDE)).toEqual(layout)
  })

  it("never tiles an image the full pass sees well enough", () => {
    expect(tilesAfter([], 1169, 584, SIDE)).toEqual([])
  })
})
