/**
 * How the server reads feedback's queries and form: the page and status of the inbox's lists, and the multipart form
 * of POST /api/feedback as the reference describes it. The rules both sides apply are in ~core/admin/feedback.
 */
import * as z from "zod"

import { FEEDBACK_EMAIL_MAX_LENGTH, FEEDBACK_IMAGE_TYPES, FEEDBACK_MAX_IMAGE_BYTES, FEEDBACK_MAX_IMAGES, FEEDBACK_MESSAGE_DISPLAY_MAX, FEEDBACK_MESSAGE_MIN_LENGTH, FEEDBACK_STATUSES, feedbackStatusSchema, type FeedbackImageType } from "~core/admin/feedback"

export const FEEDBACK_PAGE_SIZE_DEFAULT = 50
export const FEEDBACK_PAGE_SIZE_MAX = 100
/** Who a reply is from when it names nobody. */
export const DEFAULT_REPLY_AUTHOR = "Admin"

/** GET /api/feedback/status/:status: the page asked for. */
export const feedbackPageQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(FEEDBACK_PAGE_SIZE_MAX).default(FEEDBACK_PAGE_SIZE_DEFAULT)
})

/** GET /api/feedback: the page, and the status to show. */
export const feedbackListQuerySchema = feedbackPageQuerySchema.extend({ status: feedbackStatusSchema.optional() })

export const feedbackStatusParamsSchema = z.strictObject({ status: z.enum(FEEDBACK_STATUSES, { message: "use pending, replied or closed" }) })

/**
 * POST /api/feedback, multipart/form-data, as the reference describes it. The server reads the form as a stream
 * (server/feedback/feedback-form.ts), field by field and image by image as they arrive, with the checks above
 * (feedbackTextProblem, the image checks): a schema over the whole body would mean holding 25 MB of images first.
 */
export const feedbackFormSchema = z.object({
  email: z.string().max(FEEDBACK_EMAIL_MAX_LENGTH).meta({ format: "email" }),
  message: z.string().min(FEEDBACK_MESSAGE_MIN_LENGTH).max(FEEDBACK_MESSAGE_DISPLAY_MAX),
  images: z
    .array(z.file().max(FEEDBACK_MAX_IMAGE_BYTES).mime(Object.keys(FEEDBACK_IMAGE_TYPES) as FeedbackImageType[]))
    .max(FEEDBACK_MAX_IMAGES)
    .optional()
    .meta({ description: "JPEG, PNG or GIF images, when the server takes uploads." })
})
