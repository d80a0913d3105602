/**
 * Runs the side panel's analyses on an image: local engines (text now; faces and objects share the same
 * AnalysisEngine interface) and the vision model (Scene, Ask). Engines are created once per panel and reused;
 * each engine queues its own runs; finished results are cached per image, analysis and options.
 */
import type { AnalysisProgress } from "~analysis/engine"
import { createFacesEngine, type FacesEngine, type FacesResult } from "~analysis/faces"
import { createObjectsEngine, type ObjectsEngine, type ObjectsResult } from "~analysis/objects"
import { createOcrEngine, type OcrEngine, type OcrResult } from "~analysis/ocr"
import { describeFace } from "~analysis/result-format"
import { countOf, percent } from "~core/format"

import { DEFAULT_FACES_OPTIONS } from "~core/analysis/detections"
import type { VqaHistoryTurn } from "~core/analysis/vqa"

import { readImage, toRasterBlob, turnClockwise, type ImageLocation } from "./images/image-bytes"
import { detectReading, prepareOcrLanguages, withVerticalText, type TextReading } from "./settings/ocr-languages"
import type { AnalysisKind, PanelSettings } from "./settings/settings"
import { askImage, type AiAnswer } from "./ai/ai-engines"
import type { AnswerSource } from "./ai/engine-choice"

/** The preset question of the Scene analysis; the labels found locally are added to it. */
export const SCENE_QUESTION = "Describe the scene in this image in two or three sentences: the setting, what is happening and the main subjects."

export type AnalysisOutcome =
  | { kind: "text"; ocr: OcrResult; reading?: DetectedReading }
  | { kind: "faces"; faces: FacesResult }
  | { kind: "objects"; objects: ObjectsResult }
  | ({ kind: "scene"; labels: string[] } & AiAnswer)
  | ({ kind: "ask"; question: string } & AiAnswer)

export interface AnalysisRequest {
  kind: AnalysisKind
  image: ImageLocation
  settings: PanelSettings
  /** Ask only. */
  question?: string
  /** Ask only: the chat so far about this image. */
  history?: readonly VqaHistoryTurn[]
  onProgress?: (progress: AnalysisProgress) => void
  /** Scene and Ask: stops a streamed answer, the answer so far kept. */
  signal?: AbortSignal
  /** Scene and Ask: the answer so far, as it streams in. */
  onPartial?: (answerSoFar: string) => void
  /** Scene and Ask: one engine regardless of Settings (our service, asked for after the device failed). */
  only?: AnswerSource
}

let facesEngine: FacesEngine | null = null
let objectsEngine: ObjectsEngine | null = null
/** One OCR engine, for the languages last read: another choice replaces it (each holds its models in memory). */
let ocrEngine: { languages: string; engine: OcrEngine } | null = null
const getFacesEngine = () => (facesEngine ??= createFacesEngine())
const getObjectsEngine = () => (objectsEngine ??= createObjectsEngine())

/** Distinct labels, most confident first, for the Scene question and summaries. */
export function objectLabels(result: ObjectsResult): string[] {
  return [...new Set([...result.objects].sort((a, b) => b.score - a.score).map((object) => object.label))]
}

/** Images read recently, newest last; older ones are read again if needed (a page's images can be large). */
const images = new Map<string, Promise<Blob>>()
export const IMAGE_CACHE_SIZE = 8

/**
 * The image's bytes, read once per panel (a failed read is forgotten so a retry reads again). Kept per tab and page as
 * well as address: whether an address may be read depends on the page that named it (image-address.ts).
 */
export function imageBlob(location: ImageLocation): Promise<Blob> {
  const key = `${location.tabId ?? ""} ${location.pageUrl ?? ""} ${location.url}`
  let pending = images.get(key)
  if (pending) {
    images.delete(key)
    images.set(key, pending)
  } else {
    pending = readImage(location)
    images.set(key, pending)
    pending.catch(() => images.delete(key))
    for (const oldest of images.keys()) {
      if (images.size <= IMAGE_CACHE_SIZE) break
      images.delete(oldest)
    }
  }
  return pending
}

/** How "Detect language" read the image; `uprightUrl` is the image as read when it had to be turned. */
export interface DetectedReading extends TextReading {
  uprightUrl?: string
}

/** The settings a text reading depends on: another value reads the image again. */
export const textReadingKey = (settings: Pick<PanelSettings, "ocrDetectLanguage" | "ocrLanguages">) =>
  `${settings.ocrDetectLanguage ? "detect:" : ""}${settings.ocrLanguages.join("+")}`

