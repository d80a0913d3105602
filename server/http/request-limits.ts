import type { Socket } from "node:net"

import type { FastifyServerOptions } from "fastify"

import { fail } from "~core/api-answer"
import { V1_ANALYSIS_TIME_LIMIT_MS, V1_MAX_QUEUE_WAIT_MS } from "../public-api/local-vision-schemas"

import { DEFAULT_IMAGE_FETCH_TIMEOUT_MS } from "../image-input/image-download"

/**
 * Receiving one request, headers and body, may take this long; then it is answered 408 and the
 * connection closed. Enough for the largest feedback form (about 25 MB) at about 2 Mbit/s.
 */
export const REQUEST_TIMEOUT_MS = 2 * 60_000
/** The headers of a request must have arrived within this time (a slow-headers attack holds a connection with nothing else). */
export const HEADERS_TIMEOUT_MS = 30_000
/**
 * A connection silent for this long is closed: longer than the slowest answer, so that a call's own time-outs answer
 * it (503 in the wrapper) before the connection is cut: a 10 s image download, the wait for an analysis thread, the
 * analysis (the vision model's 30 s are less), and a margin for a busy machine.
 */
export const CONNECTION_IDLE_TIMEOUT_MS = DEFAULT_IMAGE_FETCH_TIMEOUT_MS + V1_MAX_QUEUE_WAIT_MS + V1_ANALYSIS_TIME_LIMIT_MS + 20_000
/** How often Node looks for requests past their time (its own default is 30 s). */
export const REQUEST_TIMEOUT_CHECK_INTERVAL_MS = 5_000

export interface RequestTimeouts {
  requestMs: number
  idleMs: number
  checkIntervalMs: number
}

export const DEFAULT_REQUEST_TIMEOUTS: RequestTimeouts = {
  requestMs: REQUEST_TIMEOUT_MS,
  idleMs: CONNECTION_IDLE_TIMEOUT_MS,
  checkIntervalMs: REQUEST_TIMEOUT_CHECK_INTERVAL_MS
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: "Request Timeout", code: "REQUEST_TIMEOUT", message: "The request took too long to arrive. Please try again." },
  HPE_HEADER_OVERFLOW: { status: 431, reason: "Request Header Fields Too Large", code: "BAD_REQUEST", message: "The request headers are too large." }
}
const MALFORMED = { status: 400, reason: "Bad Request", code: "BAD_REQUEST", message: "The request could not be read." }

/** How long a connection keeps taking (and dropping) bytes after an answer to a request whose body was not read to its end. */
export const CLOSE_LINGER_MS = 2_000

/**
 * Ends a connection whose client may still be sending. Closing at once makes the kernel answer its
 * next bytes with a reset, which can throw our answer away before the client reads it; so half-close
 * (the client reads the answer and an end), drop what still arrives for a moment, then close.
 */
export function endLingering(socket: Socket, lingerMs = CLOSE_LINGER_MS): void {
  socket.end()
  setTimeout(() => socket.destroy(), lingerMs).unref()
}

/** Makes Node end this connection with endLingering once the answer under way is sent (it closes at once otherwise). */
export function lingerAfterAnswer(socket: Socket | null): void {
  if (socket) socket.destroySoon = () => endLingering(socket)
}

/**
 * Answers what Node refuses before Fastify sees a request (a request past its time, malformed
 * HTTP) in the wrapper, then closes the connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return
  const { status, reason, code, message } = CLIENT_ERRORS[error.code ?? ""] ?? MALFORMED
  // A response already under way cannot be replaced; the connection just ends.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !response?.headersSent) {
    const body = JSON.stringify(fail(code, message))
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  }
  endLingering(socket)
}

/** Fastify's server options for these limits. */
export function requestTimeoutOptions(timeouts: RequestTimeouts): Pick<FastifyServerOptions, "requestTimeout" | "connectionTimeout" | "clientErrorHandler"> & {
  http: { connectionsCheckingInterval: number; headersTimeout: number }
} {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    // Node only enforces the request time-out when the headers' one is not longer.
    http: { connectionsCheckingInterval: timeouts.checkIntervalMs, headersTimeout: Math.min(HEADERS_TIMEOUT_MS, timeouts.requestMs) },
    clientErrorHandler: answerClientError
  }
}
