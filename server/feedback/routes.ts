import multipart from "@fastify/multipart"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import * as z from "zod"

import { ok } from "~core/api-answer"
import {
  FEEDBACK_IMAGE_TYPES,
  feedbackDeletedAnswerSchema,
  feedbackListAnswerSchema,
  feedbackReplySchema,
  feedbackSchema,
  feedbackUpdateSchema,
  type FeedbackFlags
} from "~core/admin/feedback"

import { requireAdmin } from "../auth/require-admin"
import { capRequestBody } from "../http/body-cap"
import { parseInput } from "../http/errors"
import { perIpRateLimit } from "../http/rate-limit"
import { docsTagged, jsonAnswer, parseRequest } from "../openapi/route-docs"
import { ConfirmationLimit } from "./confirmation-limit"
import {
  bodyTooLarge,
  DEFAULT_FEEDBACK_LIMITS,
  FEEDBACK_MULTIPART_OPTIONS,
  readSubmission,
  refusal,
  type FeedbackLimits,
  type Submission
} from "./feedback-form"
import { feedbackFormSchema, feedbackListQuerySchema, feedbackPageQuerySchema, feedbackStatusParamsSchema } from "./feedback-schemas"
import { feedbackService } from "./feedback-service"
import { storedImageNames } from "./feedback-store"
import { FeedbackImageStore } from "./image-store"

export interface FeedbackRoutesOptions {
  flags: FeedbackFlags
  /** Tests lower them; DEFAULT_FEEDBACK_LIMITS otherwise. */
  limits?: Partial<FeedbackLimits>
}

/** Per IP: enough for people, too few to fill the disk. */
const FEEDBACK_RATE_LIMIT = perIpRateLimit({ max: 10, timeWindow: 60 * 60_000 })

const feedbackDoc = docsTagged("Feedback")
const NO_SUCH_FEEDBACK = { 404: "NOT_FOUND: no feedback has this id." }
const LIST_ANSWER = { 200: jsonAnswer("OK: a page of feedback, newest first, and the counts per status in meta.", feedbackListAnswerSchema) }
/** An uploaded image, as it was sent (its type checked from its bytes). */
const IMAGE_ANSWER = {
  description: "The image, as a download.",
  content: Object.fromEntries(Object.keys(FEEDBACK_IMAGE_TYPES).map((type) => [type, { schema: z.file().mime(type) }]))
}

