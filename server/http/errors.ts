import type { FastifyError, FastifyInstance, FastifyReply } from "fastify"
import type { z } from "zod"

import { fail, type ApiErrorBody, type ApiErrorCode, type ErrorCode } from "~core/api-answer"

import { unavailableServiceError } from "../db/availability"

/** An error whose status, code and message are meant for the caller. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: Omit<ApiErrorBody, "code" | "message"> = {}
  ) {
    super(message)
    this.name = "ApiError"
  }
}

/** 400 VALIDATION_FAILED, each problem of the input in details ("field: what is wrong"). */
export function validationFailed(details: string[]): ApiError {
  return new ApiError(400, "VALIDATION_FAILED", "Validation failed", { details })
}

/** 401 UNAUTHORIZED: no session, or one that has ended. */
export function signInRequired(): ApiError {
  return new ApiError(401, "UNAUTHORIZED", "Please sign in to continue.")
}

export function notFound(message: string): ApiError {
  return new ApiError(404, "NOT_FOUND", message)
}

/** Parses request input with a zod schema; failures become 400 VALIDATION_FAILED with details. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw validationFailed(result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)))
}

/** What a 503 of a service that is away says to wait: it is probed every quarter second, and is back when it answers. */
const SERVICE_AWAY_RETRY_AFTER_SECONDS = 5

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS"
}

const MESSAGE_BY_FASTIFY_CODE: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty but declared as JSON.",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "This content type is not supported here.",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The Content-Length header does not match the body.",
  FST_ERR_BAD_URL: "The address is not valid: it holds a malformed %-escape.",
  FST_ERR_MAX_PARAM_LENGTH: "The address is too long."
}

/**
 * Fastify's frameworkErrors option: what its router refuses before any route runs (a malformed %-escape, an
 * over-long path parameter) would otherwise be answered in Fastify's own shape, outside the wrapper.
 */
export function answerFrameworkError(error: FastifyError, _request: unknown, reply: FastifyReply) {
  const status = typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400
  return reply.status(status).send(fail("BAD_REQUEST", MESSAGE_BY_FASTIFY_CODE[error.code] ?? "The request is not valid."))
}

/** Every answer, errors included, is the {success, data?, error?} wrapper; never a bare 500 page. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send(fail(error.code, error.message, error.extra))
    }
    // The database or Redis is away (server/db/availability.ts): the caller may try again shortly, nothing is broken.
    const unavailable = unavailableServiceError(error)
    if (unavailable) {
      request.log.warn({ service: unavailable.service }, unavailable.message)
      return reply
        .status(503)
        .header("retry-after", String(SERVICE_AWAY_RETRY_AFTER_SECONDS))
        .send(fail("SERVICE_UNAVAILABLE", "The service is briefly unavailable. Please try again in a few seconds.", { retryAfter: SERVICE_AWAY_RETRY_AFTER_SECONDS }))
    }
    const status = typeof error.statusCode === "number" ? error.statusCode : 500
    if (status >= 400 && status < 500) {
      const code = error.validation ? "VALIDATION_FAILED" : (CODE_BY_STATUS[status] ?? "BAD_REQUEST")
      const message = MESSAGE_BY_FASTIFY_CODE[error.code] ?? error.message
      return reply.status(status).send(fail(code, message))
    }
    request.log.error({ err: error }, "request failed")
    return reply
      .status(500)
      .send(fail("INTERNAL_ERROR", "Something went wrong on our side. Please try again."))
  })
}
