// Local face detection with @vladmandic/face-api on the shared tfjs runtime (./tfjs.ts), from the
// models scripts/copy-extension-assets.mjs ships in engines/faces/: nothing is fetched at run
// time. SSD MobileNet v1 is the one detector: it counts the faces a person counts (turned aside,
// looking down); the fast TinyFaceDetector is gone, as it missed whole groups (why: FACE_DETECTORS
// in src/core/analysis/detections.ts). Age, gender and expression models load only once someone
// asks for them.
import type * as FaceApiModule from "@vladmandic/face-api/dist/face-api.esm-nobundle.js"

import {
  analysisSide,
  modelsFor,
  resolveFacesOptions,
  sortFaces,
  SSD_MIN_CONFIDENCE,
  toDetectedFace,
  type DetectedFace,
  type FaceDetector,
  type FaceModel,
  type FacesOptions,
  type RawFace
} from "~core/analysis/detections"

import { defineEngine, OnceLoader, type AnalysisEngine, type EngineTimeouts } from "./engine"
import { imageTensor, startTfjs, type Tf } from "./tfjs"

export interface FacesResult {
  faces: DetectedFace[]
  imageWidth: number
  imageHeight: number
  detector: FaceDetector
}

export type FacesEngine = AnalysisEngine<FacesResult, FacesOptions>

export interface FacesEngineOptions extends EngineTimeouts {
  /** Root-relative folder of the shipped models: face-api mangles chrome-extension:// URLs. */
  basePath?: string
}

export const FACES_START_FAILED_MESSAGE = "The face detection engine did not start. Reload the extension and try again."
export const FACES_RUN_FAILED_MESSAGE = "Face detection took too long on this image and was stopped. Try again or use a smaller image."

const MODEL_STAGES: Record<FaceModel, string> = {
  ssdMobilenetv1: "Loading face model",
  ageGenderNet: "Loading age and gender model",
  faceExpressionNet: "Loading expression model"
}

type FaceApi = typeof FaceApiModule

interface Runtime {
  faceapi: FaceApi
  tf: Tf
  /** The networks asked for so far, each loaded once (a failed load is tried again). */
  models: Map<FaceModel, OnceLoader<void>>
}

export function createFacesEngine({ basePath = "/engines/faces", startTimeoutMs = 30_000, runTimeoutMs = 30_000 }: FacesEngineOptions = {}): FacesEngine {
  return defineEngine<Runtime, FacesResult, FacesOptions>({
    id: "faces",
    startTimeoutMs,
    startFailedMessage: FACES_START_FAILED_MESSAGE,
    runTimeoutMs,
    runFailedMessage: FACES_RUN_FAILED_MESSAGE,
    resolveOptions: resolveFacesOptions,
    start: async (report) => {
      report({ stage: "Starting the face detection engine", fraction: 0 })
      const [faceapi, tf] = await Promise.all([import("@vladmandic/face-api/dist/face-api.esm-nobundle.js"), startTfjs()])
      return { faceapi, tf, models: new Map() }
    },
    // The tfjs runtime stays: the objects engine may be using it.
    free: ({ faceapi, models }) => {
      for (const [model, loader] of models) if (loader.started) faceapi.nets[model].dispose(false)
    },
    /** Loads each missing network the options need, reporting each. */
    prepare: async ({ faceapi, models }, options, report, inTime) => {
      const needed = modelsFor(options)
      for (const [index, model] of needed.entries()) {
        let loader = models.get(model)
        if (!loader) {
          loader = new OnceLoader(() => inTime(faceapi.nets[model].loadFromUri(basePath)))
          models.set(model, loader)
        }
        if (!loader.started) report({ stage: MODEL_STAGES[model], fraction: index / needed.length })
        await loader.load()
      }
      report({ stage: "Face detection ready", fraction: 1 })
    },
    run: async ({ faceapi, tf }, image, options, inTime) => {
      const { tensor, width, height, scale } = await imageTensor(tf, image, analysisSide(options))
      try {
        const detectorOptions = new faceapi.SsdMobilenetv1Options({ minConfidence: SSD_MIN_CONFIDENCE })
        // face-api's type declarations carry their own copy of tfjs's; at run time it is the same tfjs-core.
        const task = faceapi.detectAllFaces(tensor as unknown as Parameters<FaceApi["detectAllFaces"]>[0], detectorOptions)
        const found: RawFace[] = options.attributes
          ? await inTime(task.withAgeAndGender().withFaceExpressions().run()).then((faces) =>
              faces.map((face) => ({ ...face, expressions: { ...face.expressions } }))
            )
          : await inTime(task.run()).then((faces) => faces.map((detection) => ({ detection })))
        return {
          faces: sortFaces(found.map((face) => toDetectedFace(face, width, height, scale))),
          imageWidth: width,
          imageHeight: height,
          detector: options.detector
        }
      } finally {
        tensor.dispose()
      }
    }
  })
}
