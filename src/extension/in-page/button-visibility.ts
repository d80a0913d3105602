/**
 * Whether the person can see the on-image button as we draw it, so that a click on it is theirs (clickjacking: a page
 * may draw a decoy over the button that lets clicks through to it, or make the button invisible, and take the click).
 *
 * What a page can do, and what answers it. Our host is position: fixed with the highest z-index, its style inline and
 * !important, the last child of <html> (image-button.ts moves it there when the button appears), so a page can paint
 * over the button only with
 * - the top layer: a popover, a modal dialog or a fullscreen element, in the page's DOM or in a shadow root, open or
 *   closed. Our z-index cannot beat it, and with pointer-events: none the click still reaches us. Hit testing skips
 *   such an element, so elementsFromPoint cannot see it: the top layer is looked for by name (:popover-open, :modal,
 *   fullscreenElement), in every shadow root the content script can open (chrome.dom.openOrClosedShadowRoot in Chrome,
 *   Element.openOrClosedShadowRoot in Firefox reach closed ones too);
 * - an element after our host in <html>, or <html>::after at our z-index: refused when either is rendered;
 * - anything that takes hits over the button: elementsFromPoint from inside our closed shadow root, at the click's
 *   point and the button's corners, must find the button first (and the click's point on it);
 * - opacity, filters, masks, clip paths, blending or transforms on <html>, or a rewritten style attribute on our host
 *   (page rules cannot beat it, a script can): any of them refuses;
 * - timing: a decoy shown while the person decides and taken away at the press (a page's capturing pointerdown runs
 *   before ours), or the button brought up under the pointer at the last moment. Any cover seen since the button
 *   appeared refuses the click, and so does a click before the first look.
 *
 * Browsers: Chrome has IntersectionObserver v2 (trackVisibility, Chrome 74+). It reports the button visible only
 * when nothing is painted over it and no opacity, filter or transform other than a translation applies, ancestor
 * frames included, and closed shadow roots are no hiding place for it; it looks at most every 100 ms. Where it exists,
 * its reports are the watch. Firefox has no trackVisibility (no isVisible on its entries, ESR 153 included), so there
 * the checks above run when the button appears, every 250 ms while it is shown, and at the click. At the click they
 * run in both browsers: a decoy shown in the last 100 ms before the click has not reached IntersectionObserver yet.
 * A frame cannot see how its parent shows it (the parent may make the frame transparent and put a decoy beneath):
 * without trackVisibility the button is offered in top-level documents only.
 */

/** How often the page is looked at while the button is shown, where the browser has no trackVisibility. */
export const LOOK_INTERVAL_MS = 250
/** The smallest delay trackVisibility allows. */
const OBSERVER_DELAY_MS = 100
/** From the button's edges, inside its rounded corners (radius 16 px): the points looked at besides the click's. */
export const CORNER_INSET_PX = 6
const TOP_Z_INDEX = "2147483647"
const TOP_LAYER_SELECTOR = ":popover-open, :modal"

export interface Point {
  x: number
  y: number
}

/** IntersectionObserver v2's entry: `isVisible` where the browser tracks visibility. */
type VisibilityEntry = IntersectionObserverEntry & { isVisible?: boolean }

/** Whether this window's IntersectionObserver reports visibility (Chrome), rather than only intersection (Firefox). */
export function tracksVisibility(window: Window): boolean {
  const Entry = (window as Window & { IntersectionObserverEntry?: { prototype: object } }).IntersectionObserverEntry
  return !!Entry && "isVisible" in Entry.prototype
}

/** Whether a click on the button can be checked here: anywhere with trackVisibility, else in a top-level document only. */
export function canCheckVisibility(window: Window): boolean {
  return tracksVisibility(window) || window.top === window
}

/** The points inside the button's rounded corners. */
export function cornersOf(box: DOMRectReadOnly | { left: number; top: number; right: number; bottom: number }): Point[] {
  const [left, right, top, bottom] = [box.left + CORNER_INSET_PX, box.right - CORNER_INSET_PX, box.top + CORNER_INSET_PX, box.bottom - CORNER_INSET_PX]
  return [
    { x: left, y: top },
    { x: right, y: top },
    { x: left, y: bottom },
    { x: right, y: bottom }
  ]
}

type PaintStyle = Pick<CSSStyleDeclaration, "opacity" | "filter" | "transform" | "clipPath" | "maskImage" | "mixBlendMode">

/** Whether an element with this computed style paints what it holds as it is (no fading, filtering, masking or moving). */
export function paintsAsIs(style: PaintStyle): boolean {
  return (
    style.opacity === "1" &&
    style.filter === "none" &&
    style.transform === "none" &&
    style.clipPath === "none" &&
    (style.maskImage ?? "none") === "none" &&
    style.mixBlendMode === "normal"
  )
}

interface ContentScriptDom {
  chrome?: { dom?: { openOrClosedShadowRoot?(element: HTMLElement): ShadowRoot | null } }
}

