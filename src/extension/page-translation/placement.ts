/**
 * Where an image's translation goes, from what the page tells of the image: its bounding box on screen
 * (getBoundingClientRect, which already holds every scroll, zoom, `position: sticky` and transform), its layout size
 * (offsetWidth/offsetHeight) and the linear part of its transforms. The overlay is a box of the image's own size,
 * given the same linear transform and centred where the image's box is centred: an affine map takes a rectangle's
 * centre to the centre of the parallelogram it becomes, which is the centre of that parallelogram's bounding box, so
 * no translation, transform origin or offset of any ancestor needs to be known. Pure arithmetic, tested alone.
 */

/** A rectangle: viewport CSS pixels, or layout pixels inside an element's border box. */
export interface Rect {
  left: number
  top: number
  width: number
  height: number
}

export interface Size {
  width: number
  height: number
}

/** A 2D linear map (a CSS matrix without its translation): (x, y) → (a·x + c·y, b·x + d·y). */
export interface Linear {
  a: number
  b: number
  c: number
  d: number
}

export const IDENTITY: Linear = { a: 1, b: 0, c: 0, d: 1 }

/** `outer` after `inner`. */
export function compose(outer: Linear, inner: Linear): Linear {
  return {
    a: outer.a * inner.a + outer.c * inner.b,
    b: outer.b * inner.a + outer.d * inner.b,
    c: outer.a * inner.c + outer.c * inner.d,
    d: outer.b * inner.c + outer.d * inner.d
  }
}

/** The linear part of a computed `transform` ("none", "matrix(a, b, c, d, e, f)" or "matrix3d(…)", whose 2D part is kept). */
export function parseTransform(value: string): Linear {
  const numbers = /^matrix(3d)?\(([^)]*)\)$/.exec(value.trim())
  if (!numbers) return IDENTITY
  const values = numbers[2]!.split(",").map(Number)
  if (values.some((number) => !Number.isFinite(number))) return IDENTITY
  // matrix3d is column-major: m11 m12 m13 m14 m21 m22 …
  const [a, b, c, d] = numbers[1] ? [values[0]!, values[1]!, values[4]!, values[5]!] : [values[0]!, values[1]!, values[2]!, values[3]!]
  return { a, b, c, d }
}

const ANGLE_UNITS: Record<string, number> = { deg: Math.PI / 180, rad: 1, grad: Math.PI / 200, turn: 2 * Math.PI }

/** A computed `rotate` ("none", "45deg", "z 45deg", "0 0 1 45deg"): about the screen's axis only. */
export function parseRotate(value: string): Linear {
  const parts = value.trim().split(/\s+/)
  const angle = /^(-?[\d.]+(?:e-?\d+)?)(deg|rad|grad|turn)$/.exec(parts.at(-1) ?? "")
  if (!angle) return IDENTITY
  const axis = parts.slice(0, -1)
  const aboutZ = axis.length === 0 || (axis.length === 1 && axis[0] === "z") || (axis.length === 3 && Number(axis[0]) === 0 && Number(axis[1]) === 0)
  if (!aboutZ) return IDENTITY
  const radians = Number(angle[1]) * ANGLE_UNITS[angle[2]!]! * (axis.length === 3 && Number(axis[2]) < 0 ? -1 : 1)
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)]
  return { a: cos, b: sin, c: -sin, d: cos }
}

/** A computed `scale` ("none", "1.5", "1.5 2", "50%"). */
export function parseScale(value: string): Linear {
  const factors = value
    .trim()
    .split(/\s+/)
    .map((part) => (part.endsWith("%") ? Number(part.slice(0, -1)) / 100 : Number(part)))
  if (value.trim() === "none" || !value.trim() || factors.some((factor) => !Number.isFinite(factor))) return IDENTITY
  return { a: factors[0]!, b: 0, c: 0, d: factors[1] ?? factors[0]! }
}

/** An element's own linear transform: CSS applies `rotate`, then `scale`, then `transform`, from the outside in. */
export function ownLinear(style: { transform: string; rotate?: string; scale?: string }): Linear {
  return compose(compose(parseRotate(style.rotate ?? "none"), parseScale(style.scale ?? "none")), parseTransform(style.transform))
}

/**
 * The element's layout size as the screen shows it (CSS `zoom` included): the size whose box, mapped by `linear`, has
 * the bounding box `bounds`. Layout sizes (offsetWidth) are whole pixels and leave zoom out; the bounding box is exact.
 * Where the bounding box cannot tell width from height (a turn of 45°), the layout size scaled as a whole.
 */
export function shownSize(bounds: Size, linear: Linear, layout: Size): Size {
  const [a, b, c, d] = [Math.abs(linear.a), Math.abs(linear.b), Math.abs(linear.c), Math.abs(linear.d)]
  const determinant = a * d - c * b
  if (Math.abs(determinant) > 0.1 * (a * d + c * b)) {
    const width = (d * bounds.width - c * bounds.height) / determinant
    const height = (a * bounds.height - b * bounds.width) / determinant
    if (width > 0 && height > 0) return { width, height }
  }
  const mapped = a * layout.width + c * layout.height + b * layout.width + d * layout.height
  const scale = mapped > 0 ? (bounds.width + bounds.height) / mapped : 1
  return { width: layout.width * scale, height: layout.height * scale }
}

