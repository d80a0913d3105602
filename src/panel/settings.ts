/** The side panel's Settings: default analysis, vision model, face detector options; kept in chrome.storage.local. */
import { VQA_MODELS } from "~core/vqa"

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

export const FACE_DETECTORS = ["tiny", "ssd"] as const
export type FaceDetectorChoice = (typeof FACE_DETECTORS)[number]

export interface PanelSettings {
  defaultAnalysis: DefaultAnalysis
  model: string
  faceDetector: FaceDetectorChoice
  /** Age, gender and expression with each face (three more models to load). */
  faceAttributes: boolean
}

export const DEFAULT_PANEL_SETTINGS: PanelSettings = {
  defaultAnalysis: "text",
  model: VQA_MODELS[0],
  faceDetector: "tiny",
  faceAttributes: false
}

export const PANEL_SETTINGS_KEY = "panelSettings"

/** Stored settings, each field checked: anything unknown falls back to its default. */
export function parsePanelSettings(raw: unknown): PanelSettings {
  const stored = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {}
  const pick = <T>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback)
  return {
    defaultAnalysis: pick(stored.defaultAnalysis, [...ANALYSIS_KINDS, "none"] as const, DEFAULT_PANEL_SETTINGS.defaultAnalysis),
    model: pick(stored.model, VQA_MODELS, DEFAULT_PANEL_SETTINGS.model),
    faceDetector: pick(stored.faceDetector, FACE_DETECTORS, DEFAULT_PANEL_SETTINGS.faceDetector),
    faceAttributes: typeof stored.faceAttributes === "boolean" ? stored.faceAttributes : DEFAULT_PANEL_SETTINGS.faceAttributes
  }
}

export async function loadPanelSettings(): Promise<PanelSettings> {
  const items = await chrome.storage.local.get(PANEL_SETTINGS_KEY)
  return parsePanelSettings(items[PANEL_SETTINGS_KEY])
}

export async function savePanelSettings(settings: PanelSettings): Promise<void> {
  await chrome.storage.local.set({ [PANEL_SETTINGS_KEY]: settings })
}

/**
 * The API address as typed in Settings: an http(s) origin with no path, or an error in plain words.
 * Trailing slashes are forgiven; anything after the host is not.
 */
export function parseApiOrigin(input: string): { ok: true; origin: string } | { ok: false; error: string } {
  const text = input.trim().replace(/\/+$/, "")
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, error: "Enter an address such as https://imagequery.ai" }
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, error: "The address must start with https:// or http://" }
  if (url.origin !== text) return { ok: false, error: "Enter only the address of the service, without a path" }
  return { ok: true, origin: url.origin }
}