/** An element's shadow root, closed ones too where the browser lets a content script see them. */
function shadowRootOf(element: Element): ShadowRoot | null {
  const open = (globalThis as ContentScriptDom).chrome?.dom?.openOrClosedShadowRoot
  if (open) return element instanceof HTMLElement ? open(element) : null
  return (element as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot ?? element.shadowRoot
}

/** Whether a page element in `root` (or a shadow root within it, ours excepted) is in the top layer. */
function hasTopLayer(root: Document | ShadowRoot, own: Element): boolean {
  if (root.querySelector(TOP_LAYER_SELECTOR)) return true
  for (const element of root.querySelectorAll("*")) {
    const shadow = element === own ? null : shadowRootOf(element)
    if (shadow && hasTopLayer(shadow, own)) return true
  }
  return false
}

/** What the checks need of our own elements. */
export interface OwnElements {
  host: HTMLElement
  shadow: ShadowRoot
  /** Our host's style attribute as we wrote it. */
  hostStyle: string
}

/** A button and the points where it must be the first element hit. */
export interface HitCheck {
  button: HTMLElement
  points: Point[]
}

/** Whether the page covers or hides our buttons now, judged from the DOM (see the top of this module). */
export function pageCovers({ host, shadow, hostStyle }: OwnElements, hits: HitCheck[]): boolean {
  const document = host.ownerDocument
  const view = document.defaultView
  const root = document.documentElement
  if (!view || host.parentNode !== root || host.getAttribute("style") !== hostStyle) return true
  for (let next = host.nextElementSibling; next; next = next.nextElementSibling) {
    if (view.getComputedStyle(next).display !== "none") return true
  }
  const after = view.getComputedStyle(root, "::after")
  if (after.content !== "none" && after.content !== "normal" && after.position !== "static" && after.zIndex === TOP_Z_INDEX) return true
  if (!paintsAsIs(view.getComputedStyle(root))) return true
  if (document.fullscreenElement && document.fullscreenElement !== root) return true
  for (const { button, points } of hits) {
    for (const { x, y } of points) {
      const first = shadow.elementsFromPoint(x, y)[0]
      if (!first || !button.contains(first)) return true
    }
  }
  return hasTopLayer(document, host)
}

/**
 * Watches whether the button stays visible while it is shown (`watch` when it appears, `unwatch` when it hides) and
 * answers whether a click may act (`allows`).
 */
export class VisibilityWatch {
  private readonly window: Window
  private readonly tracks: boolean
  private observer: IntersectionObserver | null = null
  private timer: ReturnType<typeof setInterval> | undefined
  private watched: HTMLElement | null = null
  /** trackVisibility's latest report on the bar: undefined before the first since `watch`. */
  private reportedVisible: boolean | undefined
  /** Something covered or hid the button since it appeared. */
  private seenCovered = false

  constructor(
    private readonly own: OwnElements,
    /** The bar holding the buttons (what trackVisibility watches), and the buttons the looks check. */
    private readonly parts: { bar: HTMLElement; buttons: HTMLElement[] }
  ) {
    this.window = own.host.ownerDocument.defaultView!
    this.tracks = tracksVisibility(this.window)
  }

  /** The button has just appeared (or moved to another image): a fresh watch. */
  watch(): void {
    this.unwatch()
    this.seenCovered = false
    this.reportedVisible = undefined
    this.watched = this.parts.bar
    if (this.tracks) {
      this.observer ??= new IntersectionObserver((entries) => this.onReports(entries as VisibilityEntry[]), {
        trackVisibility: true,
        delay: OBSERVER_DELAY_MS
      } as IntersectionObserverInit)
      this.observer.observe(this.parts.bar)
    } else {
      this.look()
      this.timer = setInterval(() => this.look(), LOOK_INTERVAL_MS)
    }
  }

  unwatch(): void {
    this.watched = null
    clearInterval(this.timer)
    this.timer = undefined
    if (this.observer) {
      this.observer.unobserve(this.parts.bar)
      // Reports queued for the last watch must not count for the next.
      this.observer.takeRecords()
    }
  }

  /** Whether a click on `button` (at `point`, for a pointer's click: it must be on the button) may act. */
  allows(button: HTMLElement, point: Point | null): boolean {
    if (this.seenCovered || (this.tracks && this.reportedVisible !== true)) return false
    return !pageCovers(this.own, [{ button, points: [...(point ? [point] : []), ...cornersOf(button.getBoundingClientRect())] }])
  }

  private onReports(entries: VisibilityEntry[]) {
    if (!this.watched) return
    for (const entry of entries) {
      // Hidden or scrolled out of view is not covered: only a button on screen that is not seen as drawn is.
      this.reportedVisible = entry.isIntersecting && entry.isVisible === true
      if (entry.isIntersecting && entry.isVisible !== true) this.seenCovered = true
    }
  }

  private look() {
    const shown = this.parts.buttons.filter((button) => !button.hidden)
    if (this.parts.bar.hidden || shown.length === 0) return
    if (pageCovers(this.own, shown.map((button) => ({ button, points: cornersOf(button.getBoundingClientRect()) })))) this.seenCovered = true
  }
}