/**
 * Where an image's picture is drawn inside its content box, by `object-fit` and `object-position` (computed values:
 * "contain", "50% 50%", "10px 0px"): contain and scale-down leave bars, cover and none overflow the box.
 */
export function fittedPicture(box: Size, natural: Size | null, fit: string, position: string): Rect {
  if (!natural || natural.width <= 0 || natural.height <= 0 || fit === "fill" || !fit) return { left: 0, top: 0, ...box }
  const contain = Math.min(box.width / natural.width, box.height / natural.height)
  const scale = fit === "contain" ? contain : fit === "cover" ? Math.max(box.width / natural.width, box.height / natural.height) : fit === "scale-down" ? Math.min(contain, 1) : 1
  const width = natural.width * scale
  const height = natural.height * scale
  const [x = "50%", y = "50%"] = position.trim().split(/\s+/)
  const offset = (value: string, room: number) => (value.endsWith("%") ? (room * Number(value.slice(0, -1))) / 100 : value.endsWith("px") ? Number(value.slice(0, -2)) : room / 2)
  const left = offset(x, box.width - width)
  const top = offset(y, box.height - height)
  return { left: Number.isFinite(left) ? left : (box.width - width) / 2, top: Number.isFinite(top) ? top : (box.height - height) / 2, width, height }
}

export interface PlacementInput {
  /** The image's border box's bounding box, in the viewport. */
  bounds: Rect
  /** The image's border box size in layout pixels (offsetWidth, offsetHeight). */
  layout: Size
  /** The linear part of the image's transforms and its ancestors'. */
  linear: Linear
  /** The part of the border box the picture fills (content box of an <img>, padding box of a background), in layout pixels. */
  area: Rect
  /** The picture inside `area` (object-fit), in layout pixels of `area`. */
  picture: Rect
  /** What the image's scrolling ancestors leave of it on screen (the viewport), or null when none clips it. */
  clip: Rect | null
  /** Where the overlay's own coordinates start, in the viewport (the overlay host's corner). */
  origin: { left: number; top: number }
}

export interface Placement {
  /** The clipping frame, in the host's coordinates; null: none. */
  clip: Rect | null
  /** The box (the picture's area, at its shown size), placed inside the frame (or the host) by `transform`. */
  box: { width: number; height: number; transform: string }
  /** The picture inside the box. */
  picture: Rect
}

const round = (value: number) => Math.round(value * 100) / 100

/** The overlay's frame, box and picture for one image (see the top of this module). */
export function placeOverlay({ bounds, layout, linear, area, picture, clip, origin }: PlacementInput): Placement {
  const shown = shownSize(bounds, linear, layout)
  const scaleX = layout.width > 0 ? shown.width / layout.width : 1
  const scaleY = layout.height > 0 ? shown.height / layout.height : 1
  // The area's centre from the border box's centre, at shown size, then mapped as the image is.
  const offsetX = (area.left + area.width / 2 - layout.width / 2) * scaleX
  const offsetY = (area.top + area.height / 2 - layout.height / 2) * scaleY
  const centreX = bounds.left + bounds.width / 2 + linear.a * offsetX + linear.c * offsetY
  const centreY = bounds.top + bounds.height / 2 + linear.b * offsetX + linear.d * offsetY
  const width = area.width * scaleX
  const height = area.height * scaleY
  const frame = clip ? { left: clip.left - origin.left, top: clip.top - origin.top, width: clip.width, height: clip.height } : null
  const start = frame ? { left: frame.left, top: frame.top } : { left: 0, top: 0 }
  const x = centreX - origin.left - start.left - width / 2
  const y = centreY - origin.top - start.top - height / 2
  const { a, b, c, d } = linear
  const entry = (value: number) => Math.round(value * 1e5) / 1e5
  const turned = a === 1 && b === 0 && c === 0 && d === 1 ? "" : ` matrix(${entry(a)}, ${entry(b)}, ${entry(c)}, ${entry(d)}, 0, 0)`
  return {
    clip: frame && { left: round(frame.left), top: round(frame.top), width: round(frame.width), height: round(frame.height) },
    box: { width: round(width), height: round(height), transform: `translate(${round(x)}px, ${round(y)}px)${turned}` },
    picture: { left: round(picture.left * scaleX), top: round(picture.top * scaleY), width: round(picture.width * scaleX), height: round(picture.height * scaleY) }
  }
}

/** The part of `a` inside `b` (empty when they do not meet: width or height 0). */
export function intersect(a: Rect, b: Rect): Rect {
  const left = Math.max(a.left, b.left)
  const top = Math.max(a.top, b.top)
  const right = Math.min(a.left + a.width, b.left + b.width)
  const bottom = Math.min(a.top + a.height, b.top + b.height)
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) }
}
