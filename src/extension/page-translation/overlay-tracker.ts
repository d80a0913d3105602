/**
 * Keeps each image's overlay on its image: after a scroll that moves it (of a scrolling container it is in, or of the
 * window for a fixed or sticky image), a resize of the window or of the image (ResizeObserver), a change of the page
 * (MutationObserver: styles, classes, addresses, added and removed elements), a picture or font that loaded, and for
 * as long as a CSS animation or transition moves the image or an ancestor. Each change asks for one animation frame,
 * in which every overlay is placed at once (layout read first, then written, only what changed); while nothing
 * moves, nothing runs. A scroll only reads the boxes again; the computed styles are read again after other changes.
 *
 * The overlays live in a host placed at the document's corner (position: absolute), so that they move with the
 * document as it scrolls, on the compositor, and only images that move otherwise (sticky, fixed, in a scrolling
 * container, animated) need new coordinates. So the tracker listens for scroll events only where they come from for
 * those: on each scrolling ancestor of a tracked image, and on the window only while an image is fixed or sticky. A
 * listener the page's every scroll reaches costs the page a call into the extension per frame even when it returns
 * at once (bench/page-translation.ts: about 25 ms of main thread per 8 s of scrolling).
 */
import { AncestorCache, clipRectOf, readGeometry, type ImageGeometry } from "./element-geometry"
import { intersect, placeOverlay, type Rect } from "./placement"

/** The elements of one overlay the tracker places: the clipping frame, the transformed box, the picture in it. */
export interface OverlayNodes {
  frame: HTMLElement
  box: HTMLElement
  picture: HTMLElement
}

/** What changed of the tracked images since the last frame. */
export interface PageChange {
  /** Tracked images that left the document. */
  gone: Element[]
  /** Tracked images whose address or style attributes changed: they may show another picture now. */
  touched: Element[]
  /** Elements were added to the page (an image shown again may be among them). */
  added: boolean
  /** Some element's address, style or class changed: an image may show another picture now (or one shown before). */
  readdressed: boolean
}

export interface TrackerOptions {
  /** The overlays' host: where their coordinates start. */
  host: Element
  view?: Window
  /** Told once per frame what changed of the tracked images, before they are placed. */
  onChange?: (change: PageChange) => void
}

interface Tracked {
  element: Element
  nodes: OverlayNodes
  geometry: ImageGeometry | null
  /** Reported gone already. */
  gone: boolean
}

const ATTRIBUTES = ["style", "class", "hidden", "src", "srcset", "sizes", "open"]
/** Attributes after which a tracked image may show another picture. */
const SOURCE_ATTRIBUTES = new Set(["src", "srcset", "sizes", "style", "class"])

const emptyChange = (): PageChange => ({ gone: [], touched: [], added: false, readdressed: false })

export class OverlayTracker {
  private readonly view: Window
  private readonly host: Element
  private readonly onChange?: (change: PageChange) => void
  private readonly tracked = new Map<HTMLElement, Tracked>()
  /** The last value written of each style property, per node: nothing is written twice. */
  private readonly written = new WeakMap<HTMLElement, Map<string, string>>()
  private frame: number | null = null
  private remeasure = true
  private change = emptyChange()
  private animating = false
  private paused = false
  private listening = false
  /** What the tracker hears scroll events from: the tracked images' scrolling ancestors, the window for pinned ones. */
  private scrollSources = new Set<EventTarget>()
  private mutations: MutationObserver | null = null
  private resizes: ResizeObserver | null = null

  constructor({ host, view = window, onChange }: TrackerOptions) {
    this.host = host
    this.view = view
    this.onChange = onChange
  }

  /** Places `nodes` over `element` now, and from then on after every change; the returned function stops it. */
  track(element: Element, nodes: OverlayNodes): () => void {
    const tracked: Tracked = { element, nodes, geometry: null, gone: false }
    this.tracked.set(nodes.frame, tracked)
    this.listen()
    this.resizes?.observe(element)
    if (!this.paused) this.placeAll([tracked], true)
    return () => {
      this.tracked.delete(nodes.frame)
      this.listenForScrolls(this.wantedScrollSources())
      if (![...this.tracked.values()].some((other) => other.element === element)) this.resizes?.unobserve(element)
    }
  }

