// "Detect language": tesseract's orientation and script detection (OSD) tells the writing system of a page
// and how it is turned, so the side panel can read it in a language of that script, upright. OSD is part of
// tesseract's legacy engine, which the LSTM-only cores of ./ocr leave out: it runs on the legacy SIMD core shipped
// in engines/ocr/ (every Chrome with a side panel has WebAssembly SIMD) with the osd pack from our server,
// verified and kept by ./ocr-packs like a language.
import { OEM } from "tesseract.js"

import { SCRIPT_DETECTION_PACK } from "~core/ocr/ocr-languages"

import { toBlob, type AnalysisEngine, type EngineTimeouts } from "./engine"
import { defineTesseractEngine } from "./ocr"

/** Quarter turns clockwise that make the text upright. */
export type Rotation = 0 | 90 | 180 | 270

export interface ScriptDetection {
  /** tesseract's script name ("Latin", "Devanagari", "Japanese"…), null when the page has too little text to tell. */
  script: string | null
  /** The clockwise turn that makes the text upright (0 when unsure). */
  rotation: Rotation
}

export type ScriptDetector = AnalysisEngine<ScriptDetection>

export const SCRIPT_DETECTION_START_FAILED_MESSAGE = "Language detection did not start. Choose the language yourself and try again."
export const SCRIPT_DETECTION_RUN_FAILED_MESSAGE = "Language detection took too long on this image and was stopped. Choose the language yourself and try again."

/**
 * Below these, tesseract's guess is no better than chance on a few lines (measured on drawn Latin, Cyrillic,
 * Arabic and Devanagari paragraphs: right answers scored 1.5 and more for the script, 1.5 and more for the
 * orientation; a Ukrainian pair of lines taken for Latin scored 0.44).
 */
const MIN_SCRIPT_CONFIDENCE = 1
const MIN_ORIENTATION_CONFIDENCE = 1

/** tesseract.js's detect() answer, reduced to what we read. */
export interface RawDetection {
  script: string | null
  script_confidence: number | null
  orientation_degrees: number | null
  orientation_confidence: number | null
}

export function toScriptDetection(raw: RawDetection): ScriptDetection {
  const script = raw.script && (raw.script_confidence ?? 0) >= MIN_SCRIPT_CONFIDENCE ? raw.script : null
  const degrees = raw.orientation_degrees
  const sure = (raw.orientation_confidence ?? 0) >= MIN_ORIENTATION_CONFIDENCE
  const rotation: Rotation = sure && (degrees === 90 || degrees === 180 || degrees === 270) ? degrees : 0
  return { script, rotation }
}

export function createScriptDetector({ basePath = "/engines/ocr", startTimeoutMs = 20_000, runTimeoutMs = 30_000 }: { basePath?: string } & EngineTimeouts = {}): ScriptDetector {
  return defineTesseractEngine<ScriptDetection>({
    id: "ocr-script",
    basePath,
    startTimeoutMs,
    startFailedMessage: SCRIPT_DETECTION_START_FAILED_MESSAGE,
    runTimeoutMs,
    runFailedMessage: SCRIPT_DETECTION_RUN_FAILED_MESSAGE,
    languages: SCRIPT_DETECTION_PACK,
    oem: OEM.TESSERACT_ONLY,
    loadingStage: "Loading language detection",
    readyStage: "Language detection ready",
    workerName: "Language detection worker",
    workerOptions: (base) => ({ corePath: `${base}/tesseract-core-simd.wasm.js`, legacyCore: true, legacyLang: true }),
    run: async (worker, image, _options, inTime) => {
      const { data } = await inTime(worker.detect(await toBlob(image)))
      return toScriptDetection(data as RawDetection)
    }
  })
}
