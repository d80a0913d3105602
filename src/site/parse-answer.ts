import type * as z from "zod"

import { ApiRequestError, INVALID_RESPONSE_CODE } from "~api/http-client"

/** A failed call for an answer that is not what the site expects. */
export const unexpectedAnswer = () =>
  new ApiRequestError(200, { code: INVALID_RESPONSE_CODE, message: "The server sent an unexpected answer. Please try again later." })

/**
 * A server answer's data checked against its schema at run time: a proxy's page or a server of another version is
 * told to the user in words, as a failed call, never rendered half-read.
 */
export function parseAnswer<T>(schema: z.ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data)
  if (!parsed.success) throw unexpectedAnswer()
  return parsed.data
}
