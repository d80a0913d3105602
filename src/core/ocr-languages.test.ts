import { describe, expect, it } from "vitest"

import { languagesForScript, withoutSpacesBetweenCjk, writtenWithoutSpaces } from "./ocr-languages"

const OFFERED = ["eng", "fra", "deu", "hin", "ukr", "jpn", "kor", "chi_sim", "chi_tra", "ara"]

describe("the languages a detected script is read in", () => {
  it("keeps the user's languages written in that script", () => {
    expect(languagesForScript("Latin", ["fra", "hin"], OFFERED)).toEqual(["fra"])
    expect(languagesForScript("Latin", ["eng", "deu", "hin"], OFFERED)).toEqual(["eng", "deu"])
  })

  it("otherwise takes the first offered language of the script", () => {
    expect(languagesForScript("Devanagari", ["eng"], OFFERED)).toEqual(["hin"])
    expect(languagesForScript("Latin", ["hin"], OFFERED)).toEqual(["eng"])
    expect(languagesForScript("Han", ["eng"], OFFERED)).toEqual(["chi_sim"])
    // Russian comes first among Cyrillic languages, but this server has no pack for it.
    expect(languagesForScript("Cyrillic", ["eng"], OFFERED)).toEqual(["ukr"])
  })

  it("understands the names tesseract's detection gives Japanese, Korean and Fraktur", () => {
    expect(languagesForScript("Japanese", ["eng"], OFFERED)).toEqual(["jpn"])
    expect(languagesForScript("Katakana", ["eng"], OFFERED)).toEqual(["jpn"])
    expect(languagesForScript("Korean", ["eng"], OFFERED)).toEqual(["kor"])
    expect(languagesForScript("Fraktur", ["deu"], OFFERED)).toEqual(["deu"])
  })

  it("answers null for a script no offered language is written in", () => {
    expect(languagesForScript("Thai", ["eng"], OFFERED)).toBeNull()
    expect(languagesForScript("Bengali", ["eng"], OFFERED)).toBeNull()
  })
})

describe("text in scripts written without spaces", () => {
  it("knows Chinese and Japanese (and their vertical models) from spaced languages", () => {
    expect(["chi_sim", "chi_tra", "jpn", "jpn_vert", "chi_tra_vert"].every(writtenWithoutSpaces)).toBe(true)
    expect(["eng", "kor", "hin", "kor_vert", "ara"].some(writtenWithoutSpaces)).toBe(false)
  })

  it("drops the spaces tesseract guesses between Chinese or Japanese characters, and no other", () => {
    expect(withoutSpacesBetweenCjk("日 本語の 文章を 読み ま す 。")).toBe("日本語の文章を読みます。")
    expect(withoutSpacesBetweenCjk("東京 Tokyo 2024 年 は")).toBe("東京 Tokyo 2024 年は")
    expect(withoutSpacesBetweenCjk("한국어 문장")).toBe("한국어 문장")
  })
})
