import type { FastifyRequest } from "fastify"

import type { LimitStore } from "../limits/limit-store"
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

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void

/**
 * The store option of @fastify/rate-limit (it wants a class) on the shared limits: every instance counts a client's
 * calls to a route in the same place. A call over the limit is not counted, and its answer says how long until the
 * oldest counted call leaves the window. Each route counts apart (its method and URL in the key).
 */
export function sharedRateLimitStore(limits: LimitStore, clock: () => number) {
  return class SharedRateLimitStore {
    /** Set by child(): the route's own counters. */
    prefix = "ip:"

    /** The plugin passes the route's window and maximum after the callback, which its type declarations leave out. */
    incr(key: string, callback: IncrCallback, timeWindow?: number, max?: number): void {
      if (timeWindow === undefined || max === undefined) return callback(new Error("the rate limit store needs the route's window and maximum"))
      limits.take(this.prefix + key, max, timeWindow, clock()).then(
        (answer) => callback(null, answer.taken ? { current: answer.count, ttl: timeWindow } : { current: max + 1, ttl: answer.retryAfterMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)))
      )
    }

    /** The plugin passes the route's merged options with the route as `routeInfo` (its declarations say otherwise). */
    child(routeOptions: unknown): SharedRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo
      const store = new SharedRateLimitStore()
      store.prefix = `ip:${String(route?.method ?? "")} ${String(route?.url ?? "")}:`
      return store
    }
  }
}
