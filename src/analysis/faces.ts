// Local face detection with @vladmandic/face-api on the shared tfjs runtime (./tfjs.ts), from the
// models scripts/copy-extension-assets.mjs ships in engines/faces/: nothing is fetched at run
// time. SSD MobileNet v1 is the default: on group photos it counts the faces a person counts
// (turned aside, looking down), where TinyFaceDetector, the fast option at about a quarter of the
// cost, finds one of three (bench/faces-objects.ts). Age, gender and expression models load only
// once someone asks for them.
import type * as FaceApiModule from "@vladmandic/face-api/dist/face-api.esm-nobundle.js"

import { clampBox, defineEngine, OnceLoader, type AnalysisEngine, type Box, type EngineTimeouts } from "./engine"
import { imageTensor, startTfjs, type Tf } from "./tfjs"

/** "ssd": SSD MobileNet v1 (accurate, default); "tiny": TinyFaceDetector (fast, misses faces turned aside). */
export type FaceDetector = "tiny" | "ssd"

export interface FacesOptions {
  detector: FaceDetector
  /** Also estimate age, gender and expression of each face. */
  attributes: boolean
}

export interface DetectedFace {
  box: Box
  /** Detection confidence, 0–1. */
  score: number
  /** Estimated age in years. */
  age?: number
  gender?: "male" | "female"
  /** 0–1 */
  genderScore?: number
  /** The most likely of neutral, happy, sad, angry, fearful, disgusted, surprised. */
  expression?: string
  /** 0–1 */
  expressionScore?: number
}

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

/**
 * The longer side of the copy the engine analyses. The detectors shrink the image to a square
 * anyway (TinyFaceDetector to 416 pixels, SSD to 512). SSD gets its own 512: the same faces on the
 * hand-counted photos as from 1024, and a warm run on sample1 went from 574 to 464 ms (median of 7)
 * without the larger copy to pad and shrink. The age, gender and expression models crop faces at
 * 112 pixels, so they get more, for smaller faces.
 */
export function analysisSide(options: FacesOptions): number {
  if (options.attributes) return 1280
  return options.detector === "ssd" ? 512 : 832
}

export const DEFAULT_FACES_OPTIONS: FacesOptions = { detector: "ssd", attributes: false }

/** face-api networks this engine uses, by their key in `faceapi.nets`. */
export type FaceModel = "tinyFaceDetector" | "ssdMobilenetv1" | "ageGenderNet" | "faceExpressionNet"

const MODEL_STAGES: Record<FaceModel, string> = {
  tinyFaceDetector: "Loading face model",
  ssdMobilenetv1: "Loading accurate face model",
  ageGenderNet: "Loading age and gender model",
  faceExpressionNet: "Loading expression model"
}

/** Fills in defaults and refuses what the engine cannot do, in words. */
export function resolveFacesOptions(options?: Partial<FacesOptions>): FacesOptions {
  const detector = options?.detector ?? DEFAULT_FACES_OPTIONS.detector
  if (detector !== "tiny" && detector !== "ssd") throw new Error(`Unknown face detector "${String(detector)}": use "tiny" or "ssd".`)
  return { detector, attributes: options?.attributes ?? DEFAULT_FACES_OPTIONS.attributes }
}

/** The networks a run with these options needs, detector first. */
export function modelsFor(options: FacesOptions): FaceModel[] {
  const models: FaceModel[] = [options.detector === "ssd" ? "ssdMobilenetv1" : "tinyFaceDetector"]
  if (options.attributes) models.push("ageGenderNet", "faceExpressionNet")
  return models
}

/** What face-api returns for one face, reduced to what we read (detections alone, or with attributes). */
export interface RawFace {
  detection: { box: Box; score: number }
  age?: number
  gender?: string
  genderProbability?: number
  expressions?: Record<string, number>
}

const roundScore = (value: number) => Math.round(value * 1000) / 1000

/** One face as we report it; `scale` maps boxes from the shrunk copy the detector saw back to the image. */
export function toDetectedFace(raw: RawFace, imageWidth: number, imageHeight: number, scale = 1): DetectedFace {
  const face: DetectedFace = { box: clampBox(raw.detection.box, imageWidth, imageHeight, scale), score: roundScore(raw.detection.score) }
  if (typeof raw.age === "number") face.age = Math.round(raw.age)
  if (raw.gender === "male" || raw.gender === "female") {
    face.gender = raw.gender
    if (typeof raw.genderProbability === "number") face.genderScore = roundScore(raw.genderProbability)
  }
  if (raw.expressions) {
    const [best] = Object.entries(raw.expressions)
      .filter((entry): entry is [string, number] => typeof entry[1] === "number")
      .sort((a, b) => b[1] - a[1])
    if (best) {
      face.expression = best[0]
      face.expressionScore = roundScore(best[1])
    }
  }
  return face
}

/** Faces numbered left to right (as people in a group photo are named), then top to bottom. */
export function sortFaces(faces: DetectedFace[]): DetectedFace[] {
  return [...faces].sort((a, b) => a.box.x + a.box.width / 2 - (b.box.x + b.box.width / 2) || a.box.y - b.box.y)
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
        // On the hand-counted photos SSD finds the same faces from 0.3 to 0.5 (none scores between) and loses a
        // turned face (0.55) at 0.6. Tiny stays at 416, the fast choice: 512 found 21 of 22 faces instead of 19
        // for half as much time again, 608 found fewer, and neither reaches what SSD counts.
        const detectorOptions =
          options.detector === "ssd"
            ? new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 })
            : new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: 0.5 })
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
