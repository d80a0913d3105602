import type { FileHandle } from "node:fs/promises"

import multipart, { type MultipartFile, type MultipartValue } from "@fastify/multipart"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { ok } from "~core/api"
import { EMAIL_TEMPLATES } from "~core/email-templates"
import {
  DEFAULT_REPLY_AUTHOR,
  detectFeedbackImageType,
  FEEDBACK_TEXTS,
  feedbackListQuerySchema,
  feedbackReplySchema,
  feedbackStatusSchema,
  feedbackTextProblem,
  feedbackUpdateSchema,
  IMAGE_SIGNATURE_BYTES,
  type FeedbackFlags,
  type FeedbackImageType
} from "~core/feedback"
import {
  FEEDBACK_CONFIRMATIONS_PER_ADDRESS,
  FEEDBACK_CONFIRMATIONS_PER_SERVER,
  FEEDBACK_MAX_IMAGE_BYTES,
  FEEDBACK_MAX_IMAGES
} from "~core/limits"

import { requireAdmin } from "../auth/authenticate"
import { capRequestBody } from "../http/body-cap"
import { ApiError, notFound, parseInput, validationFailed } from "../http/errors"
import { perIpRateLimit } from "../http/rate-limit"
import { lingerAfterAnswer } from "../http/request-limits"
import { queueEmail } from "../mail/outbox"
import { StorageUnavailableError } from "../storage/object-storage"
import {
  addReply,
  deleteFeedback,
  findFeedback,
  findFeedbackImage,
  insertFeedback,
  listFeedback,
  setFeedbackStatus,
  storedImageNames
} from "./feedback-service"
import { ConfirmationLimit } from "./confirmation-limit"
import { FEEDBACK_MAX_IMAGE_PIXELS, imageDimensions } from "./image-dimensions"
import { FEEDBACK_DISK_BUDGET_BYTES, FeedbackImageStore, type StagedImage } from "./image-store"

/** A field far above the message's 1000 characters is cut by the parser and refused. */
const FIELD_SIZE_LIMIT = 16 * 1024
const FIELD_COUNT_LIMIT = 8
/** Every image and field at its limit, and room for part headers and boundaries: no real form is larger. */
export const FEEDBACK_BODY_LIMIT = FEEDBACK_MAX_IMAGES * FEEDBACK_MAX_IMAGE_BYTES + FIELD_COUNT_LIMIT * FIELD_SIZE_LIMIT + 64 * 1024

export interface FeedbackLimits {
  /** Confirmation e-mails per recipient address per hour. */
  confirmationsPerAddress: number
  /** Confirmation e-mails per hour from the whole server. */
  confirmationsPerServer: number
  /** The whole multipart body, declared or streamed. */
  bodyBytes: number
  /** All stored images together. */
  diskBudgetBytes: number
}

export const DEFAULT_FEEDBACK_LIMITS: FeedbackLimits = {
  confirmationsPerAddress: FEEDBACK_CONFIRMATIONS_PER_ADDRESS,
  confirmationsPerServer: FEEDBACK_CONFIRMATIONS_PER_SERVER,
  bodyBytes: FEEDBACK_BODY_LIMIT,
  diskBudgetBytes: FEEDBACK_DISK_BUDGET_BYTES
}

export interface FeedbackRoutesOptions {
  flags: FeedbackFlags
  /** Tests lower them; DEFAULT_FEEDBACK_LIMITS otherwise. */
  limits?: Partial<FeedbackLimits>
}

/** Per IP: enough for people, too few to fill the disk. */
const FEEDBACK_RATE_LIMIT = perIpRateLimit({ max: 10, timeWindow: 60 * 60_000 })

const FILE_NAME_SHOWN_MAX = 120

const refusal = (status: number, code: string, message: string) =>
  new ApiError(status, code, `${FEEDBACK_TEXTS.validationPrefix}: ${message}`, { details: [message] })

/** Not the sender's fault, so not a "Validation failed" refusal. */
const noRoomForImages = () =>
  new ApiError(507, "INSUFFICIENT_STORAGE", "The server has no room for more images right now. Please send your feedback without images, or try again later.")

