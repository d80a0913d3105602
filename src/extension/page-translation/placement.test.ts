import { describe, expect, it } from "vitest"

import { compose, fittedPicture, IDENTITY, intersect, ownLinear, parseRotate, parseScale, parseTransform, placeOverlay, shownSize, type Linear, type PlacementInput } from "./placement"

const turn = (degrees: number): Linear => {
  const radians = (degrees * Math.PI) / 180
  return { a: Math.cos(radians), b: Math.sin(radians), c: -Math.sin(radians), d: Math.cos(radians) }
}

/** The bounding box on screen of a `width` × `height` box mapped by `linear` about its centre at (cx, cy). */
function boundsOf(cx: number, cy: number, width: number, height: number, linear: Linear) {
  const w = Math.abs(linear.a) * width + Math.abs(linear.c) * height
  const h = Math.abs(linear.b) * width + Math.abs(linear.d) * height
  return { left: cx - w / 2, top: cy - h / 2, width: w, height: h }
}

function input(overrides: Partial<PlacementInput>): PlacementInput {
  const layout = overrides.layout ?? { width: 400, height: 200 }
  return {
    bounds: { left: 100, top: 50, ...layout },
    layout,
    linear: IDENTITY,
    area: { left: 0, top: 0, ...layout },
    picture: { left: 0, top: 0, ...layout },
    clip: null,
    origin: { left: 0, top: 0 },
    ...overrides
  }
}

/** Where the box's centre lands: its translation plus half its size (the matrix turns it about its centre). */
function centreOf(placement: ReturnType<typeof placeOverlay>) {
  const [, x, y] = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(placement.box.transform)!.map(Number)
  const start = placement.clip ?? { left: 0, top: 0 }
  return { x: start.left + x! + placement.box.width / 2, y: start.top + y! + placement.box.height / 2 }
}

describe("reading computed transforms", () => {
  it("keeps a matrix's linear part and drops its translation", () => {
    expect(parseTransform("matrix(2, 0, 0, 3, 150, -40)")).toEqual({ a: 2, b: 0, c: 0, d: 3 })
    expect(parseTransform("none")).toEqual(IDENTITY)
    // matrix3d is column-major; its 2D part is m11 m12 m21 m22.
    expect(parseTransform("matrix3d(1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 50, 60, 0, 1)")).toEqual({ a: 1, b: 2, c: 3, d: 4 })
  })

  it("reads the rotate and scale properties, which the transform's computed value leaves out", () => {
    const quarter = parseRotate("90deg")
    expect(quarter.a).toBeCloseTo(0)
    expect(quarter.b).toBeCloseTo(1)
    expect(parseRotate("z 0.25turn").b).toBeCloseTo(1)
    expect(parseRotate("1 0 0 45deg")).toEqual(IDENTITY)
    expect(parseScale("1.5")).toEqual({ a: 1.5, b: 0, c: 0, d: 1.5 })
    expect(parseScale("2 50%")).toEqual({ a: 2, b: 0, c: 0, d: 0.5 })
    const both = ownLinear({ transform: "matrix(1, 0, 0, 1, 0, 0)", rotate: "90deg", scale: "2" })
    expect(both.b).toBeCloseTo(2)
    expect(both.c).toBeCloseTo(-2)
  })

  it("composes an ancestor's transform after the image's own", () => {
    const composed = compose(turn(90), { a: 2, b: 0, c: 0, d: 1 })
    // The image is stretched along x first, then turned: its x axis points down, twice as long.
    expect(composed.a).toBeCloseTo(0)
    expect(composed.b).toBeCloseTo(2)
    expect(composed.c).toBeCloseTo(-1)
    expect(composed.d).toBeCloseTo(0)
  })
})

describe("the size an image is shown at", () => {
  it("is its bounding box when nothing turns it, to the fraction of a pixel", () => {
    expect(shownSize({ width: 400.5, height: 200.25 }, IDENTITY, { width: 401, height: 200 })).toEqual({ width: 400.5, height: 200.25 })
  })

  it("is found from the bounding box of a turned or scaled box (CSS zoom included)", () => {
    const bounds = boundsOf(0, 0, 400 * 1.25, 200 * 1.25, turn(30))
    const size = shownSize(bounds, turn(30), { width: 400, height: 200 })
    expect(size.width).toBeCloseTo(500)
    expect(size.height).toBeCloseTo(250)
  })

  it("scales the layout size as a whole at a turn of 45°, where width and height cannot be told apart", () => {
    const bounds = boundsOf(0, 0, 400, 200, turn(45))
    const size = shownSize(bounds, turn(45), { width: 400, height: 200 })
    expect(size.width).toBeCloseTo(400)
    expect(size.height).toBeCloseTo(200)
  })
})

