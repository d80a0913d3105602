/**
 * POST /api/v1/ocr, /api/v1/faces and /api/v1/objects: the server's own models on an image sent with an API key
 * (registered inside publicApiRoutes, whose hooks authorise the key and count answered calls). Each parses its
 * input and calls the vision service; the pool they share is started on the first call and ended with the server.
 */
import multipart from "@fastify/multipart"
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { ok } from "~core/api"
import { V1_JSON_BODY_LIMIT, V1_MAX_IMAGE_BYTES, v1FacesRequestSchema, v1ObjectsRequestSchema, v1OcrRequestSchema } from "~core/public-api"

import { analyzeService, type AnalyzeRoutesOptions } from "../analyze/analyze-service"
import { imageTooLarge } from "../analyze/image"
import { requireApiKey } from "../api-keys/key-auth"
import type { OcrLanguageCatalogue } from "../ocr/catalogue"
import { OcrPackLinks } from "../vision/ocr-pack-links"
import { VisionPool, type VisionPoolOptions } from "../vision/vision-pool"
import { visionService } from "../vision/vision-service"
import { readImageCall, V1_MULTIPART_OPTIONS } from "./v1-image-input"

export interface VisionRoutesOptions {
  analyze?: AnalyzeRoutesOptions
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

export async function visionRoutes(app: FastifyInstance, options: VisionRoutesOptions): Promise<void> {
  const pool = new VisionPool(options.pool)
  const packLinks = new OcrPackLinks()
  app.addHook("onClose", async () => {
    await pool.close()
    packLinks.remove()
  })
  const vision = visionService({ pool, catalogue: options.catalogue, packLinks })
  const { downloadImageBytes } = analyzeService(app, options.analyze)
  await app.register(multipart, V1_MULTIPART_OPTIONS)

  const routeOptions = { onRequest: [requireApiKey, refuseDeclaredOversize], bodyLimit: V1_JSON_BODY_LIMIT, errorHandler: oversizedJsonAsImage }
  const downloadFor = (request: FastifyRequest) => (url: string) => downloadImageBytes(request.apiKey!.user.id, url, V1_MAX_IMAGE_BYTES)

  app.post("/api/v1/ocr", { ...routeOptions, config: { apiEndpoint: "ocr" } }, async (request) => {
    const { image, options: { languages } } = await readImageCall(request, v1OcrRequestSchema, downloadFor(request))
    return ok(await vision.ocr(image, languages))
  })

  app.post("/api/v1/faces", { ...routeOptions, config: { apiEndpoint: "faces" } }, async (request) => {
    const { image, options: faceOptions } = await readImageCall(request, v1FacesRequestSchema, downloadFor(request))
    return ok(await vision.faces(image, faceOptions))
  })

  app.post("/api/v1/objects", { ...routeOptions, config: { apiEndpoint: "objects" } }, async (request) => {
    const { image } = await readImageCall(request, v1ObjectsRequestSchema, downloadFor(request))
    return ok(await vision.objects(image))
  })
}
