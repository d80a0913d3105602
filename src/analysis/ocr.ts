// Local text recognition (OCR) with tesseract.js, from files shipped in the extension
// (scripts/copy-extension-assets.mjs puts them in engines/ocr/) and from language packs the caller has already
// downloaded and verified (./ocr-packs): tesseract.js itself fetches nothing from elsewhere.
import { createWorker, OEM, PSM, type LoggerMessage, type Worker, type WorkerOptions } from "tesseract.js"

import { isVerticalTextPack, withoutSpacesBetweenCjk, writtenWithoutSpaces } from "~core/ocr/ocr-languages"
import { linesOf, ocrConfidence, type OcrLine, type OcrWord } from "~core/ocr/ocr-lines"

import { OCR_PACK_CACHE_PATH } from "./ocr-packs"
import { defineEngine, extensionUrl, toBlob, type AnalysisEngine, type EngineSteps, type EngineTimeouts, type ProgressListener } from "./engine"

export type { OcrBox, OcrLine, OcrWord } from "~core/ocr/ocr-lines"

export interface OcrResult {
  /** The recognised text, one line of the image per line. */
  text: string
  /** Mean confidence of the page, 0–1. */
  confidence: number
  /** Every word of `lines`, in reading order. */
  words: OcrWord[]
  /** Lines with words, in reading order. */
  lines: OcrLine[]
  /** The analysed image's size: the space of every box (it may be a scaled copy of the shown image). */
  imageWidth: number
  imageHeight: number
  /** Time spent recognising this image (not waiting in the queue, not starting the engine). */
  durationMs: number
}

export type OcrEngine = AnalysisEngine<OcrResult>

export interface OcrEngineOptions extends EngineTimeouts {
  /** Folder of the shipped engine files inside the extension. */
  basePath?: string
  /** The languages read together, e.g. ["eng", "hin"]: each shipped in the engine folder or a verified pack kept by ./ocr-packs. */
  languages?: string[]
}

export const OCR_START_FAILED_MESSAGE = "The text recognition engine did not start. Reload the extension and try again."
export const OCR_RUN_FAILED_MESSAGE = "Text recognition took too long on this image and was stopped. Try again or use a smaller image."

/** tesseract.js logger statuses in words people read. */
const STAGES: Record<string, string> = {
  "loading tesseract core": "Loading the text recognition engine",
  "initializing tesseract": "Starting the text recognition engine",
  "loading language traineddata": "Loading the language model",
  "initializing api": "Preparing text recognition",
  "recognizing text": "Recognising text"
}

async function imageSize(blob: Blob): Promise<{ imageWidth: number; imageHeight: number }> {
  const bitmap = await createImageBitmap(blob)
  const size = { imageWidth: bitmap.width, imageHeight: bitmap.height }
  bitmap.close()
  return size
}

/**
 * What makes tesseract.js load only what the extension ships and the verified packs ./ocr-packs keeps: the worker
 * script from the engine folder (MV3 refuses blob workers), and the packs read from their cache, never written
 * (the shipped English needs no copy) and never fetched by tesseract.js itself.
 */
export function shippedWorkerOptions(base: string) {
  return {
    workerPath: `${base}/worker.min.js`,
    langPath: base,
    workerBlobURL: false,
    gzip: true,
    cacheMethod: "readOnly",
    cachePath: OCR_PACK_CACHE_PATH
  } as const
}

/** What an engine on a tesseract.js worker has of its own; see `defineTesseractEngine`. */
export interface TesseractEngineSteps<Result>
  extends Pick<EngineSteps<Worker, Result>, "id" | "startTimeoutMs" | "startFailedMessage" | "runTimeoutMs" | "runFailedMessage" | "run"> {
  /** Folder of the shipped engine files inside the extension. */
  basePath: string
  /** What the worker reads ("eng+hin", "osd") and with which of tesseract's engines. */
  languages: string
  oem: OEM
  /** The progress words as the worker starts and once it is ready. */
  loadingStage: string
  readyStage: string
  /** Names the worker in the console's errors, e.g. "Text recognition worker". */
  workerName: string
  /** Options beyond the shipped files (`shippedWorkerOptions`): the core, a progress logger. */
  workerOptions(base: string, report: ProgressListener): Partial<WorkerOptions>
  /** Work on the started worker before it is ready (parameters). */
  prepareWorker?(worker: Worker): Promise<void>
}

/**
 * An engine on one tesseract.js worker started from the shipped files: the worker is replaced on the next run
 * after a run that failed or took too long (it may be stuck or crashed), and terminated when freed.
 */
export function defineTesseractEngine<Result>({
  basePath,
  languages,
  oem,
  loadingStage,
  readyStage,
  workerName,
  workerOptions,
  prepareWorker,
  ...steps
}: TesseractEngineSteps<Result>): AnalysisEngine<Result> {
  return defineEngine<Worker, Result>({
    ...steps,
    replaceAfterFailedRun: true,
    start: async (report) => {
      const base = extensionUrl(basePath)
      report({ stage: loadingStage, fraction: 0 })
      const worker = await createWorker(languages, oem, {
        ...shippedWorkerOptions(base),
        ...workerOptions(base, report),
        errorHandler: (error: unknown) => console.error(`${workerName}:`, error)
      })
      await prepareWorker?.(worker)
      report({ stage: readyStage, fraction: 1 })
      return worker
    },
    free: (worker) => worker.terminate()
  })
}

export function createOcrEngine({
  basePath = "/engines/ocr",
  languages = ["eng"],
  startTimeoutMs = 20_000,
  runTimeoutMs = 60_000
}: OcrEngineOptions = {}): OcrEngine {
  const unspaced = languages.some(writtenWithoutSpaces)
  return defineTesseractEngine<OcrResult>({
    id: "ocr",
    basePath,
    startTimeoutMs,
    startFailedMessage: OCR_START_FAILED_MESSAGE,
    runTimeoutMs,
    runFailedMessage: OCR_RUN_FAILED_MESSAGE,
    languages: languages.join("+"),
    oem: OEM.LSTM_ONLY,
    loadingStage: "Loading the text recognition engine",
    readyStage: "Text recognition ready",
    workerName: "Text recognition worker",
    workerOptions: (base, report) => ({
      corePath: base,
      logger: (message: LoggerMessage) => {
        const stage = STAGES[message.status] ?? message.status
        report({ stage, fraction: typeof message.progress === "number" ? message.progress : undefined })
      }
    }),
    prepareWorker: async (worker) => {
      const parameters: Parameters<Worker["setParameters"]>[0] = {}
      // Otherwise tesseract puts a space between every two Chinese or Japanese characters.
      if (unspaced) parameters.preserve_interword_spaces = "1"
      // Only tesseract's own page layout analysis finds columns set top to bottom (tesseract.js reads one block).
      if (languages.some(isVerticalTextPack)) parameters.tessedit_pageseg_mode = PSM.AUTO
      if (Object.keys(parameters).length > 0) await worker.setParameters(parameters)
    },
    run: async (worker, image, _options, inTime) => {
      const blob = await toBlob(image)
      const started = performance.now()
      const [{ data }, size] = await inTime(Promise.all([worker.recognize(blob, {}, { text: true, blocks: true }), imageSize(blob)]))
      const lines = linesOf(data.blocks)
      return {
        text: unspaced ? withoutSpacesBetweenCjk(data.text.trim()) : data.text.trim(),
        confidence: ocrConfidence(data.confidence),
        words: lines.flatMap((line) => line.words),
        lines,
        ...size,
        durationMs: Math.round(performance.now() - started)
      }
    }
  })
}