describe("placing an image's overlay", () => {
  it("puts an untransformed image's box on its bounding box, in the host's coordinates", () => {
    const placement = placeOverlay(input({ origin: { left: -30, top: -500 } }))
    expect(placement.box).toEqual({ width: 400, height: 200, transform: "translate(130px, 550px)" })
    expect(placement.clip).toBeNull()
    expect(placement.picture).toEqual({ left: 0, top: 0, width: 400, height: 200 })
  })

  it("centres a scaled and turned image's box where its bounding box is centred, with its matrix but no translation", () => {
    const linear = compose(turn(30), { a: 1.5, b: 0, c: 0, d: 1.5 })
    const bounds = boundsOf(600, 300, 400, 200, linear)
    const placement = placeOverlay(input({ bounds, linear }))
    expect(placement.box.width).toBeCloseTo(400)
    expect(placement.box.height).toBeCloseTo(200)
    expect(placement.box.transform).toMatch(/ matrix\(1\.29904, 0\.75, -0\.75, 1\.29904, 0, 0\)$/)
    const centre = centreOf(placement)
    expect(centre.x).toBeCloseTo(600, 1)
    expect(centre.y).toBeCloseTo(300, 1)
  })

  it("covers the content box of an image with a border and padding, the offset turned with the image", () => {
    // 10 px border and 20 px padding on the left only: the content box's centre lies 15 px right of the border box's.
    const layout = { width: 430, height: 200 }
    const area = { left: 30, top: 0, width: 400, height: 200 }
    const straight = placeOverlay(input({ layout, bounds: { left: 0, top: 0, ...layout }, area, picture: { left: 0, top: 0, width: 400, height: 200 } }))
    expect(centreOf(straight).x).toBeCloseTo(215 + 15)
    const bounds = boundsOf(500, 500, 430, 200, turn(90))
    const turned = placeOverlay(input({ layout, bounds, linear: turn(90), area }))
    // Turned a quarter clockwise, the offset points down.
    expect(centreOf(turned).x).toBeCloseTo(500)
    expect(centreOf(turned).y).toBeCloseTo(515)
  })

  it("places the frame at the clip and the box inside it", () => {
    const placement = placeOverlay(input({ clip: { left: 120, top: 80, width: 200, height: 100 }, origin: { left: 20, top: 30 } }))
    expect(placement.clip).toEqual({ left: 100, top: 50, width: 200, height: 100 })
    // The image's corner (100, 50) in the viewport is (80, 20) in the host, (-20, -30) in the frame.
    expect(placement.box.transform).toBe("translate(-20px, -30px)")
  })

  it("follows the bounding box as it moves: a scroll or a sticky image moves only the translation", () => {
    const before = placeOverlay(input({ bounds: { left: 100, top: 50, width: 400, height: 200 } }))
    const after = placeOverlay(input({ bounds: { left: 100, top: 0, width: 400, height: 200 } }))
    expect(before.box.transform).toBe("translate(100px, 50px)")
    expect(after.box.transform).toBe("translate(100px, 0px)")
  })
})

describe("the picture inside an image's box (object-fit)", () => {
  const box = { width: 400, height: 200 }
  const natural = { width: 100, height: 100 }

  it("fills the box by default", () => {
    expect(fittedPicture(box, natural, "fill", "50% 50%")).toEqual({ left: 0, top: 0, width: 400, height: 200 })
  })

  it("contains, covers or keeps the picture's size where object-position puts it", () => {
    expect(fittedPicture(box, natural, "contain", "50% 50%")).toEqual({ left: 100, top: 0, width: 200, height: 200 })
    expect(fittedPicture(box, natural, "contain", "0% 50%")).toEqual({ left: 0, top: 0, width: 200, height: 200 })
    expect(fittedPicture(box, natural, "cover", "50% 50%")).toEqual({ left: 0, top: -100, width: 400, height: 400 })
    expect(fittedPicture(box, natural, "none", "10px 20px")).toEqual({ left: 10, top: 20, width: 100, height: 100 })
    expect(fittedPicture(box, { width: 1000, height: 1000 }, "scale-down", "50% 50%")).toEqual({ left: 100, top: 0, width: 200, height: 200 })
  })
})

describe("clipping", () => {
  it("keeps what two rectangles share, and nothing when they do not meet", () => {
    expect(intersect({ left: 0, top: 0, width: 100, height: 100 }, { left: 50, top: 60, width: 100, height: 100 })).toEqual({ left: 50, top: 60, width: 50, height: 40 })
    expect(intersect({ left: 0, top: 0, width: 10, height: 10 }, { left: 50, top: 60, width: 10, height: 10 })).toMatchObject({ width: 0, height: 0 })
  })
})
