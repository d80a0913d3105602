/**
 * One vision task, in a worker thread of the pool (./vision-pool.ts): text by tesseract.js, faces by face-api and
 * objects by Human, the extension's own models and settings (src/core/analysis/detections.ts, src/core/ocr/ocr-lines.ts), here on
 * TensorFlow.js's WebAssembly backend in Node. Images are decoded by sharp, turned as their EXIF orientation says and
 * laid on white (text in a transparent PNG is black on nothing), so every box is in the pixels a viewer sees. Each
 * thread loads an engine on its first task of that kind and keeps it: a thread costs one CPU while it works.
 */
import { createRequire } from "node:module"
import path from "node:path"

import type * as TfCore from "@tensorflow/tfjs-core"
import sharp from "sharp"
import { createWorker, OEM, type Worker as TesseractWorker } from "tesseract.js"

import {
  analysisSide,
  DEFAULT_MAX_OBJECTS,
  DEFAULT_MIN_SCORES,
  humanConfig,
  modelsFor,
  sortFaces,
  SSD_MIN_CONFIDENCE,
  toDetectedFace,
  type FaceModel,
  type FacesOptions,
  type RawFace,
  type RawObject
} from "~core/analysis/detections"
import { detectObjectsSliced } from "~core/analysis/tiles"
import { withoutSpacesBetweenCjk, writtenWithoutSpaces } from "~core/ocr/ocr-languages"
import { linesOf, ocrConfidence } from "~core/ocr/ocr-lines"
import { V1_MAX_IMAGE_PIXELS, V1_OCR_MAX_IMAGE_PIXELS, type V1FacesAnswer, type V1ObjectsAnswer, type V1OcrAnswer } from "../public-api/local-vision-schemas"

import { installFileFetch } from "./file-fetch"

export type VisionTask =
  | { kind: "ocr"; image: Uint8Array; languages: string[]; langPath: string }
  | { kind: "faces"; image: Uint8Array; options: FacesOptions }
  | { kind: "objects"; image: Uint8Array }

/** A task's answer, or why the image could not be decoded (the caller's fault, not the engine's). */
export type VisionTaskResult = { answer: V1OcrAnswer | V1FacesAnswer | V1ObjectsAnswer } | { unreadable: "damaged" | "too-many-pixels" }

// One CPU per pool thread, libvips's own threads included; and no cache of decoded images between callers' images.
sharp.concurrency(1)
sharp.cache(false)

const requireHere = createRequire(import.meta.url)
const packageDir = (name: string) => path.dirname(requireHere.resolve(`${name}/package.json`))
const FACE_MODELS = path.join(packageDir("@vladmandic/face-api"), "model")
// Human's `exports` map hides its package.json and sub-paths from require.resolve: found through its main file.
const HUMAN_DIR = path.resolve(path.dirname(requireHere.resolve("@vladmandic/human")), "..")

type Tf = typeof TfCore

interface FaceApi {
  nets: Record<FaceModel, { loadFromDisk(folder: string): Promise<void> }>
  detectAllFaces(input: unknown, options: unknown): FaceTask
  SsdMobilenetv1Options: new (options: { minConfidence: number }) => unknown
}
interface FaceTask extends PromiseLike<{ box: RawFace["detection"]["box"]; score: number }[]> {
  withAgeAndGender(): { withFaceExpressions(): PromiseLike<(RawFace & { expressions: Record<string, number> })[]> }
}
interface Human {
  load(): Promise<void>
  detect(input: unknown): Promise<{ error?: string | null; object: RawObject[] }>
}

let tfStarting: Promise<Tf> | null = null
let faceApi: { api: FaceApi; loaded: Map<FaceModel, Promise<void>> } | null = null
let humanStarting: Promise<Human> | null = null
let tesseract: { worker: TesseractWorker; languages: string } | null = null

/** tfjs on its WebAssembly backend, single-threaded: the pool already runs one task per CPU. */
function startTfjs(): Promise<Tf> {
  tfStarting ??= (async () => {
    const tf = requireHere("@tensorflow/tfjs-core") as Tf
    requireHere("@tensorflow/tfjs-backend-wasm")
    tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false)
    if (!(await tf.setBackend("wasm"))) throw new Error("The WebAssembly backend of tfjs did not start.")
    await tf.ready()
    return tf
  })()
  return tfStarting
}