/** The rest of an oversized body is not read: the connection closes after this answer. */
function bodyTooLarge(reply: FastifyReply): ApiError {
  reply.header("connection", "close")
  lingerAfterAnswer(reply.raw.socket)
  return refusal(413, "PAYLOAD_TOO_LARGE", `The form is too large. Send at most ${FEEDBACK_MAX_IMAGES} images of up to 5MB each.`)
}

function displayName(name: string | undefined): string {
  // Control characters would garble the messages that quote the name.
  const trimmed = Array.from(name ?? "").filter((char) => char >= " " && char !== "\u007f").join("").trim() || "image"
  return Array.from(trimmed).slice(0, FILE_NAME_SHOWN_MAX).join("")
}

/** Refuses an image whose header cannot be read or declares more than FEEDBACK_MAX_IMAGE_PIXELS. */
async function pixelProblem(type: FeedbackImageType, handle: FileHandle, name: string): Promise<ApiError | null> {
  const dimensions = await imageDimensions(type, async (position, length) => {
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, position)
    return buffer.subarray(0, bytesRead)
  })
  if (!dimensions) return refusal(400, "INVALID_IMAGE", FEEDBACK_TEXTS.invalidType(name))
  if (dimensions.width * dimensions.height <= FEEDBACK_MAX_IMAGE_PIXELS) return null
  return refusal(
    400,
    "INVALID_IMAGE",
    `${name} is too large: ${dimensions.width} × ${dimensions.height} pixels. Maximum ${FEEDBACK_MAX_IMAGE_PIXELS / 1_000_000} megapixels.`
  )
}

/** Writes one uploaded file to staging, flushed to disk, checking its size and its leading bytes. */
async function stageImage(store: FeedbackImageStore, part: MultipartFile, staged: StagedImage[]): Promise<ApiError | null> {
  const originalName = displayName(part.filename)
  const { tempPath, handle } = await store.openStagingFile()
  // Registered before the first await so a failure below never leaves the file behind.
  const entry: StagedImage = { tempPath, contentType: "image/png", byteSize: 0, originalName, reservedBytes: 0 }
  staged.push(entry)
  let head = Buffer.alloc(0)
  let problem: ApiError | null = null
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      entry.byteSize += chunk.length
      if (problem) continue
      if (head.length < IMAGE_SIGNATURE_BYTES) {
        head = Buffer.concat([head, chunk.subarray(0, IMAGE_SIGNATURE_BYTES - head.length)])
        if (head.length >= IMAGE_SIGNATURE_BYTES && !detectFeedbackImageType(head)) {
          problem = refusal(400, "INVALID_IMAGE", FEEDBACK_TEXTS.invalidType(originalName))
          continue
        }
      }
      if (!store.reserve(entry, chunk.length)) {
        problem = noRoomForImages()
        continue
      }
      await handle.write(chunk)
    }
    if (!problem && part.file.truncated) problem = refusal(413, "IMAGE_TOO_LARGE", FEEDBACK_TEXTS.tooLarge(originalName))
    const type = detectFeedbackImageType(head)
    if (!problem && !type) problem = refusal(400, "INVALID_IMAGE", FEEDBACK_TEXTS.invalidType(originalName))
    if (!problem && type) problem = await pixelProblem(type, handle, originalName)
    if (!problem && type) {
      entry.contentType = type
      await handle.sync()
    }
  } finally {
    await handle.close()
  }
  return problem
}

interface Submission {
  email: string
  message: string
  staged: StagedImage[]
}