  /** Stops placing (the overlays are hidden): changes are only noted. */
  pause(): void {
    this.paused = true
    this.cancelFrame()
  }

  /** Places every overlay again now, with the changes noted while paused. */
  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.remeasure = true
    this.run()
  }

  /** Asks for one frame in which every overlay is placed (`remeasure`: their styles read again too). */
  schedule(remeasure: boolean): void {
    this.remeasure ||= remeasure
    if (this.frame !== null || this.paused) return
    this.frame = this.view.requestAnimationFrame(this.run)
  }

  stop(): void {
    this.cancelFrame()
    this.tracked.clear()
    this.mutations?.disconnect()
    this.resizes?.disconnect()
    this.mutations = this.resizes = null
    if (this.listening) {
      for (const [type, listener, target] of this.listeners()) target.removeEventListener(type, listener, { capture: true })
      this.listening = false
    }
    this.listenForScrolls(new Set())
  }

  /** Hears scroll events from `sources`, and from nothing else. */
  private listenForScrolls(sources: Set<EventTarget>) {
    for (const source of this.scrollSources) if (!sources.has(source)) source.removeEventListener("scroll", this.onScroll)
    for (const source of sources) if (!this.scrollSources.has(source)) source.addEventListener("scroll", this.onScroll, { passive: true })
    this.scrollSources = sources
  }

  /** The scroll sources that move the tracked images, from their geometry as last measured. */
  private wantedScrollSources(): Set<EventTarget> {
    const sources = new Set<EventTarget>()
    for (const { geometry } of this.tracked.values()) {
      // A scrolling ancestor clips its content: its scroll events (which do not bubble) are heard on it.
      for (const clipper of geometry?.clippers ?? []) sources.add(clipper)
      // The document's scroll is fired at the document and bubbles to the window.
      if (geometry && !geometry.followsDocument) sources.add(this.view)
    }
    return sources
  }

  private cancelFrame() {
    if (this.frame !== null) this.view.cancelAnimationFrame(this.frame)
    this.frame = null
  }

  private readonly run = () => {
    this.frame = null
    for (const tracked of this.tracked.values()) {
      if (tracked.gone || tracked.element.isConnected) continue
      tracked.gone = true
      this.change.gone.push(tracked.element)
    }
    const change = this.change
    this.change = emptyChange()
    if (change.gone.length || change.touched.length || change.added || change.readdressed) this.onChange?.(change)
    const remeasure = this.remeasure
    this.remeasure = false
    this.placeAll([...this.tracked.values()], remeasure)
    if (this.animating) {
      if (this.isAnimated()) this.schedule(true)
      else this.animating = false
    }
  }

  private placeAll(all: Tracked[], remeasure: boolean) {
    const cache = new AncestorCache(this.view)
    // Every read before any write: one layout for the whole frame.
    const origin = this.host.getBoundingClientRect()
    const placements = all.map((tracked) => {
      if (!tracked.element.isConnected) return { tracked, placement: null }
      if (remeasure || !tracked.geometry) tracked.geometry = readGeometry(tracked.element, this.view, cache)
      return { tracked, placement: this.measure(tracked.element, tracked.geometry, origin) }
    })
    for (const { tracked, placement } of placements) this.write(tracked, placement)
    if (remeasure) this.listenForScrolls(this.wantedScrollSources())
  }

  private measure(element: Element, geometry: ImageGeometry, origin: DOMRect) {
    if (!geometry.rendered) return null
    let clip: Rect | null = null
    // Scrolled out of its container, the translation is clipped away, not hidden: it is still the image's, for a screen reader too.
    for (const clipper of geometry.clippers) clip = clip ? intersect(clip, clipRectOf(clipper)) : clipRectOf(clipper)
    const bounds = element.getBoundingClientRect()
    const placement = placeOverlay({ bounds, layout: geometry.layout, linear: geometry.linear, area: geometry.area, picture: geometry.picture, clip, origin })
    return { placement, zIndex: geometry.zIndex, opacity: geometry.opacity }
  }

  private write({ nodes }: Tracked, placed: ReturnType<OverlayTracker["measure"]>) {
    const { frame, box, picture } = nodes
    this.set(frame, "display", placed ? "block" : "none")
    if (!placed) return
    const { placement, zIndex, opacity } = placed
    const clip = placement.clip ?? { left: 0, top: 0, width: 0, height: 0 }
    this.set(frame, "left", `${clip.left}px`)
    this.set(frame, "top", `${clip.top}px`)
    this.set(frame, "width", `${clip.width}px`)
    this.set(frame, "height", `${clip.height}px`)
    this.set(frame, "overflow", placement.clip ? "hidden" : "visible")
    this.set(frame, "z-index", String(zIndex))
    this.set(frame, "opacity", String(Math.round(opacity * 1000) / 1000))
    this.set(box, "width", `${placement.box.width}px`)
    this.set(box, "height", `${placement.box.height}px`)
    this.set(box, "transform", placement.box.transform)
    this.set(picture, "left", `${placement.picture.left}px`)
    this.set(picture, "top", `${placement.picture.top}px`)
    this.set(picture, "width", `${placement.picture.width}px`)
    this.set(picture, "height", `${placement.picture.height}px`)
  }

  private set(node: HTMLElement, property: string, value: string) {
    let values = this.written.get(node)
    if (!values) this.written.set(node, (values = new Map()))
    if (values.get(property) === value) return
    values.set(property, value)
    node.style.setProperty(property, value)
  }

  /** A running CSS animation or transition moves a tracked image or one of its ancestors. */
  private isAnimated(): boolean {
    const moved = new Set<Element>()
    for (const { element, geometry } of this.tracked.values()) {
      moved.add(element)
      for (const ancestor of geometry?.ancestors ?? []) moved.add(ancestor)
    }
    const document = this.host.ownerDocument
    return (document.getAnimations?.() ?? []).some((animation) => {
      const target = (animation.effect as KeyframeEffect | null)?.target
      return animation.playState === "running" && !!target && moved.has(target)
    })
  }

  private readonly onScroll = () => this.schedule(false)
  private readonly onLayout = () => this.schedule(true)
  private readonly onAnimation = () => {
    this.animating = true
    this.schedule(true)
  }

  private listeners(): [string, (event: Event) => void, EventTarget][] {
    const document = this.host.ownerDocument
    return [
      ["resize", this.onLayout, this.view],
      ["load", this.onLayout, document],
      ["transitionrun", this.onAnimation, document],
      ["animationstart", this.onAnimation, document],
      ["transitionend", this.onLayout, document],
      ["animationend", this.onLayout, document],
      ["loadingdone", this.onLayout, document.fonts ?? document]
    ]
  }

  private listen() {
    if (this.listening) return
    this.listening = true
    for (const [type, listener, target] of this.listeners()) target.addEventListener(type, listener, { capture: true, passive: true })
    const document = this.host.ownerDocument
    const view = this.view as Window & typeof globalThis
    if (typeof view.MutationObserver === "function") {
      this.mutations = new view.MutationObserver(this.onMutations)
      this.mutations.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ATTRIBUTES })
    }
    if (typeof view.ResizeObserver === "function") this.resizes = new view.ResizeObserver(this.onLayout)
  }

  private readonly onMutations = (records: MutationRecord[]) => {
    const images = new Set([...this.tracked.values()].map((tracked) => tracked.element))
    let relevant = false
    for (const record of records) {
      // Our own host coming or going moves nothing.
      if (record.type === "childList" && [...record.addedNodes, ...record.removedNodes].every((node) => node === this.host)) continue
      relevant = true
      if (record.type === "childList" && record.addedNodes.length > 0) this.change.added = true
      if (record.type !== "attributes" || !SOURCE_ATTRIBUTES.has(record.attributeName ?? "")) continue
      this.change.readdressed = true
      const target = record.target as Element
      if (images.has(target)) this.change.touched.push(target)
      // A <source> of a <picture> chooses its <img>'s picture.
      if (target.localName === "source") for (const image of images) if (image.parentElement === target.parentElement) this.change.touched.push(image)
    }
    if (relevant) this.schedule(true)
  }
}
