/** The side panel's Settings: default analysis, vision model, face detector options; kept in chrome.storage.local. */
import * as z from "zod"

import { BUNDLED_OCR_LANGUAGE, ocrLanguageCodeSchema } from "~core/ocr-languages"
import { VQA_MODELS } from "~core/vqa"
import { storageItem } from "~extension/storage-item"

export const ANALYSIS_KINDS = ["text", "faces", "objects", "scene", "ask"] as const
export type AnalysisKind = (typeof ANALYSIS_KINDS)[number]

export const ANALYSIS_LABELS: Record<AnalysisKind, string> = {
  text: "Text (OCR)",
  faces: "Faces",
  objects: "Objects",
  scene: "Scene",
  ask: "Ask"
}

/** What runs when an image arrives from the on-image button or the "Analyse image" menu. */
export type DefaultAnalysis = AnalysisKind | "none"

/** Languages read at once: each one more slows recognition and adds a model to memory. */
export const MAX_OCR_LANGUAGES = 3

export const FACE_DETECTORS = ["tiny", "ssd"] as const
export type FaceDetectorChoice = (typeof FACE_DETECTORS)[number]

const panelSettingsSchema = z.object({
  defaultAnalysis: z.enum([...ANALYSIS_KINDS, "none"]).catch("text"),
  model: z.enum(VQA_MODELS).catch(VQA_MODELS[0]),
  faceDetector: z.enum(FACE_DETECTORS).catch("tiny"),
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
  ocrKeepLayout: z.boolean().catch(false)
})

export type PanelSettings = z.infer<typeof panelSettingsSchema>

export const DEFAULT_PANEL_SETTINGS: PanelSettings = panelSettingsSchema.parse({})

/** Stored settings, each field checked: anything unknown or missing falls back to its default. */
export const panelSettingsItem = storageItem<PanelSettings>({
  key: "panelSettings",
  schema: z.preprocess((raw) => (typeof raw === "object" && raw !== null ? raw : {}), panelSettingsSchema),
  fallback: DEFAULT_PANEL_SETTINGS
})
