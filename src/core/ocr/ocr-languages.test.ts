import { describe, expect, it } from "vitest"

import {
  isVerticalTextPack,
  KNOWN_OCR_LANGUAGES,
  languagesForScript,
  OCR_LANGUAGE_CODE_PATTERN,
  SCRIPT_DETECTION_PACK,
  withoutSpacesBetweenCjk,
  writtenWithoutSpaces
} from "./ocr-languages"

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

describe("the names of tesseract's languages", () => {
  const codes = KNOWN_OCR_LANGUAGES.map((language) => language.code)

  it("names every language tessdata has a model for, once each, and nothing that is not a language", () => {
    // The language models of Debian's tesseract-ocr-all (tessdata_fast 4.1.0), and deu_latf of later tessdata.
    const tessdata =
      "afr amh ara asm aze aze_cyrl bel ben bod bos bre bul cat ceb ces chi_sim chi_tra chr cos cym dan deu deu_latf div dzo ell eng enm epo est eus fao fas fil fin fra frk frm fry gla gle glg grc guj hat heb hin hrv hun hye iku ind isl ita ita_old jav jpn kan kat kat_old kaz khm kir kmr kor lao lat lav lit ltz mal mar mkd mlt mon mri msa mya nep nld nor oci ori pan pol por pus que ron rus san sin slk slv snd spa spa_old sqi srp srp_latn sun swa swe syr tam tat tel tgk tha tir ton tur uig ukr urd uzb uzb_cyrl vie yid yor"
    expect([...codes].sort()).toEqual(tessdata.split(" ").sort())
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(code).toMatch(OCR_LANGUAGE_CODE_PATTERN)
    expect(codes.filter((code) => isVerticalTextPack(code) || code === SCRIPT_DETECTION_PACK || code === "equ")).toEqual([])
  })

  it("writes each language's own name in its script, and its English name in English", () => {
    // Unicode's script of the letters of each script name used (tesseract's script names).
    const letters: Record<string, RegExp> = { Japanese: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u }
    for (const { code, name, nativeName, script } of KNOWN_OCR_LANGUAGES) {
      const ofScript = letters[script] ?? new RegExp(`\\p{Script=${script}}`, "u")
      expect(nativeName, code).toMatch(ofScript)
      expect(nativeName.trim(), code).toBe(nativeName)
      expect(name, code).toMatch(/^[A-Z][A-Za-zā ()',-]+$/)
    }
  })

  it("puts the main language of each script first, the one a detected script is read in when none was chosen", () => {
    const firstOf = (script: string) => KNOWN_OCR_LANGUAGES.find((language) => language.script === script)?.code
    expect([firstOf("Latin"), firstOf("Cyrillic"), firstOf("Arabic"), firstOf("Devanagari"), firstOf("Bengali"), firstOf("Greek"), firstOf("Hebrew")]).toEqual(["eng", "rus", "ara", "hin", "ben", "ell", "heb"])
    expect(languagesForScript("Georgian", ["eng"], codes)).toEqual(["kat"])
    expect(languagesForScript("Canadian_Aboriginal", ["eng"], codes)).toEqual(["iku"])
  })
})
