/**
 * Feedback: the entity, the form's rules and texts, and the image check by leading bytes. The
 * landing-page form and POST /api/feedback apply the same rules; how the server reads its queries and the form is
 * server/feedback/feedback-schemas.ts.
 */
import * as z from "zod"

import { imageTypeOf } from "../images/image-type"

export const FEEDBACK_MESSAGE_MIN_LENGTH = 10

export const FEEDBACK_MESSAGE_DISPLAY_MAX = 1000

export const FEEDBACK_MAX_IMAGES = 5

export const FEEDBACK_MAX_IMAGE_BYTES = 5 * 1024 * 1024

export const FEEDBACK_STATUSES = ["pending", "replied", "closed"] as const
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number]

export const feedbackReplyEntrySchema = z.object({
  id: z.string(),
  message: z.string(),
  /** Who replied; 'Admin' when the reply named nobody. */
  adminEmail: z.string(),
  createdAt: z.string()
})
export type FeedbackReply = z.infer<typeof feedbackReplyEntrySchema>

export const feedbackSchema = z.object({
  id: z.string(),
  email: z.string(),
  message: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  /** URLs of the attached images (admin only: they need the bearer token). */
  images: z.array(z.string()),
  replies: z.array(feedbackReplyEntrySchema),
  createdAt: z.string(),
  updatedAt: z.string()
})
export type Feedback = z.infer<typeof feedbackSchema>

export const countSchema = z.number().int().min(0)
const count = countSchema
export const feedbackCountsSchema = z.object({ all: count, pending: count, replied: count, closed: count }) satisfies z.ZodType<Record<"all" | FeedbackStatus, number>>
export type FeedbackCounts = z.infer<typeof feedbackCountsSchema>

/** What travels beside `data` (the list) in the answer of the list calls. */
export const feedbackListMetaSchema = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Feedback matching the filter. */
  total: count,
  counts: feedbackCountsSchema
})
export type FeedbackListMeta = z.infer<typeof feedbackListMetaSchema>

/** GET /api/feedback and GET /api/feedback/status/:status: the whole answer, the page of feedback and its meta. */
export const feedbackListAnswerSchema = z.object({ success: z.literal(true), data: z.array(feedbackSchema), meta: feedbackListMetaSchema })

/** DELETE /api/feedback/:id */
export const feedbackDeletedAnswerSchema = z.object({ deleted: z.literal(true), id: z.string() })

export const FEEDBACK_REPLY_MAX_LENGTH = 5000
/** Longest e-mail address accepted (RFC 5321 path limit). */
export const FEEDBACK_EMAIL_MAX_LENGTH = 254

/** The image types the form and the server accept, as their bytes show them. */
export const FEEDBACK_IMAGE_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif"
} as const
export type FeedbackImageType = keyof typeof FEEDBACK_IMAGE_TYPES

/** The feedback texts, word for word; the server's refusals reuse them so both sides say the same. */
export const FEEDBACK_TEXTS = {
  required: "Please fill in all required fields (email and message).",
  tooShort: `Message must be at least ${FEEDBACK_MESSAGE_MIN_LENGTH} characters long.`,
  invalidType: (name: string) => `${name} is not a valid image file. Please select JPG, PNG, or GIF files.`,
  tooLarge: (name: string) => `${name} is too large. Maximum file size is 5MB.`,
  tooMany: `Maximum ${FEEDBACK_MAX_IMAGES} images allowed. Please remove some images before adding more.`,
  maxReached: "Maximum images reached",
  sending: "Sending Feedback...",
  success: "Thank you! Your feedback has been submitted successfully. We will review it and get back to you soon.",
  unavailable: "Service temporarily unavailable. Please try again in a few minutes.",
  failed: "Failed to submit feedback. Please check your connection and try again.",
  unexpected: "An unexpected error occurred. Please try again.",
  /** Server refusals start with this so the form shows them as they are. */
  validationPrefix: "Validation failed"
} as const

export const FEEDBACK_ADMIN_TEXTS = {
  fetchFailed: "Failed to fetch feedbacks",
  deleteFailed: "Failed to delete feedback",
  statusFailed: "Failed to update status",
  replyFailed: "Failed to send reply",
  deleted: "Feedback deleted successfully",
  statusUpdated: "Status updated successfully",
  replySent: "Reply sent successfully",
  replyEmpty: "Please enter a reply message",
  notLoggedIn: "You must be logged in to send replies",
  deleteConfirm: "Are you sure you want to delete this feedback?",
  replyNote: "Confirmation email will be sent automatically to the user",
  noFeedback: "No feedbacks yet",
  noStatusFeedback: (status: FeedbackStatus) => `No ${status} feedbacks`,
  selectOne: "Select a feedback to view details and reply",
  imageUnavailable: "Image unavailable"
} as const

export const feedbackEmailSchema = z.email().max(FEEDBACK_EMAIL_MAX_LENGTH)

/** The first problem of the text fields, as the form shows it, or null. */
export function feedbackTextProblem(email: string, message: string): string | null {
  if (!email.trim() || !message.trim()) return FEEDBACK_TEXTS.required
  if (message.trim().length < FEEDBACK_MESSAGE_MIN_LENGTH) return FEEDBACK_TEXTS.tooShort
  if (Array.from(message).length > FEEDBACK_MESSAGE_DISPLAY_MAX) {
    return `Message must be at most ${FEEDBACK_MESSAGE_DISPLAY_MAX} characters long.`
  }
  if (!feedbackEmailSchema.safeParse(email.trim()).success) return "Please enter a valid email address."
  return null
}

/** The image type the leading bytes show (JPEG, PNG or GIF), or null: names and declared types are never trusted. */
export function detectFeedbackImageType(bytes: Uint8Array): FeedbackImageType | null {
  const type = imageTypeOf(bytes)
  return type !== null && type in FEEDBACK_IMAGE_TYPES ? (type as FeedbackImageType) : null
}

/** Bytes needed by detectFeedbackImageType. */
export const IMAGE_SIGNATURE_BYTES = 8

/** The problem of one file by its size, or null (the type is checked from its bytes separately). */
export function feedbackImageSizeProblem(name: string, size: number): string | null {
  return size > FEEDBACK_MAX_IMAGE_BYTES ? FEEDBACK_TEXTS.tooLarge(name) : null
}

export const feedbackStatusSchema = z.enum(FEEDBACK_STATUSES)

export const feedbackUpdateSchema = z.strictObject({ status: feedbackStatusSchema })

export const feedbackReplySchema = z.strictObject({
  message: z
    .string()
    .refine((value) => value.trim().length > 0, FEEDBACK_ADMIN_TEXTS.replyEmpty)
    .refine((value) => value.length <= FEEDBACK_REPLY_MAX_LENGTH, `A reply must be at most ${FEEDBACK_REPLY_MAX_LENGTH} characters`),
  adminEmail: z.string().trim().max(FEEDBACK_EMAIL_MAX_LENGTH).optional()
})

/** The feedback feature flags: e-mail notifications and image uploads. */
export interface FeedbackFlags {
  emailNotifications: boolean
  fileUploads: boolean
}
