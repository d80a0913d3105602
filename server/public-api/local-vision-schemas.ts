/**
 * The public API's analyses on the server's own models (/api/v1/ocr, /faces, /objects): what a call sends and what
 * it gets. Every box is {x, y, width, height} in the image's own pixels (after its EXIF orientation), as the
 * extension's overlays use them.
 */
import * as z from "zod"

import { FACE_DETECTORS, RETIRED_FACE_DETECTORS } from "~core/analysis/detections"
import { ocrLanguageCodeSchema } from "~core/ocr/ocr-languages"
import { base64Length, vqaImageSchema } from "~core/analysis/vqa"

/** The largest image these endpoints take, uploaded, sent as a data URL or downloaded: 10 MiB. */
export const V1_MAX_IMAGE_BYTES = 10 * 1024 * 1024
/** Decoded pixels an image may have: a 10 MiB file can hold a picture that would take gigabytes to decode. */
export const V1_MAX_IMAGE_PIXELS = 50_000_000
/**
 * Pixels a reading of text may have: tesseract reads best at about 300 dpi, where an A3 page is 17.4 million pixels
 * and a 24-megapixel photo keeps its small print; it holds the whole image (and copies of it) in memory, about
 * 12 MiB a megapixel, where faces and objects work on a reduced copy. Measured: 25 MP peaked at 450 MiB, 49 MP at 700.
 */
export const V1_OCR_MAX_IMAGE_PIXELS = 25_000_000
/** An analysis running longer is stopped and answered 503. */
export const V1_ANALYSIS_TIME_LIMIT_MS = 60_000
/** A call waiting longer than this for a free analysis thread is answered 503 (the server is busier than it can be fair with). */
export const V1_MAX_QUEUE_WAIT_MS = 30_000
/** Languages one reading may combine: tesseract slows with each, and no real text mixes more. */
export const V1_MAX_OCR_LANGUAGES = 4
/** A JSON body with the largest image as a data URL and the options. */
export const V1_JSON_BODY_LIMIT = base64Length(V1_MAX_IMAGE_BYTES) + 4 * 1024

export const v1OcrRequestSchema = z.strictObject({
  image: vqaImageSchema,
  /** Read together, e.g. ["deu"] or ["eng", "hin"]; English when left out. GET /api/ocr/languages lists them. */
  languages: z.array(ocrLanguageCodeSchema).min(1).max(V1_MAX_OCR_LANGUAGES).optional()
})
export type V1OcrRequest = z.infer<typeof v1OcrRequestSchema>

export const v1FacesRequestSchema = z.strictObject({
  image: vqaImageSchema,
  /**
   * "ssd", the one detector. "tiny", the fast detector that was removed, is still taken so that old clients keep
   * working: it runs "ssd", and the answer's `detector` says so.
   */
  detector: z.enum([...FACE_DETECTORS, ...RETIRED_FACE_DETECTORS]).optional(),
  /** Also estimate each face's age, gender and expression. */
  attributes: z.boolean().optional()
})
export type V1FacesRequest = z.infer<typeof v1FacesRequestSchema>

export const v1ObjectsRequestSchema = z.strictObject({ image: vqaImageSchema })
export type V1ObjectsRequest = z.infer<typeof v1ObjectsRequestSchema>

/** The options a multipart call sends as text fields next to its `image` file. */
export const V1_MULTIPART_FIELDS = ["languages", "detector", "attributes"] as const

export const apiBoxSchema = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() })

const imageSize = { imageWidth: z.number().int(), imageHeight: z.number().int() }

export const v1OcrAnswerSchema = z.object({
  text: z.string(),
  /** 0–1, the page's mean. */
  confidence: z.number(),
  /** The languages read, as tesseract names them: "deu", "eng+hin". */
  language: z.string(),
  lines: z.array(z.object({ text: z.string(), confidence: z.number(), bbox: apiBoxSchema })),
  ...imageSize
})
export type V1OcrAnswer = z.infer<typeof v1OcrAnswerSchema>

export const v1FacesAnswerSchema = z.object({
  faces: z.array(
    z.object({
      box: apiBoxSchema,
      score: z.number(),
      age: z.number().int().optional(),
      gender: z.enum(["male", "female"]).optional(),
      genderScore: z.number().optional(),
      expression: z.string().optional(),
      expressionScore: z.number().optional()
    })
  ),
  /** The detector that ran: "ssd", also when "tiny" was asked for. */
  detector: z.enum(FACE_DETECTORS),
  ...imageSize
})
export type V1FacesAnswer = z.infer<typeof v1FacesAnswerSchema>

export const v1ObjectsAnswerSchema = z.object({
  objects: z.array(z.object({ label: z.string(), score: z.number(), box: apiBoxSchema })),
  ...imageSize
})
export type V1ObjectsAnswer = z.infer<typeof v1ObjectsAnswerSchema>
