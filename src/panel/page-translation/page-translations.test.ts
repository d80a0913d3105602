import { describe, expect, it, vi } from "vitest"

import type { PageImageTranslation } from "~extension/messaging/page-translation-messages"

import type { ReadTarget } from "../find/read-loop"
import { PageTranslations, type PartsFor, type ShownPage } from "./page-translations"
import type { TabTranslationParts } from "./tab-translation"

/** Tabs whose images read and translate at once; what each tab's parts did, by tab. */
function panel(language = "fr") {
  const log: { tabId: number; what: string; url?: string; language?: string }[] = []
  const made = new Map<string, PageImageTranslation>()
  const partsFor: PartsFor = (tabId, partsLanguage, targets) =>
    ({
      targets,
      distances: async () => new Map(),
      kept: async (url) => made.get(`${partsLanguage} ${url}`) ?? null,
      read: async (target: ReadTarget) => {
        log.push({ tabId, what: "read", url: target.url })
        return { url: target.url, imageWidth: 10, imageHeight: 10, lines: [{ text: "EXIT", bbox: { x0: 0, y0: 0, x1: 5, y1: 2 }, vertical: false, background: [255, 255, 255], ink: [0, 0, 0] }] }
      },
      send: async (taken) => {
        log.push({ tabId, what: "send", language: partsLanguage })
        return { targetLanguage: partsLanguage, lines: taken.images.map(() => [`${partsLanguage} EXIT`]) }
      },
      keep: (url, translation) => void made.set(`${partsLanguage} ${url}`, translation),
      prepare: async () => void log.push({ tabId, what: "prepare" }),
      show: (target: ReadTarget) => void log.push({ tabId, what: "show", url: target.url }),
      state: () => {},
      clear: () => void log.push({ tabId, what: "clear" }),
      whenShown: async () => {},
      pageQuiet: async () => {},
      idle: async () => {},
      orderRefreshMs: 60_000,
      signedOutMessage: "Sign in",
      upgradeUrl: () => undefined
    }) satisfies TabTranslationParts
  const translations = new PageTranslations(partsFor, language)
  const page = (tabId: number, pageUrl: string, urls: string[] = ["https://img.example/1.png"]): ShownPage => ({ tabId, pageUrl, targets: urls.map((url) => ({ url, tabId, frameId: 0 })) })
  return { translations, log, page, of: (tabId: number, what: string) => log.filter((entry) => entry.tabId === tabId && entry.what === what) }
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 2 })

describe("translating pages across the panel's tabs", () => {
  it("turns the mode on by itself on a listed site, not again once turned off on that page, and again on its next page", async () => {
    const { translations, page, of } = panel()
    translations.setAlwaysOrigins(["https://manga.example"])
    translations.pageShown(page(1, "https://news.example/"))
    expect(translations.viewOf(1).on).toBe(false)
    translations.pageShown(page(2, "https://manga.example/chapter/1"))
    await until(() => expect(translations.viewOf(2)).toMatchObject({ on: true, status: "done", done: 1, total: 1 }))
    translations.turnOff(2)
    expect(of(2, "clear")).toHaveLength(1)
    // The page announces changes and is scanned again: it stays off.
    translations.pageShown(page(2, "https://manga.example/chapter/1"))
    expect(translations.viewOf(2).on).toBe(false)
    // A reload: on again, and the image translated before is shown without a request.
    translations.pageLoaded(2)
    translations.pageShown(page(2, "https://manga.example/chapter/1"))
    await until(() => expect(of(2, "show")).toHaveLength(2))
    expect(of(2, "send")).toHaveLength(1)
  })

  it("ends the mode when the tab goes to another site", async () => {
    const { translations, page } = panel()
    translations.pageShown(page(1, "https://a.example/"))
    translations.toggle(1)
    await until(() => expect(translations.viewOf(1)).toMatchObject({ on: true, done: 1 }))
    translations.pageShown(page(1, "https://b.example/"))
    expect(translations.viewOf(1).on).toBe(false)
  })

  it("reads only in the tab the panel shows; the other tab's mode waits", async () => {
    const { translations, page, of } = panel()
    translations.pageShown(page(1, "https://a.example/"))
    translations.toggle(1)
    await until(() => expect(of(1, "show")).toHaveLength(1))
    // The popup asks for another tab than the one shown: on at once, reading once the panel shows it.
    translations.turnOn(2)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(of(2, "read")).toEqual([])
    translations.pageShown(page(2, "https://b.example/", ["https://img.example/2.png"]))
    await until(() => expect(of(2, "show")).toHaveLength(1))
  })

  it("toggles from the command: on, originals, translations; the badge's actions act only on a tab where it is on", async () => {
    const { translations, page } = panel()
    translations.action(1, "stop")
    expect(translations.viewOf(1).on).toBe(false)
    translations.pageShown(page(1, "https://a.example/"))
    translations.toggle(1)
    expect(translations.viewOf(1)).toMatchObject({ on: true, showing: true })
    translations.toggle(1)
    expect(translations.viewOf(1)).toMatchObject({ on: true, showing: false })
    translations.action(1, "show-translations")
    expect(translations.viewOf(1)).toMatchObject({ on: true, showing: true })
    translations.action(1, "show-originals")
    expect(translations.viewOf(1)).toMatchObject({ showing: false })
    translations.turnOn(1)
    expect(translations.viewOf(1)).toMatchObject({ showing: true })
    await until(() => expect(translations.viewOf(1).status).toBe("done"))
  })

  it("translates again into another language what was on", async () => {
    const { translations, page, log } = panel("fr")
    translations.pageShown(page(1, "https://a.example/"))
    translations.toggle(1)
    await until(() => expect(translations.viewOf(1)).toMatchObject({ status: "done", done: 1 }))
    const listener = vi.fn()
    translations.subscribe(listener)
    translations.setLanguage("de")
    await until(() => expect(log.filter((entry) => entry.what === "send").map((entry) => entry.language)).toEqual(["fr", "de"]))
    expect(translations.viewOf(1)).toMatchObject({ on: true })
    expect(listener).toHaveBeenCalled()
    expect(translations.tabsOn()).toEqual([1])
    translations.tabClosed(1)
    expect(translations.tabsOn()).toEqual([])
  })
})
