import { ApiRequestError } from "~http/http-client"
import { FEEDBACK_TEXTS } from "~core/admin/feedback"

/**
 * The text of a failed feedback submit: the server's own words for a validation refusal or a rate limit,
 * 'Service temporarily unavailable' on a 5xx, the generic failure for other refusals and network errors,
 * and 'An unexpected error occurred' when what was thrown is not an Error.
 */
export function feedbackSubmitError(error: unknown): string {
  if (!(error instanceof Error)) return FEEDBACK_TEXTS.unexpected
  if (error instanceof ApiRequestError) {
    if (error.status >= 500 || error.code === "SERVICE_UNAVAILABLE") return FEEDBACK_TEXTS.unavailable
    if (error.message.includes(FEEDBACK_TEXTS.validationPrefix)) return error.message
    if (error.status === 429) return error.message
  }
  return FEEDBACK_TEXTS.failed
}
