/**
 * The one way the site reads a server answer: checked against its schema at run time (src/core's schemas where the
 * server declares them). Here beside the site's client (site-client.ts), so that the account's calls (account-requests.ts)
 * and every site feature's *-requests.ts use it alike.
 */
import type * as z from "zod"

import { ApiRequestError, INVALID_RESPONSE_CODE } from "~http/http-client"

export const UNEXPECTED_ANSWER_MESSAGE = "The server sent an unexpected answer. Please try again later."

/** A failed call for an answer that is not what the site expects; `details` say where it differs ("user.email: …"). */
export const unexpectedAnswer = (details?: string[], cause?: unknown) =>
  new ApiRequestError(200, { code: INVALID_RESPONSE_CODE, message: UNEXPECTED_ANSWER_MESSAGE, details }, { cause })

/**
 * A server answer's data checked against its schema: a proxy's page or a server of another version is told to the
 * user in words, as a failed call (INVALID_RESPONSE, with what differs in its details), never rendered half-read.
 */
export function parseAnswer<T>(schema: z.ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data)
  if (!parsed.success) {
    throw unexpectedAnswer(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(the answer)"}: ${issue.message}`),
      parsed.error
    )
  }
  return parsed.data
}
