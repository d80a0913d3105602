import { describe, expect, it } from "vitest"

import { TRANSLATE_LANGUAGES, translateLanguage } from "./translate"

describe("translation languages", () => {
  it("lists about forty languages, each code once, with names in English and in their own script", () => {
    expect(TRANSLATE_LANGUAGES.length).toBeGreaterThanOrEqual(40)
    expect(new Set(TRANSLATE_LANGUAGES.map((language) => language.code.toLowerCase())).size).toBe(TRANSLATE_LANGUAGES.length)
    for (const language of TRANSLATE_LANGUAGES) {
      expect(language.code).toMatch(/^(?:[a-z]{2,3}|zh-Han[st])$/)
      expect(language.name && language.nativeName).toBeTruthy()
    }
  })

  it("reads a listed code or one with a region, in any case, and Chinese by its region's script", () => {
    const read = (tag: string) => translateLanguage(tag)?.code
    expect(["en", "EN", "en-US", "en-gb", "en-001"].map(read)).toEqual(["en", "en", "en", "en", "en"])
    expect(["pt-BR", "es-419", "zh-hans", "zh-Hant-HK"].map(read)).toEqual(["pt", "es", "zh-Hans", "zh-Hant"])
    expect(["zh-CN", "zh-SG", "zh-TW", "zh-HK", "zh-MO"].map(read)).toEqual(["zh-Hans", "zh-Hans", "zh-Hant", "zh-Hant", "zh-Hant"])
  })

  it("knows nothing else", () => {
    for (const tag of ["", "zh", "zh-FR", "xx", "xx-US", "en_US", "en-", "en-Latn", "sr-Latn", "en-US-posix", "English", "-en"]) {
      expect(translateLanguage(tag), tag).toBeUndefined()
    }
  })
})
