/**
 * POST /api/v1/ocr, /api/v1/faces and /api/v1/objects: the server's own models on an image sent with an API key
 * (registered inside publicApiRoutes, whose hooks authorise the key and count answered calls). Each parses its
 * input and calls the local vision service (server/local-vision); the pool they share is started on the first call
 * and ended with the server.
 */
import multipart from "@fastify/multipart"
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { ok } from "~core/api-answer"
import {
  V1_ANALYSIS_TIME_LIMIT_MS,
  V1_JSON_BODY_LIMIT,
  V1_MAX_IMAGE_BYTES,
  V1_MAX_IMAGE_PIXELS,
  V1_MAX_QUEUE_WAIT_MS,
  V1_OCR_MAX_IMAGE_PIXELS,
  v1FacesAnswerSchema,
  v1FacesRequestSchema,
  v1ObjectsAnswerSchema,
  v1ObjectsRequestSchema,
  v1OcrAnswerSchema,
  v1OcrRequestSchema
} from "./local-vision-schemas"

import { requireApiKey } from "../api-keys/key-auth"
import { imageTooLarge } from "../image-input/image-checks"
import { imageDownloader, type ImageDownloadOptions } from "../image-input/image-download"
import { OcrPackLinks } from "../local-vision/ocr-pack-links"
import { VisionPool, type VisionPoolOptions } from "../local-vision/vision-pool"
import { visionService, type VisionCaller } from "../local-vision/vision-service"
import type { OcrLanguageCatalogue } from "../ocr-languages/catalogue"
import { documented, type RouteDoc } from "../openapi/route-docs"
import { readImageCall, V1_MULTIPART_OPTIONS } from "./v1-image-input"
import { V1_FACES_EXAMPLE, V1_OBJECTS_EXAMPLE, V1_OCR_EXAMPLE } from "./v1-examples"

export interface LocalVisionRoutesOptions {
  /** The image URLs' time-out and loopback allowance: tests only. */
  imageDownload?: ImageDownloadOptions
  /** VISION_THREADS from the config, or a test's smaller pool. */
  pool?: VisionPoolOptions
  catalogue: OcrLanguageCatalogue
}

/** A multipart body holds the image and a few short fields: anything declared larger is refused unread. */
const MAX_DECLARED_BODY = V1_MAX_IMAGE_BYTES + 64 * 1024

async function refuseDeclaredOversize(request: FastifyRequest, reply: FastifyReply) {
  if (Number(request.headers["content-length"]) > Math.max(MAX_DECLARED_BODY, V1_JSON_BODY_LIMIT)) {
    reply.header("connection", "close")
    throw imageTooLarge(V1_MAX_IMAGE_BYTES)
  }
}

/** A JSON body too large to parse can only hold an oversized image. */
function oversizedJsonAsImage(error: FastifyError): never {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw imageTooLarge(V1_MAX_IMAGE_BYTES)
  throw error
}

const UPLOAD = `Send the image as JSON ({"image": {"dataUrl": …} or {"url": …}} with the options), or upload it as multipart/form-data: a file field "image" and the options as text fields.`

/** The three endpoints' reference: the JSON body, and the refusals of an image, theirs alone. */
const visionDoc = (doc: Pick<RouteDoc, "summary" | "description" | "body" | "data" | "example">) =>
  documented({
    tag: "Public API",
    ...doc,
    description: `${doc.description} ${UPLOAD}`,
    consumes: ["application/json", "multipart/form-data"],
    errors: {
      400: "VALIDATION_FAILED: no image, or an option breaks its rule; URL_NOT_ALLOWED: the URL names a private or loopback address.",
      413: `IMAGE_TOO_LARGE: the image is over ${V1_MAX_IMAGE_BYTES / (1024 * 1024)} MiB or ${V1_MAX_IMAGE_PIXELS / 1_000_000} million pixels (${V1_OCR_MAX_IMAGE_PIXELS / 1_000_000} million to read its text).`,
      415: "INVALID_IMAGE: the bytes are not a PNG, JPEG, GIF or WebP picture, or do not decode.",
      429: "RATE_LIMIT_EXCEEDED: the key's or the account's limits, or the server's queue of images has no place for the account (retryAfter says when to come back).",
      503: `SERVICE_UNAVAILABLE: the analysis took longer than ${V1_ANALYSIS_TIME_LIMIT_MS / 1000} seconds and was stopped, or could not start within ${V1_MAX_QUEUE_WAIT_MS / 1000}.`
    }
  })

