import { describe, expect, it, vi } from "vitest"

import { DAY_MS } from "~core/time"

import { CACHE_MAX_AGE_MS, CACHE_MAX_BYTES, cacheKey, entrySize, forgetTranslations, isFresh, keepTranslation, keptTranslation, keysToEvict, type CacheEntryInfo } from "./device-cache"

const NOW = 1_800_000_000_000
const entry = (key: string, size: number, ageDays: number, usedDaysAgo = ageDays): CacheEntryInfo => ({ key, size, savedAt: NOW - ageDays * DAY_MS, usedAt: NOW - usedDaysAgo * DAY_MS })

describe("the translations kept on the device", () => {
  it("keeps one translation per image address and language", () => {
    expect(cacheKey("https://a.example/1.png", "fr")).not.toBe(cacheKey("https://a.example/1.png", "de"))
    expect(cacheKey("https://a.example/1.png", "fr")).not.toBe(cacheKey("https://a.example/2.png", "fr"))
    expect(cacheKey("https://a.example/1.png", "fr")).toBe(cacheKey("https://a.example/1.png", "fr"))
  })

  it("keeps a translation 7 days from when it was made, however often it is used", () => {
    expect(CACHE_MAX_AGE_MS).toBe(7 * DAY_MS)
    expect(isFresh(entry("a", 10, 6.9, 0), NOW)).toBe(true)
    expect(isFresh(entry("a", 10, 7, 0), NOW)).toBe(false)
    expect(keysToEvict([entry("old", 10, 8, 0), entry("new", 10, 1)], NOW)).toEqual(["old"])
  })

  it("lets the least recently used go once the whole passes 50 MB", () => {
    expect(CACHE_MAX_BYTES).toBe(50 * 1024 * 1024)
    const mb = 1024 * 1024
    const entries = [entry("used-today", 20 * mb, 3, 0), entry("used-yesterday", 20 * mb, 2, 1), entry("used-2-days-ago", 20 * mb, 2, 2), entry("small-used-3-days-ago", 5 * mb, 4, 3)]
    // 20 + 20 = 40 MB kept; the third would make 60; the small one after it would fit, but is used less recently.
    expect(keysToEvict(entries, NOW)).toEqual(["used-2-days-ago", "small-used-3-days-ago"])
    expect(keysToEvict(entries, NOW, 100 * mb)).toEqual([])
    expect(keysToEvict([], NOW)).toEqual([])
  })

  it("measures a translation by the bytes it takes as stored text", () => {
    expect(entrySize({ text: "é" })).toBe(new TextEncoder().encode(JSON.stringify({ text: "é" })).length)
    expect(entrySize({ text: "é" })).toBe(13)
  })
})

describe("the translations of this panel", () => {
  it("are found again without the device's store, per language, until forgotten", async () => {
    // No IndexedDB here: what the panel made is still found, and the device's store failing costs nothing else.
    vi.spyOn(console, "warn").mockImplementation(() => {})
    const translation = { imageWidth: 10, imageHeight: 10, language: "fr", lines: [] }
    await keepTranslation("https://a.example/1.png", "fr", translation)
    expect(await keptTranslation("https://a.example/1.png", "fr")).toBe(translation)
    expect(await keptTranslation("https://a.example/1.png", "de")).toBeNull()
    await forgetTranslations().catch(() => {})
    expect(await keptTranslation("https://a.example/1.png", "fr")).toBeNull()
  })
})
