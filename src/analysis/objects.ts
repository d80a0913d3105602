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

export interface ObjectsEngineOptions extends EngineTimeouts {
  /** Folder of the shipped centernet.json and centernet.bin inside the extension. */
  basePath?: string
  /** Detections below this score are dropped; CenterNet's scores run low, so not much above 0.3. */
  minScore?: number
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

/**
 * Human's detections as ours: boxes mapped from the shrunk copy it saw (`scale`) and cut to the
 * image, best score first, weak ones dropped.
 */
export function toDetectedObjects(raw: readonly RawObject[], imageWidth: number, imageHeight: number, minScore: number, scale = 1): DetectedObject[] {
  return raw
    .filter((object) => object.score >= minScore)
    .map((object) => {
      const [x, y, width, height] = object.box
      return { label: object.label, score: Math.round(object.score * 1000) / 1000, box: clampBox({ x, y, width, height }, imageWidth, imageHeight, scale) }
    })
    .filter((object) => object.box.width > 0 && object.box.height > 0)
    .sort((a, b) => b.score - a.score)
}

/**
 * Human set up for still images: only the object model, on the wasm backend tfjs already runs,
 * no result caching between calls (it is meant for video frames), no model cache in IndexedDB,
 * no warm-up pass.
 */
export function humanConfig({ modelBasePath, wasmPath, minScore, maxObjects }: { modelBasePath: string; wasmPath: string; minScore: number; maxObjects: number }) {
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
    object: { enabled: true, modelPath: "centernet.json", minConfidence: minScore, maxDetected: maxObjects, skipFrames: 0, skipTime: 0 }
  }
}

type Human = HumanModule.Human

interface Runtime {
  human: Human
  tf: Tf
}

export function createObjectsEngine({
  basePath = "/engines/objects",
  minScore = 0.3,
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
      const human = new Human(humanConfig({ modelBasePath: `${extensionUrl(basePath)}/`, wasmPath: tfjsWasmPrefix(), minScore, maxObjects }))
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
        return { objects: toDetectedObjects(result.object, width, height, minScore, scale), imageWidth: width, imageHeight: height }
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
