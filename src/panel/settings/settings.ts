/** The side panel's Settings: default analysis, the AI engines, vision model, face options; kept in chrome.storage.local. */
import * as z from "zod"

import { BUNDLED_OCR_LANGUAGE, ocrLanguageCodeSchema } from "~core/ocr/ocr-languages"
import { VQA_MODELS } from "~core/analysis/vqa"
import { storageItem } from "~extension/storage/storage-item"

import { ENGINE_CHOICES } from "../ai/engine-choice"
import { choicesOf } from "./choices"

/** The analyses the panel offers, in the order shown, and their names. */
export const ANALYSIS_LABELS = { text: "Text (OCR)", faces: "Faces", objects: "Objects", scene: "Scene", ask: "Ask" }
export const ANALYSIS_KINDS = choicesOf(ANALYSIS_LABELS)
export type AnalysisKind = (typeof ANALYSIS_KINDS)[number]

/** What runs when an image arrives from the on-image button or the "Analyse image" menu. */
export type DefaultAnalysis = AnalysisKind | "none"

/** Languages read at once: each one more slows recognition and adds a model to memory. */
export const MAX_OCR_LANGUAGES = 3

/**
 * 2: the accurate face detector ("ssd") became the default. Since the fast one was removed (issue 47) there is no
 * detector to choose: a stored `faceDetector` ("tiny" or "ssd", from any version) is dropped when read (zod's object
 * strips keys it does not know), and faces run with the one detector.
 */
export const PANEL_SETTINGS_VERSION = 2

/** Stored settings brought to the current version; anything not an object reads as nothing stored. */
export function migratePanelSettings(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null) return {}
  return raw as Record<string, unknown>
}

const panelSettingsSchema = z.object({
  version: z.literal(PANEL_SETTINGS_VERSION).catch(PANEL_SETTINGS_VERSION),
  defaultAnalysis: z.enum([...ANALYSIS_KINDS, "none"]).catch("text"),
  model: z.enum(VQA_MODELS).catch(VQA_MODELS[0]),
  /** Age, gender and expression with each face (three more models to load). */
  faceAttributes: z.boolean().catch(false),
  /** The Text (OCR) languages: the last choice made in the Text view, also set in Settings. */
  ocrLanguages: z
    .array(ocrLanguageCodeSchema)
    .min(1)
    .max(MAX_OCR_LANGUAGES)
    .transform((codes) => [...new Set(codes)])
    .catch([BUNDLED_OCR_LANGUAGE]),
  /** Tell the script (and how the text is turned) first, and read in a language of that script. */
  ocrDetectLanguage: z.boolean().catch(false),
  /** Show the text as laid out on the image (table columns kept) rather than as running lines. */
  ocrKeepLayout: z.boolean().catch(false),
  /** Who answers questions (Ask, Scene, Chat): the browser's own model, our service, or the device when it can. */
  questionsEngine: z.enum(ENGINE_CHOICES).catch("auto"),
  /** Who translates, the same three ways. */
  translationEngine: z.enum(ENGINE_CHOICES).catch("auto")
})

export type PanelSettings = z.infer<typeof panelSettingsSchema>

export const DEFAULT_PANEL_SETTINGS: PanelSettings = panelSettingsSchema.parse({})

/** Stored settings, each field checked: anything unknown or missing falls back to its default. */
export const panelSettingsItem = storageItem<PanelSettings>({
  key: "panelSettings",
  schema: z.preprocess(migratePanelSettings, panelSettingsSchema),
  fallback: DEFAULT_PANEL_SETTINGS
})
