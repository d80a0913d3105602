/**
 * Translation of recognised text through our API (POST /api/analyze/translate): the languages offered, the request
 * and answer shapes, the length limit. Shared by the server and the side panel.
 */
import * as z from "zod"

import { vqaUsageSchema } from "./vqa"

/** Longest text translated in one request, counted as the trimmed text's length (for lines: all lines together). */
export const MAX_TRANSLATE_TEXT_LENGTH = 5000
/** Most lines one request translates: an image's text lines, each translated in its place. */
export const MAX_TRANSLATE_LINES = 200

export interface TranslateLanguage {
  /** BCP 47: the primary subtag, with the script for Chinese ("zh-Hans", "zh-Hant"). */
  code: string
  /** In English: what the model is told to translate into. */
  name: string
  nativeName: string
}

export const TRANSLATE_LANGUAGES: readonly TranslateLanguage[] = [
  { code: "en", name: "English", nativeName: "English" },
  { code: "zh-Hans", name: "Chinese (Simplified)", nativeName: "简体中文" },
  { code: "zh-Hant", name: "Chinese (Traditional)", nativeName: "繁體中文" },
  { code: "es", name: "Spanish", nativeName: "Español" },
  { code: "fr", name: "French", nativeName: "Français" },
  { code: "de", name: "German", nativeName: "Deutsch" },
  { code: "it", name: "Italian", nativeName: "Italiano" },
  { code: "pt", name: "Portuguese", nativeName: "Português" },
  { code: "nl", name: "Dutch", nativeName: "Nederlands" },
  { code: "ru", name: "Russian", nativeName: "Русский" },
  { code: "uk", name: "Ukrainian", nativeName: "Українська" },
  { code: "pl", name: "Polish", nativeName: "Polski" },
  { code: "cs", name: "Czech", nativeName: "Čeština" },
  { code: "sk", name: "Slovak", nativeName: "Slovenčina" },
  { code: "hu", name: "Hungarian", nativeName: "Magyar" },
  { code: "ro", name: "Romanian", nativeName: "Română" },
  { code: "bg", name: "Bulgarian", nativeName: "Български" },
  { code: "hr", name: "Croatian", nativeName: "Hrvatski" },
  { code: "sr", name: "Serbian", nativeName: "Српски" },
  { code: "el", name: "Greek", nativeName: "Ελληνικά" },
  { code: "sv", name: "Swedish", nativeName: "Svenska" },
  { code: "da", name: "Danish", nativeName: "Dansk" },
  { code: "nb", name: "Norwegian (Bokmål)", nativeName: "Norsk bokmål" },
  { code: "fi", name: "Finnish", nativeName: "Suomi" },
  { code: "tr", name: "Turkish", nativeName: "Türkçe" },
  { code: "ar", name: "Arabic", nativeName: "العربية" },
  { code: "he", name: "Hebrew", nativeName: "עברית" },
  { code: "fa", name: "Persian", nativeName: "فارسی" },
  { code: "ur", name: "Urdu", nativeName: "اردو" },
  { code: "hi", name: "Hindi", nativeName: "हिन्दी" },
  { code: "bn", name: "Bengali", nativeName: "বাংলা" },
  { code: "mr", name: "Marathi", nativeName: "मराठी" },
  { code: "ta", name: "Tamil", nativeName: "தமிழ்" },
  { code: "te", name: "Telugu", nativeName: "తెలుగు" },
  { code: "th", name: "Thai", nativeName: "ไทย" },
  { code: "vi", name: "Vietnamese", nativeName: "Tiếng Việt" },
  { code: "id", name: "Indonesian", nativeName: "Bahasa Indonesia" },
  { code: "ms", name: "Malay", nativeName: "Bahasa Melayu" },
  { code: "fil", name: "Filipino", nativeName: "Filipino" },
  { code: "ja", name: "Japanese", nativeName: "日本語" },
  { code: "ko", name: "Korean", nativeName: "한국어" },
  { code: "sw", name: "Swahili", nativeName: "Kiswahili" }
]

/**
 * Browsers name Chinese by region ("zh-CN", "zh-TW"), not by script: each region's usual script, so that the
 * browser's own language works as the default target.
 */
const CHINESE_SCRIPT_BY_REGION: Readonly<Record<string, string>> = {
  cn: "zh-Hans",
  sg: "zh-Hans",
  my: "zh-Hans",
  tw: "zh-Hant",
  hk: "zh-Hant",
  mo: "zh-Hant"
}

/** A region subtag: two letters or three digits ("419", Latin America). */
const REGION_SUBTAG = /^(?:[a-z]{2}|\d{3})$/

/**
 * The listed language a BCP 47 tag names: a listed code, or one followed by a region ("pt-BR", "zh-Hant-HK"), in any
 * case; for Chinese also a region alone. Anything else (another language, a script or variant we do not list,
 * underscores) is unknown.
 */
export function translateLanguage(tag: string): TranslateLanguage | undefined {
  const lowered = tag.toLowerCase()
  const exact = TRANSLATE_LANGUAGES.find((language) => language.code.toLowerCase() === lowered)
  if (exact) return exact
  const cut = lowered.lastIndexOf("-")
  if (cut < 0) return undefined
  const [base, region] = [lowered.slice(0, cut), lowered.slice(cut + 1)]
  if (!REGION_SUBTAG.test(region)) return undefined
  const code = base === "zh" ? CHINESE_SCRIPT_BY_REGION[region] : base
  return TRANSLATE_LANGUAGES.find((language) => language.code.toLowerCase() === code?.toLowerCase())
}