/** The image's pixels as an int32 [height, width, 3] tensor, its longer side at most `maxSide`, and its size. */
async function imageTensor(tf: Tf, image: Uint8Array, maxSide: number) {
  const { data, info } = await decoded(image)
    .resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width, height } = await orientedSize(image)
  const tensor = tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], "int32")
  return { tensor, width, height, scale: Math.max(width, height) / Math.max(info.width, info.height) }
}

const decoded = (image: Uint8Array, maxPixels = V1_MAX_IMAGE_PIXELS) => sharp(image, { limitInputPixels: maxPixels }).rotate().flatten({ background: "#ffffff" })

/**
 * tesseract's WebAssembly memory grows to hold the largest image it has read and never shrinks: after an image this
 * large its worker is ended (the next reading starts another, about half a second), so that an idle thread holds
 * about 250 MiB, not the 450 of its largest reading. Below it, documents at 300 dpi (an A4 page is 8.7 MP) keep theirs.
 */
const TESSERACT_RECYCLE_PIXELS = 12_000_000

async function orientedSize(image: Uint8Array): Promise<{ width: number; height: number }> {
  const { width = 0, height = 0, orientation = 1 } = await sharp(image, { limitInputPixels: V1_MAX_IMAGE_PIXELS }).metadata()
  return orientation >= 5 ? { width: height, height: width } : { width, height }
}

async function faces(image: Uint8Array, options: FacesOptions): Promise<V1FacesAnswer> {
  const tf = await startTfjs()
  if (!faceApi) faceApi = { api: requireHere("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi, loaded: new Map() }
  const { api, loaded } = faceApi
  for (const model of modelsFor(options)) {
    let loading = loaded.get(model)
    if (!loading) {
      loading = api.nets[model].loadFromDisk(FACE_MODELS)
      loaded.set(model, loading)
      loading.catch(() => loaded.delete(model))
    }
    await loading
  }
  const { tensor, width, height, scale } = await imageTensor(tf, image, analysisSide(options))
  try {
    const task = api.detectAllFaces(tensor, new api.SsdMobilenetv1Options({ minConfidence: SSD_MIN_CONFIDENCE }))
    const found: RawFace[] = options.attributes
      ? (await task.withAgeAndGender().withFaceExpressions()).map((face) => ({ ...face, expressions: { ...face.expressions } }))
      : (await task).map((detection) => ({ detection }))
    return { faces: sortFaces(found.map((face) => toDetectedFace(face, width, height, scale))), detector: options.detector, imageWidth: width, imageHeight: height }
  } finally {
    tensor.dispose()
  }
}

function startHuman(): Promise<Human> {
  humanStarting ??= (async () => {
    await startTfjs()
    // Human reads its model with fetch(), which in Node has no file: scheme.
    installFileFetch()
    const { Human } = requireHere(path.join(HUMAN_DIR, "dist/human.node-wasm.js")) as { Human: new (config: unknown) => Human }
    const config = humanConfig({ modelBasePath: `file://${path.join(HUMAN_DIR, "models")}/`, wasmPath: "", minScores: DEFAULT_MIN_SCORES })
    const human = new Human(config)
    await human.load()
    return human
  })()
  humanStarting.catch(() => (humanStarting = null))
  return humanStarting
}

async function objects(image: Uint8Array): Promise<V1ObjectsAnswer> {
  const [tf, human] = await Promise.all([startTfjs(), startHuman()])
  const decode = (maxSide: number) => imageTensor(tf, image, maxSide)
  return detectObjectsSliced({ decode, tf, detect: (input) => human.detect(input), minScores: DEFAULT_MIN_SCORES, maxObjects: DEFAULT_MAX_OBJECTS })
}

/** This thread's tesseract.js worker, reading `languages`: made once, switched to other languages in place. */
async function tesseractFor(languages: string[], langPath: string): Promise<TesseractWorker> {
  const key = languages.join("+")
  if (!tesseract) {
    const worker = await createWorker(key, OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: "none" })
    tesseract = { worker, languages: key }
  } else if (tesseract.languages !== key) {
    await tesseract.worker.reinitialize(key, OEM.LSTM_ONLY)
    tesseract.languages = key
  }
  // Otherwise tesseract puts a space between every two Chinese or Japanese characters.
  await tesseract.worker.setParameters({ preserve_interword_spaces: languages.some(writtenWithoutSpaces) ? "1" : "0" })
  return tesseract.worker
}

/** Ends this thread's tesseract worker, and its memory with it: the next reading starts a new one. */
async function endTesseract(): Promise<void> {
  const ending = tesseract
  tesseract = null
  await ending?.worker.terminate().catch(() => undefined)
}

/** The formats tesseract.js's own decoder (leptonica) reads as a browser shows them: what the API accepts. */
const TESSERACT_READS = new Set(["jpeg", "png", "webp", "gif"])

/**
 * The bytes tesseract.js reads and the size of the image it sees. An upright, opaque, 8-bit RGB or grey image in a
 * format leptonica reads is handed over as uploaded, as the extension hands over what it fetched: re-encoding it
 * decodes a JPEG with libjpeg-turbo, whose chroma upsampling and rounding give pixels a few levels off leptonica's,
 * and tesseract's line finding in a block where a photo sits beside small print tips on such differences (a caption
 * of 26 names read whole from the upload and not at all from sharp's PNG of it: bench/photos/group-photos.json,
 * caption-board-reposted). The upload is still decoded once, so a damaged one is refused as before. Only an image
 * turned by its EXIF orientation (tesseract.js reads only one byte order of it), with transparency (text on nothing)
 * or in another colour space or depth is redrawn upright on white, as a PNG.
 */
async function ocrInput(image: Uint8Array): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const metadata = await sharp(image, { limitInputPixels: V1_OCR_MAX_IMAGE_PIXELS }).metadata()
  const plain =
    TESSERACT_READS.has(metadata.format ?? "") &&
    (metadata.orientation ?? 1) === 1 &&
    !metadata.hasAlpha &&
    (metadata.pages ?? 1) === 1 &&
    metadata.depth === "uchar" &&
    (metadata.space === "srgb" || metadata.space === "b-w")
  if (plain && metadata.width && metadata.height) {
    await sharp(image, { limitInputPixels: V1_OCR_MAX_IMAGE_PIXELS }).stats()
    return { bytes: image, width: metadata.width, height: metadata.height }
  }
  const { data, info } = await decoded(image, V1_OCR_MAX_IMAGE_PIXELS).png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true })
  return { bytes: data, width: info.width, height: info.height }
}

