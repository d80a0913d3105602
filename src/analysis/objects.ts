// Local object detection with @vladmandic/human's CenterNet (the 80 COCO labels) on the shared
// tfjs runtime (./tfjs.ts), from the model scripts/copy-extension-assets.mjs ships in
// engines/objects/: nothing is fetched at run time.
import type * as HumanModule from "../../node_modules/@vladmandic/human/dist/human.esm-nobundle.js"

import { detectObjectsSliced } from "~core/analysis/tiles"
import { DEFAULT_MAX_OBJECTS, DEFAULT_MIN_SCORES, humanConfig, type DetectedObject, type MinScores } from "~core/analysis/detections"

import { defineEngine, extensionUrl, type AnalysisEngine, type EngineTimeouts } from "./engine"
import { imageTensor, startTfjs, tfjsWasmPrefix, type Tf } from "./tfjs"

export interface ObjectsResult {
  objects: DetectedObject[]
  imageWidth: number
  imageHeight: number
}

export type ObjectsEngine = AnalysisEngine<ObjectsResult>

export interface ObjectsEngineOptions extends EngineTimeouts {
  /** Folder of the shipped centernet.json and centernet.bin inside the extension. */
  basePath?: string
  minScores?: MinScores
  /** The most objects listed for an image the engine does not tile (a tiled one lists up to MAX_TILED_OBJECTS). */
  maxObjects?: number
}

export const OBJECTS_START_FAILED_MESSAGE = "The object detection engine did not start. Reload the extension and try again."
export const OBJECTS_RUN_FAILED_MESSAGE = "Object detection took too long on this image and was stopped. Try again or use a smaller image."

type Human = HumanModule.Human

interface Runtime {
  human: Human
  tf: Tf
}

export function createObjectsEngine({
  basePath = "/engines/objects",
  minScores = DEFAULT_MIN_SCORES,
  maxObjects = DEFAULT_MAX_OBJECTS,
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
      const decode = (maxSide: number) => imageTensor(tf, image, maxSide)
      return detectObjectsSliced({ decode, tf, detect: (input) => inTime(human.detect(input)), minScores, maxObjects })
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
