/**
 * Translate images on this page across the panel's tabs: one TabTranslation per tab where the mode was used, the one
 * the panel shows reading (the others wait), into the chosen language. It follows what the panel shows (scans, loads,
 * another site in the tab), turns the mode on by itself on a site of *Always translate images on this site* (unless
 * the person turned it off on that page), and acts on the entry points' requests and the badge's actions. A change
 * of language translates again what was on. Outside React, like Find in images' reader, so it is tested alone.
 */
import type { PageTranslationActionKind } from "~extension/messaging/page-translation-messages"

import type { ReadTarget } from "../find/read-loop"
import { siteOrigin } from "./settings"
import { OFF_VIEW, TabTranslation, type TabTranslationParts, type TabTranslationView } from "./tab-translation"

/** What the panel shows: the tab, its page and the images it lists by default. */
export interface ShownPage {
  tabId: number
  pageUrl?: string
  targets: readonly ReadTarget[]
}

interface Entry {
  translation: TabTranslation
  targets: readonly ReadTarget[]
  /** The site the mode is of; undefined until the panel shows the tab (the popup may ask for another tab). */
  origin: string | null | undefined
  /** The person turned the mode off on this page: *Always translate* does not turn it on again before a new page. */
  declined: boolean
  stopListening: () => void
}

export type PartsFor = (tabId: number, language: string, targets: () => readonly ReadTarget[]) => TabTranslationParts

export class PageTranslations {
  private readonly entries = new Map<number, Entry>()
  private shown: ShownPage | null = null
  private language: string
  private alwaysOrigins: readonly string[] = []
  private readonly listeners = new Set<() => void>()

  constructor(
    private readonly partsFor: PartsFor,
    language: string
  ) {
    this.language = language
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The mode of a tab (off where it was never used). */
  viewOf = (tabId: number | undefined): TabTranslationView => (tabId === undefined ? OFF_VIEW : (this.entries.get(tabId)?.translation.snapshot() ?? OFF_VIEW))

  /** Tabs where the mode is on. */
  tabsOn(): number[] {
    return [...this.entries].filter(([, entry]) => entry.translation.snapshot().on).map(([tabId]) => tabId)
  }

  /** The language changed: what was on is translated again into it (the earlier translations stay kept). */
  setLanguage(language: string): void {
    if (language === this.language) return
    this.language = language
    for (const [tabId, entry] of [...this.entries]) {
      const wasOn = entry.translation.snapshot().on
      this.remove(tabId)
      if (wasOn) this.entry(tabId).translation.turnOn()
    }
    this.notify()
  }

  setAlwaysOrigins(origins: readonly string[]): void {
    this.alwaysOrigins = origins
    this.applyAlways()
  }

  /** The panel shows this page now (a scan), or none. */
  pageShown(page: ShownPage | null): void {
    this.shown = page
    const origin = siteOrigin(page?.pageUrl)
    for (const [tabId, entry] of this.entries) {
      if (tabId !== page?.tabId) {
        entry.translation.setActive(false)
        continue
      }
      // Another site in the tab: the mode was the former site's.
      if (entry.origin !== undefined && entry.origin !== origin) {
        entry.translation.turnOff()
        entry.declined = false
      }
      entry.origin = origin
      entry.targets = page.targets
      entry.translation.setActive(true)
      entry.translation.refresh()
    }
    this.applyAlways()
  }

  /** The tab finished loading a page: the page translation script is gone from it, and *Always translate* applies again. */
  pageLoaded(tabId: number): void {
    const entry = this.entries.get(tabId)
    if (!entry) return
    entry.declined = false
    entry.translation.pageChanged()
  }

  tabClosed(tabId: number): void {
    this.remove(tabId)
    this.notify()
  }

  /** The command (button, popup, menu, keyboard): on; then the originals and back. */
  toggle(tabId: number): void {
    const { translation } = this.entry(tabId)
    if (!translation.snapshot().on) this.turnOn(tabId)
    else translation.toggle()
  }

  /** On, the translations shown (the popup's button). */
  turnOn(tabId: number): void {
    const entry = this.entry(tabId)
    entry.declined = false
    entry.translation.turnOn()
    entry.translation.setShowing(true)
  }

  turnOff(tabId: number): void {
    const entry = this.entries.get(tabId)
    if (!entry) return
    entry.declined = true
    entry.translation.turnOff()
  }

  stop = (tabId: number) => this.entries.get(tabId)?.translation.stop()
  resume = (tabId: number) => this.entries.get(tabId)?.translation.resume()

  /** What the person chose on the page's badge. */
  action(tabId: number, action: PageTranslationActionKind): void {
    const translation = this.entries.get(tabId)?.translation
    if (!translation?.snapshot().on) return
    if (action === "stop") translation.stop()
    else translation.setShowing(action === "show-translations")
  }

  private applyAlways(): void {
    const page = this.shown
    const origin = siteOrigin(page?.pageUrl)
    if (!page || origin === null || !this.alwaysOrigins.includes(origin)) return
    const entry = this.entries.get(page.tabId)
    if (entry?.declined || entry?.translation.snapshot().on) return
    this.entry(page.tabId).translation.turnOn()
  }

  private entry(tabId: number): Entry {
    const existing = this.entries.get(tabId)
    if (existing) return existing
    const shownHere = this.shown?.tabId === tabId ? this.shown : null
    const entry = { targets: shownHere?.targets ?? [], origin: shownHere ? siteOrigin(shownHere.pageUrl) : undefined, declined: false } as Entry
    entry.translation = new TabTranslation(this.partsFor(tabId, this.language, () => entry.targets))
    entry.stopListening = entry.translation.subscribe(() => this.notify())
    this.entries.set(tabId, entry)
    entry.translation.setActive(shownHere !== null)
    return entry
  }

  private remove(tabId: number): void {
    const entry = this.entries.get(tabId)
    if (!entry) return
    entry.translation.turnOff()
    entry.stopListening()
    entry.translation.dispose()
    this.entries.delete(tabId)
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }
}
