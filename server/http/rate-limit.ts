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

interface Window {
  count: number
  startedAt: number
}

/**
 * @fastify/rate-limit's in-memory store hands every caller the same counter object, so when
 * requests arrive together each one reads the burst's final count: a burst of 35 against a
 * limit of 30 refused all 35. This store answers each caller the count its own increment made.
 * One instance per route (child); windows are fixed and start at a key's first request.
 */
export class MemoryRateLimitStore {
  private readonly windows = new Map<string, Window>()

  constructor(private readonly clock: () => number = Date.now) {}

  /** The plugin passes the route's window as a third argument, which its type declarations leave out. */
  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void {
    if (timeWindow === undefined) return callback(new Error("the rate limit store needs the route's time window"))
    const now = this.clock()
    let window = this.windows.get(key)
    if (!window || window.startedAt + timeWindow <= now) {
      window = { count: 0, startedAt: now }
      this.windows.set(key, window)
      if (this.windows.size > MAX_TRACKED_CLIENTS) this.forgetExpired(now, timeWindow)
    }
    window.count += 1
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now })
  }

  child(): MemoryRateLimitStore {
    return new MemoryRateLimitStore(this.clock)
  }

  private forgetExpired(now: number, timeWindow: number): void {
    for (const [key, window] of this.windows) if (window.startedAt + timeWindow <= now) this.windows.delete(key)
  }
}

/** Beyond this many clients in one route's window, finished windows are dropped. */
const MAX_TRACKED_CLIENTS = 10_000

/** The store option of @fastify/rate-limit (it wants a class) on the app's clock. */
export function memoryRateLimitStoreOn(clock: () => number) {
  return class extends MemoryRateLimitStore {
    constructor() {
      super(clock)
    }
  }
}
