/**
 * What the overlay of an image needs to know about the image's place in the page beyond its bounding box: its layout
 * size and the part its picture fills, the linear part of its and its ancestors' transforms, which ancestors clip it,
 * how it is stacked (so that the page's own fixed headers and dialogs still cover its translation as they cover it),
 * how opaque it is and whether it is shown at all. Read from computed styles, once per change of the page (never per
 * scroll): `AncestorCache` shares each ancestor's reading between the images of one pass.
 */
import { compose, fittedPicture, ownLinear, type Linear, type Rect, type Size } from "./placement"

export interface ImageGeometry {
  /** Border box size in layout pixels. */
  layout: Size
  /** The part the picture fills (content box of an <img>, padding box of a background), in layout pixels of the border box. */
  area: Rect
  /** The picture inside `area` (object-fit), in layout pixels. */
  picture: Rect
  linear: Linear
  /** Ancestors whose padding box clips the image (scrolling containers, overflow hidden or clip, paint containment). */
  clippers: Element[]
  /** The z-index the overlay takes in the page's root stacking context, to paint just above its image. */
  zIndex: number
  /** The image's and its ancestors' opacity, multiplied. */
  opacity: number
  /** False when the image is not rendered (display: none, visibility hidden, opacity 0, no size). */
  rendered: boolean
  /** Every ancestor, for telling whether an animation moves the image. */
  ancestors: Element[]
  /**
   * Neither the image nor an ancestor is fixed or sticky: when the document scrolls, the image moves with it, as the
   * overlays' host does, and its overlay needs no new place.
   */
  followsDocument: boolean
}

/** The parent in the flat tree: a slotted element's slot, a shadow root's host. */
export function flatParent(node: Element): Element | null {
  if (node.assignedSlot) return node.assignedSlot
  if (node.parentElement) return node.parentElement
  const root = node.parentNode as (Node & { host?: Element }) | null
  return root?.host ?? null
}

interface AncestorFacts {
  linear: Linear
  opacity: number
  position: string
  /** Creates a stacking context (the z-index it stacks at when it does). */
  stacking: number | null
  clips: boolean
  /** Is the containing block of fixed descendants (transform, filter, paint containment). */
  holdsFixed: boolean
  display: string
}

const px = (value: string) => parseFloat(value) || 0

/** A z-index as painted: auto and values of no stacking context at 0. */
const zOf = (style: CSSStyleDeclaration) => (style.zIndex === "auto" ? 0 : Number(style.zIndex) || 0)

function createsStacking(style: CSSStyleDeclaration, parentDisplay: string): boolean {
  const { position, zIndex } = style
  if (position === "fixed" || position === "sticky") return true
  if (zIndex !== "auto" && (position !== "static" || /flex|grid/.test(parentDisplay))) return true
  return (
    parseFloat(style.opacity) < 1 ||
    style.transform !== "none" ||
    (style.rotate ?? "none") !== "none" ||
    (style.scale ?? "none") !== "none" ||
    (style.translate ?? "none") !== "none" ||
    style.filter !== "none" ||
    (style.backdropFilter ?? "none") !== "none" ||
    style.isolation === "isolate" ||
    style.mixBlendMode !== "normal" ||
    (style.clipPath ?? "none") !== "none" ||
    (style.maskImage ?? "none") !== "none" ||
    /transform|opacity|filter/.test(style.willChange) ||
    /paint|layout|strict|content/.test(style.contain) ||
    /size/.test(style.containerType ?? "")
  )
}

/** The readings of the ancestors met in one pass over the page's images. */
export class AncestorCache {
  private readonly facts = new Map<Element, AncestorFacts>()

  constructor(private readonly view: Window) {}

  read(element: Element, parentDisplay: () => string): AncestorFacts {
    let facts = this.facts.get(element)
    if (!facts) {
      const style = this.view.getComputedStyle(element)
      const transformed = style.transform !== "none" || (style.rotate ?? "none") !== "none" || (style.scale ?? "none") !== "none"
      facts = {
        linear: ownLinear(style),
        opacity: Number.isNaN(parseFloat(style.opacity)) ? 1 : parseFloat(style.opacity),
        position: style.position,
        stacking: createsStacking(style, parentDisplay()) ? zOf(style) : null,
        clips: [style.overflowX, style.overflowY, style.overflow].some((value) => /hidden|clip|scroll|auto/.test(value)) || /paint|strict|content/.test(style.contain),
        holdsFixed: transformed || style.filter !== "none" || /paint|layout|strict|content/.test(style.contain),
        display: style.display
      }
      this.facts.set(element, facts)
    }
    return facts
  }
}

