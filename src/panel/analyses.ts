/**
 * Runs the side panel's analyses on an image: local engines (text now; faces and objects share the same
 * AnalysisEngine interface) and the vision model (Scene, Ask). Engines are created once per panel and reused;
 * each engine queues its own runs; finished results are cached per image, analysis and options.
 */
import type { AnalysisProgress } from "~analysis/engine"
import { createOcrEngine, type OcrEngine, type OcrResult } from "~analysis/ocr"

import { readImage, toRasterBlob, type ImageLocation } from "./image-bytes"
import type { AnalysisKind, PanelSettings } from "./settings"
import { askAboutImage } from "./vqa-client"

/** The preset question of the Scene analysis; the labels found locally are added to it. */
export const SCENE_QUESTION = "Describe the scene in this image in two or three sentences: the setting, what is happening and the main subjects."

export type AnalysisOutcome =
  | { kind: "text"; ocr: OcrResult }
  | { kind: "scene"; answer: string; model: string; labels: string[] }
  | { kind: "ask"; answer: string; model: string; question: string }

export interface AnalysisRequest {
  kind: AnalysisKind
  image: ImageLocation
  settings: PanelSettings
  /** Ask only. */
  question?: string
  onProgress?: (progress: AnalysisProgress) => void
}

let ocrEngine: OcrEngine | null = null
const getOcrEngine = () => (ocrEngine ??= createOcrEngine())

const images = new Map<string, Promise<Blob>>()

/** The image's bytes, read once per panel (a failed read is forgotten so a retry reads again). */
export function imageBlob(location: ImageLocation): Promise<Blob> {
  let pending = images.get(location.url)
  if (!pending) {
    pending = readImage(location)
    images.set(location.url, pending)
    pending.catch(() => images.delete(location.url))
  }
  return pending
}

/** Which options change a result: the same image, analysis and key give the cached result. */
export function resultKey({ kind, image, settings }: Pick<AnalysisRequest, "kind" | "image" | "settings">): string | null {
  switch (kind) {
    case "text":
      return `text|${image.url}`
    case "faces":
      return `faces|${settings.faceDetector}|${settings.faceAttributes}|${image.url}`
    case "objects":
      return `objects|${image.url}`
    case "scene":
      return `scene|${settings.model}|${image.url}`
    case "ask":
      // Every question is asked: the model may answer differently, and the user expects it to be sent.
      return null
  }
}

const results = new Map<string, AnalysisOutcome>()

export function cachedResult(key: string | null): AnalysisOutcome | undefined {
  return key ? results.get(key) : undefined
}

async function run(request: AnalysisRequest): Promise<AnalysisOutcome> {
  const { kind, image, settings, onProgress } = request
  const blob = await imageBlob(image)
  switch (kind) {
    case "text": {
      const engine = getOcrEngine()
      await engine.load(onProgress)
      onProgress?.({ stage: "Reading text…" })
      return { kind, ocr: await engine.run(await toRasterBlob(blob)) }
    }
    case "scene": {
      onProgress?.({ stage: "Asking the vision model…" })
      const labels: string[] = []
      const question = labels.length ? `${SCENE_QUESTION} Objects detected on this computer: ${labels.join(", ")}.` : SCENE_QUESTION
      const answer = await askAboutImage({ image: blob, question, model: settings.model })
      return { kind, answer: answer.answer, model: answer.model, labels }
    }
    case "ask": {
      const question = request.question?.trim() ?? ""
      if (!question) throw new Error("Type a question first.")
      onProgress?.({ stage: "Asking the vision model…" })
      const answer = await askAboutImage({ image: blob, question, model: settings.model })
      return { kind, answer: answer.answer, model: answer.model, question }
    }
    default:
      throw new Error(`${kind} is not available in this version.`)
  }
}

/** Runs (or answers from the cache) one analysis. */
export async function runAnalysis(request: AnalysisRequest): Promise<AnalysisOutcome> {
  const key = resultKey(request)
  const cached = cachedResult(key)
  if (cached) return cached
  const outcome = await run(request)
  if (key) results.set(key, outcome)
  return outcome
}

/** One line for lists and the history. */
export function summarise(outcome: AnalysisOutcome): string {
  switch (outcome.kind) {
    case "text": {
      const text = outcome.ocr.text.replace(/\s+/g, " ").trim()
      return text ? (text.length > 80 ? `${text.slice(0, 79)}…` : text) : "No text found"
    }
    case "scene":
    case "ask":
      return outcome.answer.length > 100 ? `${outcome.answer.slice(0, 99)}…` : outcome.answer
  }
}

/** The whole result as text, for the history and copying. */
export function describe(outcome: AnalysisOutcome): string {
  switch (outcome.kind) {
    case "text":
      return outcome.ocr.text.trim()
    case "scene":
      return outcome.labels.length ? `${outcome.answer}\n\nObjects detected on this computer: ${outcome.labels.join(", ")}` : outcome.answer
    case "ask":
      return outcome.answer
  }
}
