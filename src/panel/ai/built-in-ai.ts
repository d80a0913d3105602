/// <reference types="dom-chromium-ai" />
/**
 * The browser's built-in AI as the panel reaches it: Chrome's Prompt API (`LanguageModel`, with image input) and its
 * Translator and Language Detector APIs. Only extension pages (this panel) are offered them, never the service
 * worker. A browser without them (Firefox, an older Chrome) reads as "absent", with the reason said in Settings.
 */
import type { ModelAvailability } from "./engine-choice"

interface BuiltInAi {
  LanguageModel?: typeof LanguageModel
  Translator?: typeof Translator
  LanguageDetector?: typeof LanguageDetector
}

/** Looked up at each use: tests put a stand-in in place before the panel's code runs, the browser may add it later. */
const builtIn = (): BuiltInAi => globalThis as BuiltInAi
export const languageModelApi = () => builtIn().LanguageModel
export const translatorApi = () => builtIn().Translator
export const languageDetectorApi = () => builtIn().LanguageDetector

/** Languages Chrome's model answers in; another browser language gets English answers. */
const MODEL_OUTPUT_LANGUAGES = ["en", "es", "ja"]

/** The person's language, as the model's output language. */
export function answerLanguage(languages: readonly string[] = navigator.languages ?? [navigator.language]): string {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split("-")[0]!
    if (MODEL_OUTPUT_LANGUAGES.includes(primary)) return primary
  }
  return "en"
}

/** The options of `availability()` and `create()`, the same for both: text and an image in, text out. */
export function questionModelOptions(language = answerLanguage()): LanguageModelCreateCoreOptions {
  return {
    expectedInputs: [
      { type: "text", languages: [language] },
      { type: "image" }
    ],
    expectedOutputs: [{ type: "text", languages: [language] }]
  }
}

const isFirefox = () => typeof navigator !== "undefined" && /\bFirefox\//.test(navigator.userAgent)

/** Why the browser has no model, when it has no such API at all. */
export function absentReason(): string {
  return isFirefox() ? "Firefox does not offer a built-in AI model to extensions" : "this browser has no built-in AI model (Chrome 138 or later has one)"
}

/** The reason Chrome gives none for "unavailable": the common causes, said once. */
export const UNAVAILABLE_REASON = "the browser says its model cannot run here (it needs a supported device, enough free disk space, and the feature not turned off by policy)"

/** The Prompt API's state for questions about images. */
export async function questionsAvailability(): Promise<ModelAvailability> {
  const api = languageModelApi()
  if (!api) return "absent"
  return api.availability(questionModelOptions()).catch(() => "unavailable" as const)
}

/** The Translator API's state for one pair of languages. */
export async function translatorAvailability(sourceLanguage: string, targetLanguage: string): Promise<ModelAvailability> {
  const api = translatorApi()
  if (!api) return "absent"
  return api.availability({ sourceLanguage, targetLanguage }).catch(() => "unavailable" as const)
}

/** The Language Detector API's state. */
export async function detectorAvailability(): Promise<ModelAvailability> {
  const api = languageDetectorApi()
  if (!api) return "absent"
  return api.availability().catch(() => "unavailable" as const)
}

/** A language of TRANSLATE_LANGUAGES as the Translator API names it: "zh" is Simplified Chinese, "zh-Hant" kept, "pt-BR" → "pt". */
export function translatorLanguage(tag: string): string {
  if (tag === "zh-Hans" || tag === "zh-CN") return "zh"
  if (tag === "zh-Hant" || tag === "zh-TW") return "zh-Hant"
  return tag.split("-")[0]!.toLowerCase()
}
