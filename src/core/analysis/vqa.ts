/** Questions to the vision model (visual question answering): request and answer shapes, limits, models. */
import * as z from "zod"

import { poolUsageSchema } from "../organizations"
import { PLAN_IDS } from "../billing/plans"

/** Largest image, decoded, the server accepts or downloads: 8 MiB. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024
export const MAX_QUESTION_LENGTH = 2000
/** Longest https URL of an image. */
export const MAX_IMAGE_URL_LENGTH = 2048
/** Models a caller may choose; the server's configured VQA_MODEL is allowed too. */
export const VQA_MODELS = ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"] as const
/** Image formats the server accepts, recognised by their leading bytes, not by the declared type. */
export const VQA_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const
export type VqaImageType = (typeof VQA_IMAGE_TYPES)[number]

/** Length of a base64 text that decodes to `bytes` bytes. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4
}

/** A data URL of the largest image is at most this long ("data:image/webp;base64," and padding included). */
export const MAX_IMAGE_DATA_URL_LENGTH = base64Length(MAX_IMAGE_BYTES) + 64

export const vqaImageSchema = z.union([
  z.strictObject({
    dataUrl: z
      .string()
      .min(1, "The image is empty")
      // Longer ones are answered 413 by the server after this check, so let them through here.
      .refine((value) => value.startsWith("data:"), "must be a data: URL")
  }),
  z.strictObject({
    url: z
      .string()
      .trim()
      .min(1, "The image URL is empty")
      .max(MAX_IMAGE_URL_LENGTH, `must be at most ${MAX_IMAGE_URL_LENGTH} characters`)
  })
], { message: "image must be { dataUrl } or { url }" })

/** Earlier turns of a chat about the same image the model sees again: at most this many. */
export const MAX_HISTORY_TURNS = 10
/** Longest earlier answer sent back to the model. */
export const MAX_HISTORY_ANSWER_LENGTH = 4000

export const vqaHistoryTurnSchema = z.strictObject({
  question: z.string().trim().min(1).max(MAX_QUESTION_LENGTH, `An earlier question must be at most ${MAX_QUESTION_LENGTH} characters`),
  answer: z.string().trim().min(1).max(MAX_HISTORY_ANSWER_LENGTH, `An earlier answer must be at most ${MAX_HISTORY_ANSWER_LENGTH} characters`)
})

export type VqaHistoryTurn = z.infer<typeof vqaHistoryTurnSchema>

export const vqaAskRequestSchema = z.strictObject({
  image: vqaImageSchema,
  /** The conversation so far about this image, oldest first; the model answers the new question in its light. */
  history: z.array(vqaHistoryTurnSchema).max(MAX_HISTORY_TURNS, `At most ${MAX_HISTORY_TURNS} earlier turns can be sent`).optional(),
  question: z
    .string({ message: "A question is required" })
    .trim()
    .min(1, "A question is required")
    .max(MAX_QUESTION_LENGTH, `The question must be at most ${MAX_QUESTION_LENGTH} characters`),
  model: z.string().trim().min(1).max(100).optional()
})

export const vqaUsageSchema = z.object({
  used: z.number().int(),
  /** null: unlimited. */
  limit: z.number().int().nullable(),
  /** ISO time of the first instant of the next UTC month, when the count starts again. */
  resetsAt: z.string()
})
export type VqaUsage = z.infer<typeof vqaUsageSchema>

/** GET /api/analyze/usage: a member of an organisation draws from its pool, which `used` and `limit` then count. */
export const vqaUsageReportSchema = vqaUsageSchema.extend({ plan: z.enum(PLAN_IDS), pool: poolUsageSchema.nullable().optional() })
export type VqaUsageReport = z.infer<typeof vqaUsageReportSchema>

/** POST /api/analyze/ask */
export const vqaAnswerSchema = z.object({ answer: z.string(), model: z.string(), usage: vqaUsageSchema })
export type VqaAnswer = z.infer<typeof vqaAnswerSchema>