const OCR_DOC = visionDoc({
  summary: "Read the text of an image",
  description: "tesseract.js on the server, with the language packs GET /api/ocr/languages lists (English when none are named). Lines in reading order, each with its box in the image's pixels.",
  body: v1OcrRequestSchema,
  data: { 200: v1OcrAnswerSchema },
  example: V1_OCR_EXAMPLE
})
const FACES_DOC = visionDoc({
  summary: "Find the faces in an image",
  description:
    "face-api's SSD MobileNet v1 with the extension's thresholds; faces numbered left to right; age, gender and expression when attributes is true. detector \"tiny\" (the fast detector, removed) is still accepted and runs \"ssd\", which the answer's detector names.",
  body: v1FacesRequestSchema,
  data: { 200: v1FacesAnswerSchema },
  example: V1_FACES_EXAMPLE
})
const OBJECTS_DOC = visionDoc({
  summary: "Find the objects in an image",
  description:
    "Human's CenterNet (the 80 COCO labels) with the extension's thresholds; best first, at most 20. An image longer than 1536 pixels is also analysed in up to 6 overlapping tiles, so that small people in a crowd are found, unless every person the first pass found is taller than half the image; then at most 100.",
  body: v1ObjectsRequestSchema,
  data: { 200: v1ObjectsAnswerSchema },
  example: V1_OBJECTS_EXAMPLE
})

export async function localVisionRoutes(app: FastifyInstance, options: LocalVisionRoutesOptions): Promise<void> {
  const pool = new VisionPool(options.pool)
  const packLinks = new OcrPackLinks()
  app.addHook("onClose", async () => {
    await pool.close()
    packLinks.remove()
  })
  const vision = visionService({ pool, catalogue: options.catalogue, packLinks })
  const downloadImageBytes = imageDownloader(app, options.imageDownload)
  await app.register(multipart, V1_MULTIPART_OPTIONS)

  const routeOptions = { onRequest: [requireApiKey, refuseDeclaredOversize], bodyLimit: V1_JSON_BODY_LIMIT, errorHandler: oversizedJsonAsImage }
  // The line for the threads is fair between accounts; a call whose client left gives its place up.
  const callerOf = (request: FastifyRequest): VisionCaller => ({ accountId: request.apiKey!.user.id, signal: request.apiKey!.clientLeft })
  const downloadFor = (request: FastifyRequest) => (url: string) => downloadImageBytes(request.apiKey!.user.id, url, V1_MAX_IMAGE_BYTES)

  app.post("/api/v1/ocr", { ...routeOptions, config: { apiEndpoint: "ocr" }, schema: OCR_DOC }, async (request) => {
    const { image, options: { languages } } = await readImageCall(request, v1OcrRequestSchema, downloadFor(request))
    return ok(await vision.ocr(callerOf(request), image, languages))
  })

  app.post("/api/v1/faces", { ...routeOptions, config: { apiEndpoint: "faces" }, schema: FACES_DOC }, async (request) => {
    const { image, options: faceOptions } = await readImageCall(request, v1FacesRequestSchema, downloadFor(request))
    return ok(await vision.faces(callerOf(request), image, faceOptions))
  })

  app.post("/api/v1/objects", { ...routeOptions, config: { apiEndpoint: "objects" }, schema: OBJECTS_DOC }, async (request) => {
    const { image } = await readImageCall(request, v1ObjectsRequestSchema, downloadFor(request))
    return ok(await vision.objects(callerOf(request), image))
  })
}
