import type { FastifyRequest } from "fastify"

import { ApiError } from "./errors"

/** What a refused call is told unless its limit has words of its own. */
const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a moment before trying again."

export interface PerIpLimit {
  max: number
  /** Milliseconds. */
  timeWindow: number
  message?: string
}

/**
 * Route config for @fastify/rate-limit: at most `max` calls per IP address per window. A refused
 * call gets the wrapper's 429 RATE_LIMIT_EXCEEDED with retryAfter in seconds, like every error.
 */
export function perIpRateLimit({ max, timeWindow, message = RATE_LIMITED_MESSAGE }: PerIpLimit) {
  return {
    rateLimit: {
      max,
      timeWindow,
      errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
        new ApiError(429, "RATE_LIMIT_EXCEEDED", message, { retryAfter: Math.ceil(context.ttl / 1000) })
    }
  }
}

/** 429 TOO_MANY_REQUESTS of a per-key cooldown, saying how many seconds are left. */
export function tooManyAttempts(seconds: number): ApiError {
  return new ApiError(429, "TOO_MANY_REQUESTS", `Too many attempts. Please wait ${seconds} seconds before trying again.`, { retryAfter: seconds })
}