/** Reads the whole form. Every problem is kept until the body is read, so the client always gets the answer. */
async function readSubmission(request: FastifyRequest, store: FeedbackImageStore, flags: FeedbackFlags): Promise<Submission> {
  const staged: StagedImage[] = []
  const fields: Record<string, string> = {}
  let problem: ApiError | null = null
  let images = 0
  try {
    for await (const part of request.parts()) {
      if (part.type === "field") {
        const field = part as MultipartValue<unknown>
        if (field.valueTruncated) {
          problem ??= refusal(400, "VALIDATION_FAILED", "Message must be at most 1000 characters long.")
        } else if ((field.fieldname === "email" || field.fieldname === "message") && typeof field.value === "string") {
          fields[field.fieldname] = field.value
        }
        continue
      }
      if (part.fieldname !== "images" || !flags.fileUploads) {
        problem ??= refusal(400, "VALIDATION_FAILED", flags.fileUploads ? `Unexpected file field "${part.fieldname}"; send images as "images".` : "Image uploads are turned off.")
        await drain(part)
        continue
      }
      images += 1
      if (problem) {
        await drain(part)
        continue
      }
      problem = await stageImage(store, part, staged)
    }
  } catch (error) {
    await store.discard(staged)
    const code = (error as { code?: string }).code
    if (code === "FST_FILES_LIMIT") throw refusal(400, "VALIDATION_FAILED", FEEDBACK_TEXTS.tooMany)
    if (code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT") throw refusal(400, "VALIDATION_FAILED", "The form has too many fields.")
    if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") throw refusal(415, "UNSUPPORTED_MEDIA_TYPE", "Send the feedback as multipart/form-data.")
    if (error instanceof ApiError) throw error
    // A file-system failure (no space, no permission) is ours; anything else is a body the parser could not read.
    if (typeof (error as NodeJS.ErrnoException).errno === "number") throw error
    throw refusal(400, "VALIDATION_FAILED", "The form data could not be read.")
  }
  const email = fields.email?.trim() ?? ""
  const message = fields.message ?? ""
  problem ??= (() => {
    const text = feedbackTextProblem(email, message)
    return text ? refusal(400, "VALIDATION_FAILED", text) : null
  })()
  if (!problem && images > FEEDBACK_MAX_IMAGES) problem = refusal(400, "VALIDATION_FAILED", FEEDBACK_TEXTS.tooMany)
  if (problem) {
    await store.discard(staged)
    throw problem
  }
  return { email, message: message.trim(), staged }
}

async function drain(part: MultipartFile): Promise<void> {
  for await (const _chunk of part.file) {
    // The bytes of a refused file are read and dropped so the rest of the form arrives.
  }
}

const feedbackNotFound = () => notFound("This feedback does not exist.")

/** POST /api/feedback (anyone) and the admin calls that list, read, answer, close and delete feedback. */
export async function feedbackRoutes(app: FastifyInstance, { flags, limits: overrides }: FeedbackRoutesOptions): Promise<void> {
  const limits = { ...DEFAULT_FEEDBACK_LIMITS, ...overrides }
  const db = app.database.db
  const confirmations = new ConfirmationLimit({ perAddress: limits.confirmationsPerAddress, perServer: limits.confirmationsPerServer }, app.limits, app.clock)
  const store = new FeedbackImageStore(app.config.dataDir, app.objectStorage, limits.diskBudgetBytes, app.clock)
  // Storage that cannot be read at start must not keep the API down: uploads fail on their own until it answers.
  await store.prepare(() => storedImageNames(db)).catch((error: unknown) => app.log.error({ err: error }, "the feedback image storage could not be listed at start"))

  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: FEEDBACK_MAX_IMAGE_BYTES,
      files: FEEDBACK_MAX_IMAGES,
      fields: FIELD_COUNT_LIMIT,
      fieldSize: FIELD_SIZE_LIMIT,
      parts: FEEDBACK_MAX_IMAGES + FIELD_COUNT_LIMIT,
      headerPairs: 50
    }
  })


  // A body declared too large is refused before any of it is read.
  const refuseDeclaredOversize = async (request: FastifyRequest, reply: FastifyReply) => {
    if (Number(request.headers["content-length"]) > limits.bodyBytes) throw bodyTooLarge(reply)
  }

  app.post("/api/feedback", { config: FEEDBACK_RATE_LIMIT, onRequest: refuseDeclaredOversize }, async (request, reply) => {
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
    // Files first, flushed and named, then the row: once the row exists, nothing it points to can be missing.
    const images = await store.commit(submission.staged).catch((error: unknown) => {
      if (!(error instanceof StorageUnavailableError)) throw error
      request.log.error({ err: error }, "feedback images could not be stored")
      throw new ApiError(503, "SERVICE_UNAVAILABLE", "Your images could not be stored right now, so nothing was saved. Please try again in a few minutes.")
    })
    // The confirmation's limits are counted first: a limit store that cannot answer costs the mail, not the feedback.
    let confirm = false
    if (flags.emailNotifications) {
      const refusedBy = await confirmations.take(submission.email).catch((error: unknown) => {
        request.log.warn({ err: error }, "feedback confirmation limit unavailable")
        return "unavailable" as const
      })
      // The feedback itself is kept and acknowledged; only the mail is skipped. The address is no one's business at info level.
      if (refusedBy) request.log.info({ limit: refusedBy }, "feedback confirmation not sent: its hourly limit is reached")
      confirm = !refusedBy
    }
    let feedback
    try {
      // The confirmation is queued in the feedback's own transaction: stored and promised together.
      const content = EMAIL_TEMPLATES.feedbackConfirmation({ imageCount: images.length })
      feedback = await insertFeedback(db, { email: submission.email, message: submission.message, images }, new Date(app.clock()), async (trx) => {
        if (confirm) await queueEmail(app, trx, { to: submission.email, what: "feedback confirmation", content })
      })
    } catch (error) {
      await store.remove(images)
      throw error
    }
    return reply.status(201).send(ok(feedback))
  })

  const list = async (status: string | undefined, query: unknown) => {
    const input = parseInput(feedbackListQuerySchema, { ...(query as object), ...(status === undefined ? {} : { status }) })
    const { items, counts, total } = await listFeedback(db, input)
    return { success: true as const, data: items, meta: { page: input.page, pageSize: input.pageSize, total, counts } }
  }

  app.get("/api/feedback", { preHandler: requireAdmin }, async (request) => list(undefined, request.query))

  app.get<{ Params: { status: string } }>("/api/feedback/status/:status", { preHandler: requireAdmin }, async (request) => {
    if (!feedbackStatusSchema.safeParse(request.params.status).success) {
      throw validationFailed(["status: use pending, replied or closed"])
    }
    return list(request.params.status, request.query)
  })

  app.get<{ Params: { name: string } }>("/api/feedback/images/:name", { preHandler: requireAdmin }, async (request, reply) => {
    const row = await findFeedbackImage(db, request.params.name)
    const bytes = row ? await store.read(request.params.name) : null
    if (!row || !bytes) throw notFound("This image does not exist.")
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

  app.get<{ Params: { id: string } }>("/api/feedback/:id", { preHandler: requireAdmin }, async (request) => {
    const feedback = await findFeedback(db, request.params.id)
    if (!feedback) throw feedbackNotFound()
    return ok(feedback)
  })

  app.put<{ Params: { id: string } }>("/api/feedback/:id", { preHandler: requireAdmin }, async (request) => {
    const { status } = parseInput(feedbackUpdateSchema, request.body)
    const feedback = await setFeedbackStatus(db, request.params.id, status, new Date(app.clock()))
    if (!feedback) throw feedbackNotFound()
    return ok(feedback)
  })

  app.post<{ Params: { id: string } }>("/api/feedback/:id/reply", { preHandler: requireAdmin }, async (request) => {
    const input = parseInput(feedbackReplySchema, request.body)
    const admin = request.auth!.user
    const feedback = await addReply(
      db,
      request.params.id,
      { message: input.message.trim(), adminEmail: input.adminEmail || DEFAULT_REPLY_AUTHOR, adminUserId: admin.id },
      new Date(app.clock()),
      async (trx, replied) => {
        if (!flags.emailNotifications) return
        const content = EMAIL_TEMPLATES.feedbackReply({ reply: input.message.trim(), originalMessage: replied.message })
        await queueEmail(app, trx, { to: replied.email, what: "feedback reply", content })
      }
    )
    if (!feedback) throw feedbackNotFound()
    return ok(feedback)
  })

  app.delete<{ Params: { id: string } }>("/api/feedback/:id", { preHandler: requireAdmin }, async (request) => {
    const files = await deleteFeedback(db, request.params.id)
    if (!files) throw feedbackNotFound()
    await store.remove(files)
    return ok({ deleted: true, id: request.params.id })
  })
}
