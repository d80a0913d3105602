/**
 * Translate images on this page: the messages between the side panel, which reads each image (OCR on the device),
 * has its lines translated and keeps the mode's state, and the page translation script (PAGE_TRANSLATION_FILE),
 * which the panel injects into the tab's frames only while the mode is on and which draws each translation over its
 * image and, in the top frame, the badge ("Translating images: 3 of 12", Stop, Show originals).
 *
 * Panel → frame (chrome.tabs.sendMessage to one frame): SHOW one image's translation, STATE for the badge and for
 * showing translations or originals, CLEAR when the mode goes off. Frame → panel (chrome.runtime.sendMessage from
 * the page translation script, checked by the panel to come from our content script in its tab): ACTION, what the
 * person chose on the badge.
 *
 * Field checks, not zod: the page translation script runs in web pages (~core/protocol explains).
 */
import { defineMessage, type FieldCheck, type MessageOf } from "~core/protocol"

/** The page translation script in the built extension, bundled by scripts/copy-extension-assets.mjs. */
export const PAGE_TRANSLATION_FILE = "page-translation.js"

/** An RGB colour, each channel 0–255. */
export type TranslationRgb = readonly [number, number, number]

/** One line of an image's text, translated, as it is laid over the image. */
export interface TranslatedImageLine {
  /** The line's box in the analysed image's pixels (imageWidth × imageHeight). */
  bbox: { x0: number; y0: number; x1: number; y1: number }
  /** The translation of this line. */
  text: string
  /** Read as a column, top to bottom (Japanese, Traditional Chinese): set vertically. */
  vertical: boolean
  /** The colour sampled around the line, which covers the original letters; and the letters' own colour. */
  background: TranslationRgb
  ink: TranslationRgb
}

/** An image's translation: the space of its boxes, its lines, and the language they are in (the `lang` of the text). */
export interface PageImageTranslation {
  imageWidth: number
  imageHeight: number
  language: string
  lines: TranslatedImageLine[]
}

/** What the badge says. */
export type PageTranslationStatus =
  /** Reading and translating: `done` of `total` images so far. */
  | "translating"
  /** Every image with text is translated; more are translated as they appear while the mode is on. */
  | "done"
  /** The person pressed Stop: what is translated stays, nothing more is read. */
  | "stopped"
  /** The plan's monthly AI requests are used up: the remaining images stay original. `message` says so. */
  | "quota"
  /** Anything else that stops the translation (signed out, offline, the service refused): `message` says it in words. */
  | "error"

const isRgb = (value: unknown): value is TranslationRgb =>
  Array.isArray(value) && value.length === 3 && value.every((channel) => typeof channel === "number" && channel >= 0 && channel <= 255)

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)

const isLine = (value: unknown): value is TranslatedImageLine => {
  if (typeof value !== "object" || value === null) return false
  const line = value as Record<string, unknown>
  const box = line.bbox as Record<string, unknown> | null
  return (
    typeof box === "object" &&
    box !== null &&
    ["x0", "y0", "x1", "y1"].every((key) => isFiniteNumber(box[key])) &&
    typeof line.text === "string" &&
    typeof line.vertical === "boolean" &&
    isRgb(line.background) &&
    isRgb(line.ink)
  )
}

const isTranslation: FieldCheck<PageImageTranslation> = (value): value is PageImageTranslation => {
  if (typeof value !== "object" || value === null) return false
  const translation = value as Record<string, unknown>
  return (
    isFiniteNumber(translation.imageWidth) &&
    translation.imageWidth > 0 &&
    isFiniteNumber(translation.imageHeight) &&
    translation.imageHeight > 0 &&
    typeof translation.language === "string" &&
    Array.isArray(translation.lines) &&
    translation.lines.every(isLine)
  )
}

const isUrl = (value: unknown): value is string => typeof value === "string" && value.length > 0
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0
const isStatus = (value: unknown): value is PageTranslationStatus => ["translating", "done", "stopped", "quota", "error"].includes(value as string)
const isOptionalText = (value: unknown): value is string | undefined => value === undefined || typeof value === "string"

export const PAGE_TRANSLATION_SHOW = "PAGE_TRANSLATION_SHOW"

/**
 * Lay `translation` over the frame's image at `url` (the address the page index lists it by). Answered with
 * PageTranslationShowResponse. A second SHOW of the same image replaces the first.
 */
export const pageTranslationShow = defineMessage(PAGE_TRANSLATION_SHOW, { url: isUrl, translation: isTranslation })
export type PageTranslationShow = MessageOf<typeof pageTranslationShow>

/** shown is false when the frame no longer holds the image. */
export interface PageTranslationShowResponse {
  shown: boolean
}

export const PAGE_TRANSLATION_STATE = "PAGE_TRANSLATION_STATE"

/**
 * The mode's state, sent to every frame at each change: `showing` the translations (true) or the originals (false);
 * the badge (top frame only) says `status` with `done` of `total`, and `message` for "quota" and "error" (with a link
 * to `upgradeUrl` when there is one).
 */
export const pageTranslationState = defineMessage(PAGE_TRANSLATION_STATE, {
  showing: (value): value is boolean => typeof value === "boolean",
  status: isStatus,
  done: isCount,
  total: isCount,
  message: isOptionalText,
  upgradeUrl: isOptionalText
})
export type PageTranslationState = MessageOf<typeof pageTranslationState>

export const PAGE_TRANSLATION_CLEAR = "PAGE_TRANSLATION_CLEAR"

/** The mode is off: remove every overlay and the badge; the page is as it was. */
export const pageTranslationClear = defineMessage(PAGE_TRANSLATION_CLEAR, {})
export type PageTranslationClear = MessageOf<typeof pageTranslationClear>

export const PAGE_TRANSLATION_ACTION = "PAGE_TRANSLATION_ACTION"

/** What the person chose on the badge: Stop, Show originals, Show translations. */
export type PageTranslationActionKind = "stop" | "show-originals" | "show-translations"

export const pageTranslationAction = defineMessage(PAGE_TRANSLATION_ACTION, {
  action: (value): value is PageTranslationActionKind => value === "stop" || value === "show-originals" || value === "show-translations"
})
export type PageTranslationAction = MessageOf<typeof pageTranslationAction>
