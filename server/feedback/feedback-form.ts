/**
 * The feedback form as it arrives (multipart/form-data): its limits, the reading of its fields, and each image
 * staged on disk as it streams in (checked by its leading bytes and its pixel count, within the disk budget of
 * image-store.ts), every problem kept until the whole body is read so that the sender always gets the answer.
 * The routes only call readSubmission and commit what it staged.
 */
import type { FileHandle } from "node:fs/promises"

import type { MultipartFile, MultipartValue } from "@fastify/multipart"
import type { FastifyReply, FastifyRequest } from "fastify"

import {
  detectFeedbackImageType,
  FEEDBACK_TEXTS,
  feedbackTextProblem,
  IMAGE_SIGNATURE_BYTES,
  type FeedbackFlags,
  type FeedbackImageType
} from "~core/admin/feedback"
import { FEEDBACK_CONFIRMATIONS_PER_ADDRESS, FEEDBACK_CONFIRMATIONS_PER_SERVER } from "./confirmation-limit"
import { FEEDBACK_MAX_IMAGE_BYTES, FEEDBACK_MAX_IMAGES } from "~core/admin/feedback"
import { imageDimensions } from "~core/images/image-dimensions"

import { ApiError } from "../http/errors"
import { lingerAfterAnswer } from "../http/request-limits"
import { FEEDBACK_DISK_BUDGET_BYTES, type FeedbackImageStore, type StagedImage } from "./image-store"

/**
 * The most pixels an uploaded image may declare. A few kilobytes of PNG or GIF can declare an image
 * whose decoded pixels take gigabytes: the admin's browser would decode it when showing the feedback.
 */
export const FEEDBACK_MAX_IMAGE_PIXELS = 40_000_000

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

/** @fastify/multipart's limits for the feedback form: the parser itself cuts what no real form needs. */
export const FEEDBACK_MULTIPART_OPTIONS = {
  throwFileSizeLimit: false,
  limits: {
    fileSize: FEEDBACK_MAX_IMAGE_BYTES,
    files: FEEDBACK_MAX_IMAGES,
    fields: FIELD_COUNT_LIMIT,
    fieldSize: FIELD_SIZE_LIMIT,
    parts: FEEDBACK_MAX_IMAGES + FIELD_COUNT_LIMIT,
    headerPairs: 50
  }
}

const FILE_NAME_SHOWN_MAX = 120

export const refusal = (status: number, code: string, message: string) =>
  new ApiError(status, code, `${FEEDBACK_TEXTS.validationPrefix}: ${message}`, { details: [message] })

/** Not the sender's fault, so not a "Validation failed" refusal. */
const noRoomForImages = () =>
  new ApiError(507, "INSUFFICIENT_STORAGE", "The server has no room for more images right now. Please send your feedback without images, or try again later.")

/** The rest of an oversized body is not read: the connection closes after this answer. */
export function bodyTooLarge(reply: FastifyReply): ApiError {
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

export interface Submission {
  email: string
  message: string
  staged: StagedImage[]
}

/** Reads the whole form. Every problem is kept until the body is read, so the client always gets the answer. */
export async function readSubmission(request: FastifyRequest, store: FeedbackImageStore, flags: FeedbackFlags): Promise<Submission> {
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
