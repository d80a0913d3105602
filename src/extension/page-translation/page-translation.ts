/**
 * One frame's page translation: the translations the panel sent (kept by image address while the mode is on), the
 * element each is laid over, whether translations or originals are shown, and in the top frame the badge. The
 * shadow host is built with the first thing to show and removed by clear().
 *
 * An image is found by the address the page index lists it by (its elements(), shared on the isolated world's
 * global: the two scripts run in the same world of the frame). When the page replaces an image's element (a
 * single-page app re-rendering it) or changes its address, the translation follows the address: it is laid over the
 * element that shows it now, or waits, hidden, until one does.
 */
import type { PageImageTranslation, PageTranslationActionKind, PageTranslationState } from "../messaging/page-translation-messages"
import type { PageChange } from "./overlay-tracker"
import type { OverlayItem } from "./PageTranslationView"
import { createSurface, type Surface } from "./surface"
import { overlayLabel, type BadgeState } from "./texts"

export interface PageTranslationOptions {
  document: Document
  /** The top frame draws the badge. */
  isTop: boolean
  /** The page index's images by address (null when the frame has no page index). */
  elements: () => ReadonlyMap<string, Element> | null
  /** Tells the panel what the person chose on the badge. */
  send: (action: PageTranslationActionKind) => void
}

export class PageTranslation {
  private readonly translations = new Map<string, PageImageTranslation>()
  /** The element each translation lies over; an address without one waits for its image to come back. */
  private readonly bound = new Map<string, Element>()
  private showing = true
  private badge: BadgeState | null = null
  private surface: Surface | null = null

  constructor(private readonly options: PageTranslationOptions) {}

  /** Lays `translation` over the image at `url`; false when this frame does not show that image. */
  show(url: string, translation: PageImageTranslation): boolean {
    const element = this.options.elements()?.get(url)
    if (!element) return false
    this.translations.set(url, translation)
    this.bound.set(url, element)
    this.render()
    return true
  }

  setState(state: PageTranslationState): void {
    this.showing = state.showing
    if (this.options.isTop) this.badge = { status: state.status, done: state.done, total: state.total, message: state.message, upgradeUrl: state.upgradeUrl, showing: state.showing }
    this.render()
  }

  /** Every overlay and the badge go; the page is as it was. */
  clear(): void {
    this.translations.clear()
    this.bound.clear()
    this.badge = null
    this.showing = true
    this.surface?.destroy()
    this.surface = null
  }

  private readonly act = (action: PageTranslationActionKind) => {
    // The originals or the translations at once; the panel's next state says the same.
    if (action !== "stop") {
      this.showing = action === "show-translations"
      if (this.badge) this.badge = { ...this.badge, showing: this.showing }
      this.render()
    }
    this.options.send(action)
  }

  private readonly onChange = (change: PageChange) => {
    const urlsOf = (elements: Element[]) => [...this.bound].filter(([, element]) => elements.includes(element)).map(([url]) => url)
    const recheck = new Set([...urlsOf(change.gone), ...urlsOf(change.touched)])
    // A waiting translation's image may be back: added again, or an element changed its address back to it.
    if (change.added || change.readdressed) for (const url of this.translations.keys()) if (!this.bound.has(url)) recheck.add(url)
    if (recheck.size === 0) return
    const elements = this.options.elements()
    let changed = false
    for (const url of recheck) {
      const element = elements?.get(url)
      const now = element?.isConnected ? element : undefined
      if (now === this.bound.get(url)) continue
      changed = true
      if (now) this.bound.set(url, now)
      else this.bound.delete(url)
    }
    if (changed) this.render()
  }

  private render(): void {
    const overlays: OverlayItem[] = []
    for (const [url, element] of this.bound) {
      const translation = this.translations.get(url)!
      overlays.push({ url, element, translation, label: overlayLabel(element, translation.language) })
    }
    if (!this.surface) {
      if (overlays.length === 0 && !this.badge && this.translations.size === 0) return
      this.surface = createSurface(this.options.document, { onAction: this.act, onChange: this.onChange })
    }
    this.surface.render({ overlays, showing: this.showing, badge: this.badge })
  }
}
