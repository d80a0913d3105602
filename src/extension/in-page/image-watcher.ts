import type { PageImage } from "~extension/messaging/messages"

import {
  backgroundRules,
  backgroundsOf,
  describeImages,
  domMeasurer,
  emptyScan,
  imageOfImg,
  isTinyImage,
  ruleBackgrounds,
  styleSignature,
  walkSubtree,
  type BackgroundRules,
  type FoundImage,
  type ImageHit,
  type ImageMeasurer,
  type Size,
  type SubtreeScan
} from "./collect-images"
import { isOwnNode, isShadowRoot } from "./own-nodes"
import { idleScheduler, type Scheduler } from "./page-timing"
import { PendingChanges } from "./pending-changes"

/**
 * The incremental image index of one document (and its open shadow roots).
 *
 * start() scans everything once. After that MutationObservers (one per root: observers do not
 * cross shadow boundaries) and a capturing `load` listener only queue the nodes that changed:
 * added subtrees are walked, elements whose src/srcset/sizes/style/class changed are re-examined,
 * and removals prune entries that left the document. The queue is flushed in one batch later
 * (requestIdleCallback, 200 ms at most; or when images() is called), so a page that mutates a lot
 * costs one Set insertion per mutation record until then.
 *
 * Nodes marked with OWN_NODE_ATTRIBUTE, and everything inside them, are never walked, and
 * mutations of them never schedule work: the extension's own UI cannot trigger the watcher.
 *
 * Known limits: shadow roots attached to an element after it was scanned (no mutation tells) are
 * found when that element changes or the page's subtree is re-added; backgrounds on ::before and
 * ::after are not reported; a class change re-checks background rules for that element's subtree
 * only.
 */

export interface ImageWatcherOptions {
  root?: Document
  /** Replaces the DOM measurement (tests: happy-dom neither loads images nor lays out). */
  measurer?: Partial<ImageMeasurer>
  /** How a flush of queued changes is scheduled; returns a cancel function. */
  schedule?: Scheduler
  /** Called after a flush that changed the index, with the number of images now found. */
  onChange?: (count: number) => void
  /** Load background images to learn their intrinsic size (default true). */
  probeBackgrounds?: boolean
}

const ATTRIBUTES = ["src", "srcset", "sizes", "media", "style", "class"]

interface Entry {
  image?: FoundImage
  backgrounds?: FoundImage[]
}

interface RootState {
  root: Document | ShadowRoot
  rules: BackgroundRules
  observer: MutationObserver
}

function sameImage(a: FoundImage | undefined, b: FoundImage | undefined): boolean {
  return a?.url === b?.url && a?.source === b?.source
}

function sameBackgrounds(a: FoundImage[] | undefined, b: FoundImage[] | undefined): boolean {
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false
  return (a ?? []).every((image, index) => image.url === b![index]!.url)
}

export class ImageWatcher {
  readonly document: Document
  private readonly measurer: ImageMeasurer
  private readonly schedule: Scheduler
  private readonly onChange?: (count: number) => void
  private readonly probeBackgrounds: boolean

  private readonly index = new Map<Element, Entry>()
  private readonly roots = new Map<Document | ShadowRoot, RootState>()
  private readonly probes = new Map<string, Size | null>()
  private running = false
  private cancelFlush: (() => void) | null = null

  private readonly pending = new PendingChanges()
  private lastCount = -1

  constructor(options: ImageWatcherOptions = {}) {
    this.document = options.root ?? document
    this.schedule = options.schedule ?? idleScheduler
    this.onChange = options.onChange
    this.probeBackgrounds = options.probeBackgrounds ?? true
    const natural = options.measurer?.natural ?? ((element: Element, hit: FoundImage) => this.naturalSize(element, hit))
    this.measurer = { natural, rendered: options.measurer?.rendered ?? domMeasurer.rendered }
  }

  get isRunning(): boolean {
    return this.running
  }

  /** Scans the document once and starts observing it. */
  start(): this {
    if (this.running) return this
    this.running = true
    const scan = emptyScan()
    this.addRoot(this.document, scan)
    this.examine(scan)
    this.lastCount = this.count()
    return this
  }

