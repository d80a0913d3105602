import { ApiRequestError } from "~api/client"
import { FEEDBACK_TEXTS } from "~core/feedback"

/** The submit failure as section 8 words it. */
export function feedbackSubmitError(error: unknown): string {
  if (!(error instanceof Error)) return FEEDBACK_TEXTS.unexpected
  if (error instanceof ApiRequestError) {
    if (error.status >= 500 || error.code === "SERVICE_UNAVAILABLE") return FEEDBACK_TEXTS.unavailable
    if (error.message.includes(FEEDBACK_TEXTS.validationPrefix)) return error.message
    if (error.status === 429) return error.message
  }
  return FEEDBACK_TEXTS.failed
}
