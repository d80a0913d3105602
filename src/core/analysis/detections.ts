/**
 * What the face and object detectors find, and the rules that turn a detector's raw output into it: boxes in the
 * image's whole pixels, scores rounded, faces numbered left to right, objects below their label's score dropped.
 * The extension's engines (src/analysis, in a browser page) and the public API's (server/local-vision, in a Node worker
 * thread) run the same models with these same settings, so both count the same faces and objects on an image.
 */

/** A rectangle in pixels of the analysed image, top-left origin. */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high)

/**
 * A box in whole pixels, cut to the image (detectors can overshoot its edges). `scale` first
 * maps it from a shrunk copy the detector saw back to the image.
 */
export function clampBox(box: Box, imageWidth: number, imageHeight: number, scale = 1): Box {
  if (scale !== 1) box = { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale }
  const x = clamp(Math.round(box.x), 0, imageWidth)
  const y = clamp(Math.round(box.y), 0, imageHeight)
  const right = clamp(Math.round(box.x + box.width), x, imageWidth)
  const bottom = clamp(Math.round(box.y + box.height), y, imageHeight)
  return { x, y, width: right - x, height: bottom - y }
}

const roundScore = (value: number) => Math.round(value * 1000) / 1000

// ---- Faces (@vladmandic/face-api) ----

/**
 * "ssd": SSD MobileNet v1, the one face detector. The fast TinyFaceDetector was offered too and is gone (issue 47):
 * on the group photos of bench/photos/group-photos.ts it found 0 faces at input 416 where SSD found 16, 39 and 66;
 * larger inputs (608–1280, threshold 0.3–0.5) reached at most 20, 38 and 16 while taking as long as SSD or longer
 * and finding faces on j5, which has none; 416-pixel tiles of the full-size image reached SSD's counts but took
 * 3–6 s, four to six times SSD, and lost the large faces of the single photos. So "fast" could only be had by
 * missing most faces of a group. Old callers' "tiny" (RETIRED_FACE_DETECTORS) runs SSD.
 */
export const FACE_DETECTORS = ["ssd"] as const
export type FaceDetector = (typeof FACE_DETECTORS)[number]
/** Detector names once offered: still accepted (from old API clients and stored settings) and run as the default. */
export const RETIRED_FACE_DETECTORS = ["tiny"] as const

export interface FacesOptions {
  detector: FaceDetector
  /** Also estimate age, gender and expression of each face. */
  attributes: boolean
}

export const DEFAULT_FACES_OPTIONS: FacesOptions = { detector: "ssd", attributes: false }

/**
 * SSD's threshold. On the hand-counted photos SSD finds the same faces from 0.3 to 0.5 (none scores between) and
 * loses a turned face (0.55) at 0.6.
 */
export const SSD_MIN_CONFIDENCE = 0.5

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

/**
 * The longer side of the copy the engine analyses. SSD shrinks the image to a 512-pixel square anyway: the same
 * faces on the hand-counted photos as from 1024, and a warm run on sample1 went from 574 to 464 ms (median of 7)
 * without the larger copy to pad and shrink. The age, gender and expression models crop faces at 112 pixels, so
 * they get more, for smaller faces.
 */
export function analysisSide(options: FacesOptions): number {
  return options.attributes ? 1280 : 512
}

/** Fills in defaults, reads a retired detector as the default, and refuses what the engine cannot do, in words. */
export function resolveFacesOptions(options?: { detector?: string; attributes?: boolean }): FacesOptions {
  const asked = options?.detector ?? DEFAULT_FACES_OPTIONS.detector
  const retired = (RETIRED_FACE_DETECTORS as readonly string[]).includes(asked)
  if (!retired && !(FACE_DETECTORS as readonly string[]).includes(asked)) throw new Error(`Unknown face detector "${String(asked)}": use "ssd".`)
  return { detector: DEFAULT_FACES_OPTIONS.detector, attributes: options?.attributes ?? DEFAULT_FACES_OPTIONS.attributes }
}

/** face-api networks a detection uses, by their key in `faceapi.nets`. */
export type FaceModel = "ssdMobilenetv1" | "ageGenderNet" | "faceExpressionNet"

/** The networks a run with these options needs, detector first. */
export function modelsFor(options: FacesOptions): FaceModel[] {
  const models: FaceModel[] = ["ssdMobilenetv1"]
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

// ---- Objects (@vladmandic/human's CenterNet, the 80 COCO labels) ----

export interface DetectedObject {
  /** COCO label, e.g. "person", "dog", "cup". */
  label: string
  /** 0–1 */
  score: number
  box: Box
}

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

/** The most objects listed for one image. */
export const DEFAULT_MAX_OBJECTS = 20

/**
 * Overlap (intersection over union) above which the weaker of two detections is dropped as the same object.
 * Human's 0.4 dropped people standing shoulder to shoulder, whose boxes overlap that much; CenterNet finds
 * objects as peaks, so it rarely reports one object twice.
 */
export const OVERLAP_THRESHOLD = 0.7

/** CenterNet looks at 512 × 512 pixels; a larger copy only costs time. */
export const OBJECTS_ANALYSIS_SIDE = 1024

/** How many candidates CenterNet's graph puts out. */
const CENTERNET_DETECTIONS = 100

/** What Human returns for one object, reduced to what we read. */
export interface RawObject {
  label: string
  score: number
  /** [x, y, width, height] in pixels of the image. */
  box: readonly [number, number, number, number]
}

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
      return { label: object.label, score: roundScore(object.score), box: clampBox({ x, y, width, height }, imageWidth, imageHeight, scale) }
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
