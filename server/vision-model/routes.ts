/**
 * POST /api/analyze/ask, POST /api/analyze/translate, POST /api/analyze/translate-images and GET /api/analyze/usage for
 * a signed-in session (the extension's or the site's): each parses its input and calls the vision model service.
 */
import type { FastifyError, FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import {
  MAX_TRANSLATE_BATCH_LINES,
  MAX_TRANSLATE_LINES,
  MAX_TRANSLATE_TEXT_LENGTH,
  translateAnswerSchema,
  translateImagesAnswerSchema,
  translateImagesRequestSchema,
  translateRequestSchema
} from "~core/analysis/translate"
import {
  MAX_HISTORY_ANSWER_LENGTH,
  MAX_HISTORY_TURNS,
  MAX_IMAGE_DATA_URL_LENGTH,
  MAX_QUESTION_LENGTH,
  vqaAnswerSchema,
  vqaAskRequestSchema,
  vqaUsageReportSchema
} from "~core/analysis/vqa"

import { requireUser } from "../auth/authenticate"
import { documented, parseRequest, type RouteDoc } from "../openapi/route-docs"
import { visionModelService, type VisionModelOptions } from "./vision-model-service"
import { imageTooLarge } from "../image-input/image-checks"

/** A JSON body holding the largest image as a data URL, the longest question and the longest history, escaped. */
export const ASK_BODY_LIMIT = MAX_IMAGE_DATA_URL_LENGTH + (MAX_HISTORY_TURNS + 1) * (MAX_QUESTION_LENGTH + MAX_HISTORY_ANSWER_LENGTH) * 6 + 16 * 1024

/** A JSON body holding the longest text to translate with every character escaped, and the languages. */
export const TRANSLATE_BODY_LIMIT = MAX_TRANSLATE_TEXT_LENGTH * 6 + MAX_TRANSLATE_LINES * 4 + 1024

/**
 * A JSON body holding the longest lines of every image with every character escaped, each line's quotes and comma,
 * each image's {"lines":[]} and comma, and the languages.
 */
export const TRANSLATE_IMAGES_BODY_LIMIT = MAX_TRANSLATE_TEXT_LENGTH * 6 + MAX_TRANSLATE_BATCH_LINES * (4 + 16) + 1024

/** A body too large to parse can only be an oversized image: answer it like one. */
export function oversizedBodyAsImage(error: FastifyError): never {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw imageTooLarge()
  throw error
}

/** What a question and a translation are refused for, here and on /api/v1 (the same service answers both). */
const MODEL_REFUSALS = {
  403: "MFA_ENROLLMENT_REQUIRED: the caller's organisation requires two-step sign-in, which they have not turned on; nothing is counted.",
  429: "QUOTA_EXCEEDED: the plan's monthly quota is spent (retryAfter: until the next month); RATE_LIMIT_EXCEEDED: 3 calls of this account are running already.",
  502: "PROVIDER_ERROR: the vision model failed; the call is not counted.",
  503: "VQA_NOT_CONFIGURED: this server has no vision model."
}

/** The reference of POST /api/analyze/ask and POST /api/v1/ask: the same body, answer and refusals. */
export const ASK_DOC: Omit<RouteDoc, "tag"> = {
  summary: "Ask a question about an image",
  description: "The image as a data URL or an https URL the server downloads; earlier turns of the chat may come along. Counts one request of the plan's monthly quota.",
  body: vqaAskRequestSchema,
  data: { 200: vqaAnswerSchema },
  errors: {
    ...MODEL_REFUSALS,
    400: "INVALID_IMAGE, URL_NOT_ALLOWED (not a public https address), IMAGE_FETCH_FAILED, or MODEL_NOT_ALLOWED.",
    413: "IMAGE_TOO_LARGE: more than 8 MB."
  }
}

/** The reference of POST /api/analyze/translate and POST /api/v1/translate. */
export const TRANSLATE_DOC: Omit<RouteDoc, "tag"> = {
  summary: "Translate a text, or an image's lines",
  description: "Into one of the listed languages; lines come back translated one for one. Counts one request of the plan's monthly quota.",
  body: translateRequestSchema,
  data: { 200: translateAnswerSchema },
  errors: MODEL_REFUSALS
}

/** The reference of POST /api/analyze/translate-images. */
export const TRANSLATE_IMAGES_DOC: Omit<RouteDoc, "tag"> = {
  summary: "Translate the lines of several images",
  description: `Up to ${MAX_TRANSLATE_BATCH_LINES} lines of all images together, in one call to the model; each image's lines come back translated one for one. Each image translated counts one request of the plan's monthly quota: when the quota has room for only some, the first ones are translated and the others come back null, with quotaExceeded saying why.`,
  body: translateImagesRequestSchema,
  data: { 200: translateImagesAnswerSchema },
  errors: { ...MODEL_REFUSALS, 429: `${MODEL_REFUSALS[429]} QUOTA_EXCEEDED only when not one image can be counted.` }
}

export async function visionModelRoutes(app: FastifyInstance, options: VisionModelOptions = {}): Promise<void> {
  const visionModel = visionModelService(app, options)

  const usage = documented({ tag: "Analysis", summary: "The month's questions and translations, and the plan's limit", data: { 200: vqaUsageReportSchema } })
  app.get("/api/analyze/usage", { preHandler: requireUser, schema: usage }, async (request) => ok(await visionModel.usage(request.auth!.user)))

  app.post(
    "/api/analyze/ask",
    // Before the body is read: an anonymous caller must not make us receive and parse up to ASK_BODY_LIMIT bytes.
    { onRequest: requireUser, bodyLimit: ASK_BODY_LIMIT, errorHandler: oversizedBodyAsImage, schema: documented({ tag: "Analysis", ...ASK_DOC }) },
    async (request) => ok(await visionModel.ask(request.auth!.user, request.log, parseRequest(request, "body", vqaAskRequestSchema)))
  )

  app.post(
    "/api/analyze/translate",
    // Before the body is read, as for questions.
    { onRequest: requireUser, bodyLimit: TRANSLATE_BODY_LIMIT, schema: documented({ tag: "Analysis", ...TRANSLATE_DOC }) },
    async (request) => ok(await visionModel.translate(request.auth!.user, request.log, parseRequest(request, "body", translateRequestSchema)))
  )

  app.post(
    "/api/analyze/translate-images",
    // Before the body is read, as for questions.
    { onRequest: requireUser, bodyLimit: TRANSLATE_IMAGES_BODY_LIMIT, schema: documented({ tag: "Analysis", ...TRANSLATE_IMAGES_DOC }) },
    async (request) => ok(await visionModel.translateImages(request.auth!.user, request.log, parseRequest(request, "body", translateImagesRequestSchema)))
  )
}
