/**
 * Translation by the browser's own Translator, with the text's language from its Language Detector (or the OCR's
 * language when the browser has no detector). Lines are translated one by one in order, so that each translated line
 * is laid over its own line, on the panel's image and on the page alike.
 */
import { TRANSLATE_LANGUAGES } from "~core/analysis/translate"
import { KNOWN_OCR_LANGUAGES } from "~core/ocr/ocr-language-names"
import { BUNDLED_OCR_LANGUAGE } from "~core/ocr/ocr-languages"

import { detectorAvailability, languageDetectorApi, translatorApi, translatorAvailability, translatorLanguage } from "./built-in-ai"
import { DeviceEngineError } from "./device-errors"
import type { ModelAvailability } from "./engine-choice"

/**
 * The language of text read with these OCR languages, as a hint for a browser without a language detector: only when
 * one language was chosen (English and German together could be either), found by its English name among the
 * languages we translate. Not the bundled English model, the default that reads every Latin-script text: it says
 * nothing of the text's language.
 */
export function ocrSourceHint(ocrLanguages: readonly string[]): string | undefined {
  if (ocrLanguages.length !== 1 || ocrLanguages[0] === BUNDLED_OCR_LANGUAGE) return undefined
  const name = KNOWN_OCR_LANGUAGES.find((language) => language.code === ocrLanguages[0])?.name
  return TRANSLATE_LANGUAGES.find((language) => language.name === name)?.code
}

/** Below this the detector's guess is not trusted: the pair is then unknown and the device does not translate. */
const MIN_DETECTION_CONFIDENCE = 0.5

let detector: Promise<LanguageDetector> | null = null
const translators = new Map<string, Promise<Translator>>()

/** The language of a text, as the Translator names languages, and whether the detector found it (else the hint said it). */
export async function sourceLanguageOf(text: string, hint?: string): Promise<{ language: string; detected: boolean } | null> {
  if ((await detectorAvailability()) === "available") {
    const api = languageDetectorApi()!
    detector ??= api.create()
    detector.catch(() => (detector = null))
    const [best] = await (await detector).detect(text).catch(() => [])
    if (best?.detectedLanguage && best.detectedLanguage !== "und" && (best.confidence ?? 0) >= MIN_DETECTION_CONFIDENCE) return { language: translatorLanguage(best.detectedLanguage), detected: true }
  }
  return hint ? { language: translatorLanguage(hint), detected: false } : null
}

export interface DevicePair {
  sourceLanguage: string
  targetLanguage: string
}

/** The pair the device would translate, and whether the browser can translate it now. */
export async function devicePairFor(text: string, targetLanguage: string, sourceHint?: string): Promise<{ pair: DevicePair | null; availability: ModelAvailability; reason?: string }> {
  if (!translatorApi()) return { pair: null, availability: "absent" }
  const source = await sourceLanguageOf(text, sourceHint)
  if (!source) return { pair: null, availability: "unavailable", reason: "the browser cannot tell which language the text is in" }
  const pair = { sourceLanguage: source.language, targetLanguage: translatorLanguage(targetLanguage) }
  // Detected in the language asked for: nothing to translate, and nothing to download. A hint is not that sure.
  if (source.detected && pair.sourceLanguage === pair.targetLanguage) return { pair, availability: "available" }
  return { pair, availability: await translatorAvailability(pair.sourceLanguage, pair.targetLanguage) }
}

function translatorFor(pair: DevicePair): Promise<Translator> {
  const key = `${pair.sourceLanguage}>${pair.targetLanguage}`
  let made = translators.get(key)
  if (!made) {
    made = translatorApi()!.create(pair)
    made.catch(() => translators.delete(key))
    translators.set(key, made)
  }
  return made
}

/** Each line translated in order, at its index; a pair of one language gives the lines as they are. */
export async function translateLinesOnDevice(lines: readonly string[], pair: DevicePair, signal?: AbortSignal): Promise<string[]> {
  if (pair.sourceLanguage === pair.targetLanguage) return [...lines]
  try {
    const translator = await translatorFor(pair)
    const translated: string[] = []
    for (const line of lines) translated.push(line.trim() ? await translator.translate(line, { signal }) : line)
    return translated
  } catch (error) {
    throw DeviceEngineError.from(error, "translation")
  }
}

if (typeof addEventListener === "function") {
  addEventListener("pagehide", () => {
    for (const made of translators.values()) void made.then((translator) => translator.destroy()).catch(() => {})
    void detector?.then((made) => made.destroy()).catch(() => {})
  })
}