/** Which options change a result: the same image, analysis and key give the cached result. */
export function resultKey({ kind, image, settings }: Pick<AnalysisRequest, "kind" | "image" | "settings">): string | null {
  switch (kind) {
    case "text":
      return `text|${textReadingKey(settings)}|${image.url}`
    case "faces":
      return `faces|${settings.faceAttributes}|${image.url}`
    case "objects":
      return `objects|${image.url}`
    case "scene":
      return `scene|${settings.questionsEngine}|${settings.model}|${image.url}`
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
      const raster = await toRasterBlob(blob)
      const reading = settings.ocrDetectLanguage ? await detectReading(raster, settings.ocrLanguages, onProgress) : null
      const engine = await ocrEngineFor(reading?.languages ?? settings.ocrLanguages, onProgress)
      await engine.load(onProgress)
      onProgress?.({ stage: "Reading text…" })
      const upright = reading?.rotation ? await turnClockwise(raster, reading.rotation) : null
      const ocr = await engine.run(upright ?? raster)
      if (!reading) return { kind, ocr }
      // Kept for the panel's life with the result it belongs to, like the cached result itself.
      return { kind, ocr, reading: upright ? { ...reading, uprightUrl: URL.createObjectURL(upright) } : reading }
    }
    case "faces": {
      const engine = getFacesEngine()
      const options = { ...DEFAULT_FACES_OPTIONS, attributes: settings.faceAttributes }
      await engine.load(onProgress, options)
      onProgress?.({ stage: "Finding faces…" })
      return { kind, faces: await engine.run(await toRasterBlob(blob), options) }
    }
    case "objects":
      return { kind, objects: await detectObjects(request, blob) }
    case "scene": {
      // The local labels ground the model's description; the scene is still described if detection fails.
      const labels = await detectObjects(request, blob).then(objectLabels, () => [])
      onProgress?.({ stage: "Asking the vision model…" })
      const question = labels.length ? `${SCENE_QUESTION} Objects detected on this computer: ${labels.join(", ")}.` : SCENE_QUESTION
      return { kind, labels, ...(await askImage({ ...askOptions(request), image: blob, question })) }
    }
    case "ask": {
      const question = request.question?.trim() ?? ""
      if (!question) throw new Error("Type a question first.")
      onProgress?.({ stage: "Asking the vision model…" })
      return { kind, question, ...(await askImage({ ...askOptions(request), image: blob, question, history: request.history })) }
    }
  }
}

/** What a question's engine takes from the request, besides the image and the question. */
const askOptions = ({ image, settings, signal, onPartial, only }: AnalysisRequest) => ({
  imageKey: image.url,
  model: settings.model,
  choice: settings.questionsEngine,
  signal,
  onPartial,
  only
})

async function ocrEngineFor(chosen: readonly string[], onProgress?: (progress: AnalysisProgress) => void): Promise<OcrEngine> {
  const codes = await withVerticalText(chosen)
  const languages = codes.join("+")
  if (ocrEngine?.languages === languages) return ocrEngine.engine
  await prepareOcrLanguages(codes, onProgress)
  // Checked again: another run may have made this engine while the packs were loading.
  if (ocrEngine?.languages === languages) return ocrEngine.engine
  void ocrEngine?.engine.dispose()
  ocrEngine = { languages, engine: createOcrEngine({ languages: [...codes] }) }
  return ocrEngine.engine
}

/** Objects of the image, from the cache when Objects (or a Scene) already ran on it. */
async function detectObjects({ image, settings, onProgress }: AnalysisRequest, blob: Blob): Promise<ObjectsResult> {
  const key = resultKey({ kind: "objects", image, settings })
  const cached = cachedResult(key)
  if (cached?.kind === "objects") return cached.objects
  const engine = getObjectsEngine()
  await engine.load(onProgress)
  onProgress?.({ stage: "Finding objects…" })
  const objects = await engine.run(await toRasterBlob(blob))
  if (key) results.set(key, { kind: "objects", objects })
  return objects
}

/** Runs (or answers from the cache) one analysis. */
export async function runAnalysis(request: AnalysisRequest): Promise<AnalysisOutcome> {
  const key = resultKey(request)
  const cached = cachedResult(key)
  if (cached) return cached
  const outcome = await run(request)
  // A stopped answer is not the answer: the next Scene asks again.
  if (key && !("stopped" in outcome && outcome.stopped)) results.set(key, outcome)
  return outcome
}

/** One line for lists and the history. */
export function summarise(outcome: AnalysisOutcome): string {
  switch (outcome.kind) {
    case "faces":
      return countOf(outcome.faces.faces.length, "face", "faces")
    case "objects": {
      const labels = objectLabels(outcome.objects)
      return labels.length ? labels.join(", ") : "No objects recognised"
    }
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
    case "faces":
      return outcome.faces.faces.map((face, index) => `Face ${index + 1}: ${describeFace(face)}`).join("\n") || "No faces found"
    case "objects":
      return outcome.objects.objects.map((object) => `${object.label} ${percent(object.score)}`).join("\n") || "No objects recognised"
    case "scene":
      return outcome.labels.length ? `${outcome.answer}\n\nObjects detected on this computer: ${outcome.labels.join(", ")}` : outcome.answer
    case "ask":
      return outcome.answer
  }
}
