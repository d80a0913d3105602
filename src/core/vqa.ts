/** Questions to the vision model (visual question answering): request and answer shapes, limits, models. */
import * as z from "zod"

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

export const vqaAskRequestSchema = z.strictObject({
  image: vqaImageSchema,
  question: z
    .string({ message: "A question is required" })
    .trim()
    .min(1, "A question is required")
    .max(MAX_QUESTION_LENGTH, `The question must be at most ${MAX_QUESTION_LENGTH} characters`),
  model: z.string().trim().min(1).max(100).optional()
})

export type VqaAskRequest = z.infer<typeof vqaAskRequestSchema>

export interface VqaUsage {
  used: number
  /** null: unlimited. */
  limit: number | null
  /** ISO time of the first instant of the next UTC month, when the count starts again. */
  resetsAt: string
}

/** GET /api/analyze/usage */
export interface VqaUsageReport extends VqaUsage {
  plan: "free" | "pro" | "enterprise"
}

/** POST /api/analyze/ask */
export interface VqaAnswer {
  answer: string
  model: string
  usage: VqaUsage
}
