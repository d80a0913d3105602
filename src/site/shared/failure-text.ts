/** What a failed call says to the person, for every site feature that shows one (the site's shared parts). */
import { ApiRequestError } from "~http/http-client"
import { CONNECTION_ERROR_MESSAGE } from "~site-session/error-messages"

/** A failed call in words: the server's message, or that the connection failed. */
export const failureText = (failure: unknown) => (failure instanceof ApiRequestError && !failure.isNetworkError ? failure.message : CONNECTION_ERROR_MESSAGE)

/**
 * Runs a confirmed action and answers what its dialog (ConfirmDialog's onConfirm) shows: the failure in words, or
 * null once done. `afterwards` (close, tell, refresh) runs only once the action went through, outside the catch: what
 * the dialog reports is the action's refusal, never a follow-up's.
 */
export async function attempt(action: () => Promise<unknown>, afterwards?: () => unknown): Promise<string | null> {
  try {
    await action()
  } catch (failure) {
    return failureText(failure)
  }
  await afterwards?.()
  return null
}