  stop(): void {
    this.running = false
    this.cancelFlush?.()
    this.cancelFlush = null
    for (const state of this.roots.values()) {
      state.observer.disconnect()
      state.root.removeEventListener("load", this.onLoad, true)
    }
    this.roots.clear()
    this.index.clear()
    this.pending.clear()
  }

  /** The images now on the page, one per URL, sizes read now. Pending changes are applied first. */
  images(): PageImage[] {
    this.flush()
    return describeImages(this.hits(), this.measurer)
  }

  /** Each image's element (the first that shows its URL), pending changes applied first: where it is on the page. */
  elements(): Map<string, Element> {
    this.flush()
    const elements = new Map<string, Element>()
    for (const hit of this.hits()) if (!elements.has(hit.url)) elements.set(hit.url, hit.element)
    return elements
  }

  /** Number of distinct images, without tiny ones whose size is known; reads no layout. */
  count(): number {
    const seen = new Set<string>()
    let count = 0
    for (const hit of this.hits()) {
      if (seen.has(hit.url)) continue
      seen.add(hit.url)
      if (!isTinyImage(this.measurer.natural(hit.element, hit))) count++
    }
    return count
  }

  /** Applies the queued changes now. */
  flush(): void {
    this.cancelFlush?.()
    this.cancelFlush = null
    if (!this.running) return
    const pending = this.pending
    let dirty = pending.loaded
    pending.loaded = false

    const scan = emptyScan()
    for (const root of pending.rulesChanged) {
      const state = this.roots.get(root)
      if (!state) continue
      state.rules = backgroundRules(root)
      // New rules can give any element of the root a background, and removed ones take it away.
      for (const top of Array.from(root.children)) {
        if (state.rules.complete) ruleBackgrounds(top, state.rules.selector, scan.backgrounds)
        else walkSubtree(top, { images: [], backgrounds: scan.backgrounds, shadowRoots: [] }, true)
      }
      for (const [element, entry] of this.index) {
        if (entry.backgrounds && element.getRootNode() === root) scan.backgrounds.push(element)
      }
    }
    for (const node of pending.added) {
      if (node.isConnected && node.nodeType === 1) this.walk(node as Element, scan)
    }
    for (const image of pending.loadedImages) {
      if (image.isConnected && this.stateOf(image)) scan.images.push(image)
    }
    for (const element of pending.changed) {
      if (!element.isConnected || isOwnNode(element)) continue
      const state = this.stateOf(element)
      if (!state) continue
      if (element.localName === "img") scan.images.push(element as HTMLImageElement)
      else if (element.localName === "source" && element.parentElement?.localName === "picture") {
        scan.images.push(...Array.from(element.parentElement.querySelectorAll("img")))
      }
      if (element.shadowRoot && !this.roots.has(element.shadowRoot)) scan.shadowRoots.push(element.shadowRoot)
    }
    for (const element of pending.restyled) {
      if (!element.isConnected || isOwnNode(element)) continue
      const state = this.stateOf(element)
      if (!state) continue
      // Inline style or class: the element itself, and for a class the rules may match descendants.
      scan.backgrounds.push(element)
      if (state.rules.complete) ruleBackgrounds(element, state.rules.selector, scan.backgrounds)
      if (element.shadowRoot && !this.roots.has(element.shadowRoot)) scan.shadowRoots.push(element.shadowRoot)
    }
    if (pending.removed) {
      for (const element of this.index.keys()) {
        if (!element.isConnected) {
          this.index.delete(element)
          dirty = true
        }
      }
      for (const state of this.roots.values()) {
        if (isShadowRoot(state.root) && !state.root.host.isConnected) this.dropRoot(state)
      }
    }
    pending.clear()
    if (this.examine(scan)) dirty = true

    if (dirty && this.onChange) {
      this.lastCount = this.count()
      this.onChange(this.lastCount)
    }
  }

  private hits(): ImageHit[] {
    const hits: ImageHit[] = []
    for (const [element, entry] of this.index) {
      if (entry.image) hits.push({ ...entry.image, element })
      if (entry.backgrounds) for (const background of entry.backgrounds) hits.push({ ...background, element })
    }
    return hits
  }

