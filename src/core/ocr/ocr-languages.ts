/**
 * The OCR languages the product knows: tesseract's code, the name in English and in the language's own script,
 * and the writing system. English ships inside the extension; the others are language packs from our own server
 * (GET /api/ocr/languages). Shared by the server's catalogue and the side panel's language picker.
 */
import * as z from "zod"

import { KNOWN_OCR_LANGUAGES, type OcrLanguageInfo } from "./ocr-language-names"

export { KNOWN_OCR_LANGUAGES, type OcrLanguageInfo }

/** The language inside the extension: OCR works with no server at all. */
export const BUNDLED_OCR_LANGUAGE = "eng"

/** tesseract's orientation and script detection pack (not a language: it tells the script of a page). */
export const SCRIPT_DETECTION_PACK = "osd"

/**
 * tesseract's models for text set in columns top to bottom, by the language they go with: read together with it
 * (as "jpn+jpn_vert"), so the page's horizontal and vertical text are both read. Not languages of their own.
 */
export const VERTICAL_TEXT_PACKS: Readonly<Record<string, string>> = { jpn: "jpn_vert", chi_sim: "chi_sim_vert", chi_tra: "chi_tra_vert", kor: "kor_vert" }

/** The language a vertical-text pack reads ("jpn_vert" → "jpn"), undefined for any other code. */
export const languageOfVerticalPack = (code: string): string | undefined => Object.entries(VERTICAL_TEXT_PACKS).find(([, vertical]) => vertical === code)?.[0]

export const isVerticalTextPack = (code: string) => languageOfVerticalPack(code) !== undefined

/** Scripts written without spaces between words: tesseract must not put its guessed word gaps into the text. */
const UNSPACED_SCRIPTS = new Set(["Han", "Japanese"])

export function writtenWithoutSpaces(code: string): boolean {
  const base = languageOfVerticalPack(code) ?? code
  return UNSPACED_SCRIPTS.has(knownOcrLanguage(base)?.script ?? "")
}

const BETWEEN_CJK_CHARACTERS = /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。]) +(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。])/gu

/**
 * The text without the spaces tesseract guesses between Chinese or Japanese characters (it still puts some when
 * read with a language written with spaces, even with preserve_interword_spaces).
 */
export const withoutSpacesBetweenCjk = (text: string) => text.replace(BETWEEN_CJK_CHARACTERS, "")

/** tesseract codes: three letters, optionally a variant and a vertical model ("chi_sim", "chi_tra_vert"). Anything else is never a file name of ours. */
export const OCR_LANGUAGE_CODE_PATTERN = /^[a-z]{3}(?:_[a-z]{3,8}){0,2}$/

export const ocrLanguageCodeSchema = z.string().regex(OCR_LANGUAGE_CODE_PATTERN, "must be a tesseract language code such as eng or chi_sim")

export function knownOcrLanguage(code: string): OcrLanguageInfo | undefined {
  return KNOWN_OCR_LANGUAGES.find((language) => language.code === code)
}

/** One language pack the server offers: what the picker shows and what the download must hash to. */
export const ocrLanguagePackSchema = z.object({
  code: ocrLanguageCodeSchema,
  name: z.string(),
  nativeName: z.string(),
  script: z.string(),
  /** Bytes of the .traineddata.gz download. */
  size: z.number().int().positive(),
  /** Hex SHA-256 of the .traineddata.gz download. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/)
})
export type OcrLanguagePack = z.infer<typeof ocrLanguagePackSchema>

/**
 * GET /api/ocr/languages: the recognisable languages, the script-detection pack when the server has it, and the
 * vertical-text packs it has for some of the languages (see VERTICAL_TEXT_PACKS).
 */
export const ocrLanguageListSchema = z.object({
  languages: z.array(ocrLanguagePackSchema),
  scriptDetection: ocrLanguagePackSchema.nullable(),
  // A server from before vertical text sends none.
  verticalText: z.array(ocrLanguagePackSchema).default([])
})
export type OcrLanguageList = z.infer<typeof ocrLanguageListSchema>

/** Names tesseract's script detection gives that our list calls otherwise (it merges kana and Han into Japanese). */
const DETECTED_SCRIPT_ALIASES: Record<string, string> = { Korean: "Hangul", Hiragana: "Japanese", Katakana: "Japanese", Fraktur: "Latin" }

/**
 * The languages to read a page in once its script is known: those of the user's choice written in it, else
 * the first offered language of that script (English for Latin). null when none is offered.
 */
export function languagesForScript(script: string, chosen: readonly string[], offered: readonly string[]): string[] | null {
  const name = DETECTED_SCRIPT_ALIASES[script] ?? script
  const candidates = KNOWN_OCR_LANGUAGES.filter((language) => language.script === name && offered.includes(language.code)).map((language) => language.code)
  const preferred = chosen.filter((code) => candidates.includes(code))
  if (preferred.length > 0) return preferred
  return candidates.length > 0 ? [candidates[0]!] : null
}
