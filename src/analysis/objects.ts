// Local object detection with @vladmandic/human's CenterNet (the 80 COCO labels) on the shared
// tfjs runtime (./tfjs.ts), from the model scripts/copy-extension-assets.mjs ships in
// engines/objects/: nothing is fetched at run time.
import type * as HumanModule from "../../node_modules/@vladmandic/human/dist/human.esm-nobundle.js"

import { clampBox, defineEngine, extensionUrl, type AnalysisEngine, type Box, type EngineTimeouts } from "./engine"
import { imageTensor, startTfjs, tfjsWasmPrefix, type Tf } from "./tfjs"

export interface DetectedObject {
  /** COCO label, e.g. "person", "dog", "cup". */
  label: string
  /** 0–1 */
  score: number
  box: Box
}

export interface ObjectsResult {
  objects: DetectedObject[]
  imageWidth: number
  imageHeight: number
}

export type ObjectsEngine = AnalysisEngine<ObjectsResult>

/** The score an object needs to be listed: people have their own, every other label shares one. */
export interface MinScores {
  person: number
  other: number
}

/**
 * CenterNet's scores run low, and lowest for people in a group, who hide one another: at 0.3 it listed 19 of the
 * 28 people on the hand-counted photos of bench/photos/hand-counts.json, at 0.2 all 28 with 2 too many. Other
 * labels between 0.2 and 0.3 were mostly wrong (bottles in a window, a second phone), so they keep 0.3.
 */
export const DEFAULT_MIN_SCORES: MinScores = { person: 0.2, other: 0.3 }

/**
 * Overlap (intersection over union) above which the weaker of two detections is dropped as the same object.
 * Human's 0.4 dropped people standing shoulder to shoulder, whose boxes overlap that much; CenterNet finds
 * objects as peaks, so it rarely reports one object twice.
 */
export const OVERLAP_THRESHOLD = 0.7

export interface ObjectsEngineOptions extends EngineTimeouts {
  /** Folder of the shipped centernet.json and centernet.bin inside the extension. */
  basePath?: string
  minScores?: MinScores
  maxObjects?: number
}

export const OBJECTS_START_FAILED_MESSAGE = "The object detection engine did not start. Reload the extension and try again."
export const OBJECTS_RUN_FAILED_MESSAGE = "Object detection took too long on this image and was stopped. Try again or use a smaller image."

/** What Human returns for one object, reduced to what we read. */
export interface RawObject {
  label: string
  score: number
  /** [x, y, width, height] in pixels of the image. */
  box: readonly [number, number, number, number]
}

/** CenterNet looks at 512 × 512 pixels; a larger copy only costs time. */
const MAX_SIDE = 1024

/** How many candidates CenterNet's graph puts out. */
const CENTERNET_DETECTIONS = 100

const minScoreOf = (label: string, minScores: MinScores) => (label === "person" ? minScores.person : minScores.other)

/**
 * Human's detections as ours: boxes mapped from the shrunk copy it saw (`scale`) and cut to the
 * image, best score first, weak ones dropped, at most `maxObjects`.
 */
export function toDetectedObjects(
  raw: readonly RawObject[],
  imageWidth: number,
  imageHeight: number,
  { minScores, maxObjects }: { minScores: MinScores; maxObjects: number },
  scale = 1
): DetectedObject[] {
  return raw
    .filter((object) => object.score >= minScoreOf(object.label, minScores))
    .map((object) => {
      const [x, y, width, height] = object.box
      return { label: object.label, score: Math.round(object.score * 1000) / 1000, box: clampBox({ x, y, width, height }, imageWidth, imageHeight, scale) }
    })
    .filter((object) => object.box.width > 0 && object.box.height > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, maxObjects)
}

/**
 * Human set up for still images: only the object model, on the wasm backend tfjs already runs,
 * no result caching between calls (it is meant for video frames), no model cache in IndexedDB,
 * no warm-up pass. It keeps every candidate down to the lowest score any label may have (up to
 * CenterNet's 100): toDetectedObjects applies each label's own and the limit.
 */
export function humanConfig({ modelBasePath, wasmPath, minScores }: { modelBasePath: string; wasmPath: string; minScores: MinScores }) {
  return {
    backend: "wasm" as const,
    wasmPath,
    modelBasePath,
    debug: false,
    async: true,
    warmup: "none" as const,
    cacheModels: false,
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: {
      enabled: true,
      modelPath: "centernet.json",
      minConfidence: Math.min(minScores.person, minScores.other),
      iouThreshold: OVERLAP_THRESHOLD,
      maxDetected: CENTERNET_DETECTIONS,
      skipFrames: 0,
      skipTime: 0
    }
  }
}

type Human = HumanModule.Human

interface Runtime {
  human: Human
  tf: Tf
}

export function createObjectsEngine({
  basePath = "/engines/objects",
  minScores = DEFAULT_MIN_SCORES,
  maxObjects = 20,
  startTimeoutMs = 30_000,
  runTimeoutMs = 30_000
}: ObjectsEngineOptions = {}): ObjectsEngine {
  return defineEngine<Runtime, ObjectsResult>({
    id: "objects",
    startTimeoutMs,
    startFailedMessage: OBJECTS_START_FAILED_MESSAGE,
    runTimeoutMs,
    runFailedMessage: OBJECTS_RUN_FAILED_MESSAGE,
    start: async (report) => {
      report({ stage: "Starting the object detection engine", fraction: 0 })
      // Human's package `exports` map has no "./" keys, so its sub-paths resolve only by file path.
      const [{ Human }, tf] = await Promise.all([import("../../node_modules/@vladmandic/human/dist/human.esm-nobundle.js"), startTfjs()])
      report({ stage: "Loading object model", fraction: 0.3 })
      const human = new Human(humanConfig({ modelBasePath: `${extensionUrl(basePath)}/`, wasmPath: tfjsWasmPrefix(), minScores }))
      await human.load()
      report({ stage: "Object detection ready", fraction: 1 })
      return { human, tf }
    },
    free: ({ human }) => freeModels(human),
    run: async ({ human, tf }, image, _options, inTime) => {
      const { tensor, width, height, scale } = await imageTensor(tf, image, MAX_SIDE)
      try {
        const result = await inTime(human.detect(tensor))
        if (result.error) throw new Error(`Object detection failed: ${result.error}`)
        return { objects: toDetectedObjects(result.object, width, height, { minScores, maxObjects }, scale), imageWidth: width, imageHeight: height }
      } finally {
        tensor.dispose()
      }
    }
  })
}

/**
 * Frees the loaded models' weights (the tfjs runtime stays for the faces engine). Human also keeps
 * each model in its module, so it is told to start afresh, or a later Human would reuse the freed one.
 */
function freeModels(human: Human) {
  for (const model of Object.values(human.models.models)) model?.dispose()
  human.models.reset()
  human.reset()
}