  private stateOf(node: Node): RootState | undefined {
    return this.roots.get(node.getRootNode() as Document | ShadowRoot)
  }

  private walk(top: Element, scan: SubtreeScan) {
    const state = this.stateOf(top)
    if (!state || isOwnNode(top)) return
    walkSubtree(top, scan, !state.rules.complete)
    if (state.rules.complete) ruleBackgrounds(top, state.rules.selector, scan.backgrounds)
  }

  private addRoot(root: Document | ShadowRoot, scan: SubtreeScan) {
    if (this.roots.has(root)) return
    const observer = new MutationObserver(this.onMutations)
    const state: RootState = { root, rules: backgroundRules(root), observer }
    this.roots.set(root, state)
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ATTRIBUTES })
    root.addEventListener("load", this.onLoad, true)
    for (const top of Array.from(root.children)) {
      walkSubtree(top, scan, !state.rules.complete)
      if (state.rules.complete) ruleBackgrounds(top, state.rules.selector, scan.backgrounds)
    }
  }

  private dropRoot(state: RootState) {
    state.observer.disconnect()
    state.root.removeEventListener("load", this.onLoad, true)
    this.roots.delete(state.root)
  }

  /** Reads the URLs of the collected elements (no layout) and updates the index; true when it changed. */
  private examine(scan: SubtreeScan): boolean {
    let changed = false
    // Shadow roots found while walking are walked in turn (and may hold more).
    for (let index = 0; index < scan.shadowRoots.length; index++) this.addRoot(scan.shadowRoots[index]!, scan)

    for (const image of scan.images) {
      const found = imageOfImg(image) ?? undefined
      const entry = this.index.get(image)
      if (sameImage(entry?.image, found)) continue
      changed = true
      if (entry) entry.image = found
      else this.index.set(image, { image: found })
    }
    const checked = new Set<Element>()
    for (const element of scan.backgrounds) {
      if (checked.has(element)) continue
      checked.add(element)
      const backgrounds = backgroundsOf(element)
      for (const background of backgrounds) this.probe(background.url)
      const entry = this.index.get(element)
      if (sameBackgrounds(entry?.backgrounds, backgrounds)) continue
      changed = true
      const value = backgrounds.length ? backgrounds : undefined
      if (entry) entry.backgrounds = value
      else this.index.set(element, { backgrounds: value })
    }
    if (changed) {
      for (const [element, entry] of this.index) if (!entry.image && !entry.backgrounds) this.index.delete(element)
    }
    return changed
  }

  private naturalSize(element: Element, hit: FoundImage): Size {
    if (hit.source === "background") return this.probes.get(hit.url) ?? { width: 0, height: 0 }
    return domMeasurer.natural(element, hit)
  }

  /** Loads a background image once (the browser usually has it cached) to learn its intrinsic size. */
  private probe(url: string) {
    if (!this.probeBackgrounds || this.probes.has(url) || typeof Image !== "function") return
    this.probes.set(url, null)
    const image = new Image()
    image.onload = () => {
      this.probes.set(url, { width: image.naturalWidth, height: image.naturalHeight })
      this.pending.loaded = true
      this.requestFlush()
    }
    image.src = url
  }

  private requestFlush() {
    if (!this.running || this.cancelFlush) return
    this.cancelFlush = this.schedule(() => {
      this.cancelFlush = null
      this.flush()
    })
  }

  private readonly onLoad = (event: Event) => {
    const target = event.target as Element | null
    if (!target || target.nodeType !== 1 || target.localName !== "img" || isOwnNode(target)) return
    this.pending.loadedImages.add(target as HTMLImageElement)
    if (this.index.has(target)) this.pending.loaded = true
    this.requestFlush()
  }

  private readonly onMutations = (records: MutationRecord[]) => {
    if (!this.pending.record(records)) return
    // CSS-in-JS adds rules with insertRule, which no mutation reports: compare the sheets' rule counts.
    for (const state of this.roots.values()) {
      if (styleSignature(state.root) !== state.rules.signature) this.pending.rulesChanged.add(state.root)
    }
    this.requestFlush()
  }
}


export function createImageWatcher(options: ImageWatcherOptions = {}): ImageWatcher {
  return new ImageWatcher(options)
}