/** POST /api/feedback (anyone) and the admin calls that list, read, answer, close and delete feedback. */
export async function feedbackRoutes(app: FastifyInstance, { flags, limits: overrides }: FeedbackRoutesOptions): Promise<void> {
  const limits = { ...DEFAULT_FEEDBACK_LIMITS, ...overrides }
  const db = app.database.db
  const confirmations = new ConfirmationLimit({ perAddress: limits.confirmationsPerAddress, perServer: limits.confirmationsPerServer }, app.limits, app.clock)
  const store = new FeedbackImageStore(app.config.dataDir, app.objectStorage, limits.diskBudgetBytes, app.clock)
  // Storage that cannot be read at start must not keep the API down: uploads fail on their own until it answers.
  await store.prepare(() => storedImageNames(db)).catch((error: unknown) => app.log.error({ err: error }, "the feedback image storage could not be listed at start"))

  const feedback = feedbackService(app, flags, store, confirmations)
  await app.register(multipart, FEEDBACK_MULTIPART_OPTIONS)

  // A body declared too large is refused before any of it is read.
  const refuseDeclaredOversize = async (request: FastifyRequest, reply: FastifyReply) => {
    if (Number(request.headers["content-length"]) > limits.bodyBytes) throw bodyTooLarge(reply)
  }

  const submit = feedbackDoc({
    summary: "Send feedback",
    description: "The landing page's form: an address, a message and up to 5 images. A confirmation is e-mailed when the server sends them.",
    consumes: ["multipart/form-data"],
    body: feedbackFormSchema,
    data: { 201: feedbackSchema },
    errors: {
      400: "VALIDATION_FAILED: a field breaks the form's rules; INVALID_IMAGE: not a JPEG, PNG or GIF, or too many pixels.",
      413: "PAYLOAD_TOO_LARGE: the form is too large; IMAGE_TOO_LARGE: an image is over 5 MB.",
      415: "UNSUPPORTED_MEDIA_TYPE: not multipart/form-data.",
      503: "SERVICE_UNAVAILABLE: the images cannot be stored now; nothing was saved.",
      507: "INSUFFICIENT_STORAGE: no room for more images now."
    }
  })
  app.post("/api/feedback", { config: FEEDBACK_RATE_LIMIT, onRequest: refuseDeclaredOversize, schema: submit }, async (request, reply) => {
    if (!request.isMultipart()) throw refusal(415, "UNSUPPORTED_MEDIA_TYPE", "Send the feedback as multipart/form-data.")
    // A chunked body declares no length: it is counted as it arrives.
    const cap = capRequestBody(request.raw, limits.bodyBytes)
    let submission: Submission
    try {
      submission = await readSubmission(request, store, flags)
    } catch (error) {
      if (cap.exceeded) throw bodyTooLarge(reply)
      throw error
    } finally {
      cap.release()
    }
    return reply.status(201).send(ok(await feedback.submit(submission, request.log)))
  })

  const listAll = feedbackDoc({
    summary: "List feedback",
    description: "status filters by status. The product's first form of that filter, GET /api/feedback/status/{status}, answers the same and is left out of this reference: beside POST /api/feedback/{id}/reply its path is ambiguous to client generators.",
    querystring: feedbackListQuerySchema,
    answers: LIST_ANSWER
  })
  app.get("/api/feedback", { preHandler: requireAdmin, schema: listAll }, async (request) => feedback.list(parseRequest(request, "querystring", feedbackListQuerySchema)))

  // The spec's path form of ?status=, kept for its callers; hidden from the reference (openapi.ts, UNDOCUMENTED_ROUTES).
  // Read with parseInput: a hidden route declares no schema for parseRequest to match.
  app.get("/api/feedback/status/:status", { preHandler: requireAdmin, schema: { hide: true } }, async (request) => {
    const { status } = parseInput(feedbackStatusParamsSchema, request.params)
    return feedback.list({ ...parseInput(feedbackPageQuerySchema, request.query), status })
  })

  const image = feedbackDoc({ summary: "An image of a feedback", answers: { 200: IMAGE_ANSWER }, errors: { 404: "NOT_FOUND: no image has this name." } })
  app.get<{ Params: { name: string } }>("/api/feedback-images/:name", { preHandler: requireAdmin, schema: image }, async (request, reply) => {
    const { row, bytes } = await feedback.image(request.params.name)
    return reply
      .header("content-type", row.content_type)
      .header("content-length", row.byte_size)
      .header("x-content-type-options", "nosniff")
      // Opened on its own, an uploaded file is a download in a sandbox, never a page of our origin. The generated name has nothing to escape.
      .header("content-disposition", `attachment; filename="${request.params.name}"`)
      .header("content-security-policy", "sandbox; default-src 'none'")
      .header("cache-control", "private, max-age=3600")
      .send(bytes)
  })

  const read = feedbackDoc({ summary: "One feedback, with its replies", data: { 200: feedbackSchema }, errors: NO_SUCH_FEEDBACK })
  app.get<{ Params: { id: string } }>("/api/feedback/:id", { preHandler: requireAdmin, schema: read }, async (request) => {
    return ok(await feedback.read(request.params.id))
  })

  const setStatus = feedbackDoc({ summary: "Set a feedback's status", body: feedbackUpdateSchema, data: { 200: feedbackSchema }, errors: NO_SUCH_FEEDBACK })
  app.put<{ Params: { id: string } }>("/api/feedback/:id", { preHandler: requireAdmin, schema: setStatus }, async (request) => {
    const { status } = parseRequest(request, "body", feedbackUpdateSchema)
    return ok(await feedback.setStatus(request.params.id, status))
  })

  const answer = feedbackDoc({
    summary: "Reply to a feedback",
    description: "The reply is e-mailed to the sender when the server sends e-mails; the feedback becomes replied.",
    body: feedbackReplySchema,
    data: { 200: feedbackSchema },
    errors: NO_SUCH_FEEDBACK
  })
  app.post<{ Params: { id: string } }>("/api/feedback/:id/reply", { preHandler: requireAdmin, schema: answer }, async (request) => {
    const input = parseRequest(request, "body", feedbackReplySchema)
    return ok(await feedback.reply(request.params.id, input, request.auth!.user.id))
  })

  const remove = feedbackDoc({ summary: "Delete a feedback and its images", data: { 200: feedbackDeletedAnswerSchema }, errors: NO_SUCH_FEEDBACK })
  app.delete<{ Params: { id: string } }>("/api/feedback/:id", { preHandler: requireAdmin, schema: remove }, async (request) => {
    await feedback.remove(request.params.id)
    return ok({ deleted: true, id: request.params.id })
  })
}
