/** What a failed call says to the person, for every site feature that shows one (the site's shared parts). */
import { ApiRequestError } from "~http/http-client"
import { CONNECTION_ERROR_MESSAGE } from "~site-session/error-messages"

/** A failed call in words: the server's message, or that the connection failed. */
export const failureText = (failure: unknown) => (failure instanceof ApiRequestError && !failure.isNetworkError ? failure.message : CONNECTION_ERROR_MESSAGE)