function isShown(element: Element, layout: Size): boolean {
  if (layout.width <= 0 || layout.height <= 0) return false
  const check = (element as Element & { checkVisibility?: (options: object) => boolean }).checkVisibility
  // Both spellings: Chrome before 121 knew only the historic ones.
  return check ? check.call(element, { opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true }) : true
}

/**
 * The geometry of `element` (an <img>, or an element with a background image). `natural` is the picture's own size
 * (an <img>'s naturalWidth/Height), which object-fit places in the content box.
 */
export function readGeometry(element: Element, view: Window, cache: AncestorCache): ImageGeometry {
  const style = view.getComputedStyle(element)
  const html = element as Partial<HTMLElement>
  const bounds = element.getBoundingClientRect()
  const layout = typeof html.offsetWidth === "number" ? { width: html.offsetWidth, height: html.offsetHeight ?? 0 } : { width: bounds.width, height: bounds.height }
  const border = { left: px(style.borderLeftWidth), top: px(style.borderTopWidth), right: px(style.borderRightWidth), bottom: px(style.borderBottomWidth) }
  const paddingBox = { left: border.left, top: border.top, width: layout.width - border.left - border.right, height: layout.height - border.top - border.bottom }
  let area: Rect = paddingBox
  let picture: Rect = { left: 0, top: 0, width: paddingBox.width, height: paddingBox.height }
  if (element.localName === "img") {
    const padding = { left: px(style.paddingLeft), top: px(style.paddingTop), right: px(style.paddingRight), bottom: px(style.paddingBottom) }
    area = { left: paddingBox.left + padding.left, top: paddingBox.top + padding.top, width: paddingBox.width - padding.left - padding.right, height: paddingBox.height - padding.top - padding.bottom }
    const image = element as HTMLImageElement
    const natural = image.naturalWidth > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : null
    picture = fittedPicture({ width: area.width, height: area.height }, natural, style.objectFit, style.objectPosition)
  }

  // Up the flat tree: transforms compose, opacities multiply, the outermost stacking context tells the z-index.
  const chain: Element[] = []
  for (let node = flatParent(element); node && node !== element.ownerDocument.documentElement; node = flatParent(node)) chain.push(node)
  const displayOf = (index: number) => () => (chain[index] ? cache.read(chain[index]!, displayOf(index + 1)).display : "block")
  const own = cache.read(element, displayOf(0))
  let linear = own.linear
  let opacity = own.opacity
  let zIndex = own.stacking ?? 0
  const clippers: Element[] = []
  // An absolutely placed element escapes the clipping of ancestors up to its containing block; a fixed one, all.
  let escaping = own.position === "absolute" ? "absolute" : own.position === "fixed" ? "fixed" : ""
  const body = element.ownerDocument.body
  const rootVisible = !/hidden|clip|scroll|auto/.test(view.getComputedStyle(element.ownerDocument.documentElement).overflow)
  const pinned = (position: string) => position === "fixed" || position === "sticky"
  let followsDocument = !pinned(own.position)
  chain.forEach((node, index) => {
    const facts = cache.read(node, displayOf(index + 1))
    if (pinned(facts.position)) followsDocument = false
    linear = compose(facts.linear, linear)
    opacity *= facts.opacity
    if (facts.stacking !== null) zIndex = facts.stacking
    if (escaping === "absolute" && (facts.position !== "static" || facts.holdsFixed)) escaping = ""
    if (escaping === "fixed" && facts.holdsFixed) escaping = ""
    // The body's overflow is the viewport's when the root's is visible: it clips nothing of its own.
    const propagated = node === body && rootVisible
    if (!escaping && facts.clips && !propagated) clippers.push(node)
    if (!escaping && (facts.position === "absolute" || facts.position === "fixed")) escaping = facts.position
  })
  return { layout, area, picture, linear, clippers, zIndex, opacity, rendered: opacity > 0 && isShown(element, layout), ancestors: chain, followsDocument }
}

/** The padding box of a clipping ancestor, in the viewport. */
export function clipRectOf(element: Element): Rect {
  const bounds = element.getBoundingClientRect()
  return { left: bounds.left + element.clientLeft, top: bounds.top + element.clientTop, width: element.clientWidth, height: element.clientHeight }
}