async function ocr(image: Uint8Array, languages: string[], langPath: string): Promise<V1OcrAnswer> {
  const { bytes, ...info } = await ocrInput(image)
  const worker = await tesseractFor(languages, langPath)
  let data
  try {
    ;({ data } = await worker.recognize(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {}, { text: true, blocks: true }))
  } catch (error) {
    // It may have crashed: the next task starts a new one.
    await endTesseract()
    throw error
  }
  if (info.width * info.height > TESSERACT_RECYCLE_PIXELS) await endTesseract()
  const unspaced = languages.some(writtenWithoutSpaces)
  const text = data.text.trim()
  return {
    text: unspaced ? withoutSpacesBetweenCjk(text) : text,
    confidence: ocrConfidence(data.confidence),
    language: languages.join("+"),
    lines: linesOf(data.blocks).map((line) => ({
      text: line.text,
      confidence: line.confidence,
      bbox: { x: line.bbox.x0, y: line.bbox.y0, width: line.bbox.x1 - line.bbox.x0, height: line.bbox.y1 - line.bbox.y0 }
    })),
    imageWidth: info.width,
    imageHeight: info.height
  }
}

/** sharp's words for an image it cannot decode (damaged, truncated, too many pixels). */
const isDecodeFailure = (error: unknown) =>
  error instanceof Error && /unsupported image format|corrupt|premature end|bad seek|pixel limit|Input buffer|VipsJpeg|pngload|gifload|webpload/i.test(error.message)

export async function runVisionTask(task: VisionTask): Promise<VisionTaskResult> {
  try {
    if (task.kind === "ocr") return { answer: await ocr(task.image, task.languages, task.langPath) }
    if (task.kind === "faces") return { answer: await faces(task.image, task.options) }
    return { answer: await objects(task.image) }
  } catch (error) {
    if (isDecodeFailure(error)) return { unreadable: /pixel limit/i.test((error as Error).message) ? "too-many-pixels" : "damaged" }
    throw error
  }
}
