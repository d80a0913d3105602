import { describe, expect, it } from "vitest"

import { installFakeChromeForEachTest } from "~extension/browser/fake-chrome.test-support"

import { alwaysTranslates, pageTranslationSettingsItem, siteOrigin, targetLanguageOf, withAlwaysTranslate } from "./settings"

const fakeChrome = installFakeChromeForEachTest()

describe("the settings of translating a page's images", () => {
  it("translates into the browser's language until one is chosen, English when ours is not offered, and remembers the choice", async () => {
    expect(await pageTranslationSettingsItem.get()).toEqual({ alwaysOrigins: [] })
    expect(targetLanguageOf({ alwaysOrigins: [] }, ["pt-BR", "en"])).toBe("pt")
    expect(targetLanguageOf({ alwaysOrigins: [] }, ["zh-TW"])).toBe("zh-Hant")
    expect(targetLanguageOf({ alwaysOrigins: [] }, ["xx-YY"])).toBe("en")
    await pageTranslationSettingsItem.set({ targetLanguage: "ja", alwaysOrigins: [] })
    expect(targetLanguageOf(await pageTranslationSettingsItem.get(), ["pt-BR"])).toBe("ja")
  })

  it("reads a stored value field by field: an unknown language or a bad origin is dropped, not the rest", async () => {
    fakeChrome().storage.local.items.set(pageTranslationSettingsItem.key, {
      targetLanguage: "klingon",
      alwaysOrigins: ["https://manga.example", "javascript:alert(1)", "https://manga.example", "https://news.example/path", 7]
    })
    expect(await pageTranslationSettingsItem.get()).toEqual({ alwaysOrigins: ["https://manga.example"] })
    fakeChrome().storage.local.items.set(pageTranslationSettingsItem.key, "nonsense")
    expect(await pageTranslationSettingsItem.get()).toEqual({ alwaysOrigins: [] })
  })

  it("keeps 'Always translate images on this site' per origin: added once, removed, matched by the page's origin", () => {
    expect(siteOrigin("https://manga.example/chapter/3?page=2")).toBe("https://manga.example")
    expect(siteOrigin("http://localhost:8080/x")).toBe("http://localhost:8080")
    expect(siteOrigin("chrome://extensions")).toBeNull()
    expect(siteOrigin("file:///home/a.html")).toBeNull()
    expect(siteOrigin(undefined)).toBeNull()

    const listed = withAlwaysTranslate(withAlwaysTranslate({ alwaysOrigins: [] }, "https://manga.example", true), "https://manga.example", true)
    expect(listed.alwaysOrigins).toEqual(["https://manga.example"])
    expect(alwaysTranslates(listed, "https://manga.example/chapter/4")).toBe(true)
    expect(alwaysTranslates(listed, "https://other.example/")).toBe(false)
    expect(alwaysTranslates(listed, "http://manga.example/")).toBe(false)
    expect(withAlwaysTranslate(listed, "https://manga.example", false).alwaysOrigins).toEqual([])
  })
})