/** Longest language tag read; real ones are far shorter. */
const MAX_LANGUAGE_TAG_LENGTH = 35

/** A language tag, read as the listed language it names. */
const translateLanguageCodeSchema = z
  .string({ message: "must be a language code such as \"en\" or \"pt-BR\"" })
  .trim()
  .max(MAX_LANGUAGE_TAG_LENGTH, `must be at most ${MAX_LANGUAGE_TAG_LENGTH} characters`)
  .transform((tag, context) => {
    const language = translateLanguage(tag)
    if (language) return language
    context.addIssue({ code: "custom", message: `Unknown language ${JSON.stringify(tag)}. Use one of: ${TRANSLATE_LANGUAGES.map((known) => known.code).join(", ")}.` })
    return z.NEVER
  })

const translateTextSchema = z
  .string({ message: "A text to translate is required" })
  .trim()
  .min(1, "A text to translate is required")
  .max(MAX_TRANSLATE_TEXT_LENGTH, `The text must be at most ${MAX_TRANSLATE_TEXT_LENGTH} characters`)

/**
 * The lines of an image's text, in reading order: each comes back translated at the same index, so that it can be
 * laid over its own line on the image.
 */
export const translateLinesSchema = z
  .array(z.string({ message: "Each line must be a text" }).trim().min(1, "A line to translate must not be empty"), { message: "lines must be a list of texts" })
  .min(1, "At least one line to translate is required")
  .max(MAX_TRANSLATE_LINES, `At most ${MAX_TRANSLATE_LINES} lines are translated at once`)
  .refine((lines) => lines.reduce((total, line) => total + line.length, 0) <= MAX_TRANSLATE_TEXT_LENGTH, `The lines must be at most ${MAX_TRANSLATE_TEXT_LENGTH} characters together`)

/** A text, or an image's lines (exactly one of the two), into a listed language. */
export const translateRequestSchema = z
  .strictObject({
    text: translateTextSchema.optional(),
    lines: translateLinesSchema.optional(),
    targetLanguage: translateLanguageCodeSchema,
    /** The text's language when the caller knows it; the model recognises it otherwise. */
    sourceLanguage: translateLanguageCodeSchema.optional()
  })
  .superRefine((request, context) => {
    if ((request.text === undefined) === (request.lines === undefined)) {
      context.addIssue({ code: "custom", path: request.text === undefined ? ["text"] : ["lines"], message: request.text === undefined ? "A text to translate is required" : "Send a text or lines, not both" })
    }
  })

export type TranslateRequest = z.input<typeof translateRequestSchema>

/** POST /api/analyze/translate; usage is the same report as a question's. */
export const translateAnswerSchema = z.object({
  /** For lines: the translated lines joined with line breaks. */
  translation: z.string(),
  /** The translated lines, one for each line sent, in their order; only when lines were sent. */
  lines: z.array(z.string()).optional(),
  /** The listed code the request's tag named. */
  targetLanguage: z.string(),
  sourceLanguage: z.string().nullable(),
  usage: vqaUsageSchema
})

export type TranslateAnswer = z.infer<typeof translateAnswerSchema>

/**
 * Most lines of one POST /api/analyze/translate-images, all images together: the lines of several images of a page go
 * to the model in one request while they fit.
 */
export const MAX_TRANSLATE_BATCH_LINES = 50

const countLines = (images: readonly { lines: readonly string[] }[]) => images.reduce((total, image) => total + image.lines.length, 0)
const countCharacters = (images: readonly { lines: readonly string[] }[]) =>
  images.reduce((total, image) => image.lines.reduce((sum, line) => sum + line.length, total), 0)

/** Several images' lines, each image's in reading order, into one listed language. */
export const translateImagesRequestSchema = z.strictObject({
  images: z
    .array(z.strictObject({ lines: translateLinesSchema }, { message: "Each image must be an object with its lines" }), { message: "images must be a list of images, each with its lines" })
    .min(1, "At least one image to translate is required")
    // Each image has a line at least: more images than lines cannot pass, and are refused before their lines are counted.
    .max(MAX_TRANSLATE_BATCH_LINES, `At most ${MAX_TRANSLATE_BATCH_LINES} images are translated at once`)
    .refine((images) => countLines(images) <= MAX_TRANSLATE_BATCH_LINES, `At most ${MAX_TRANSLATE_BATCH_LINES} lines are translated at once, all images together`)
    .refine((images) => countCharacters(images) <= MAX_TRANSLATE_TEXT_LENGTH, `The lines must be at most ${MAX_TRANSLATE_TEXT_LENGTH} characters together, all images together`),
  targetLanguage: translateLanguageCodeSchema,
  sourceLanguage: translateLanguageCodeSchema.optional()
})

export type TranslateImagesRequest = z.input<typeof translateImagesRequestSchema>

/**
 * POST /api/analyze/translate-images: each image's translated lines at its index, or null for an image the quota had
 * no room for (quotaExceeded then says why, as the refusal QUOTA_EXCEEDED would); usage counts the images translated.
 */
export const translateImagesAnswerSchema = z.object({
  images: z.array(z.object({ lines: z.array(z.string()) }).nullable()),
  targetLanguage: z.string(),
  sourceLanguage: z.string().nullable(),
  usage: vqaUsageSchema,
  quotaExceeded: z.object({ message: z.string(), retryAfter: z.number().int() }).optional()
})

export type TranslateImagesAnswer = z.infer<typeof translateImagesAnswerSchema>
