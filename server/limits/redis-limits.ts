import { randomUUID } from "node:crypto"

import type { Redis } from "ioredis"

import { withTimeout } from "~core/with-timeout"

import { watchAvailability } from "../db/availability"
import type { LimitAnswer, LimitStore } from "./limit-store"

/**
 * One sorted set per key, scored by the event's time. The script runs whole inside Redis, so the check and the count
 * of parallel takes from any instance never interleave.
 */
const TAKE = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < max then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
  return {1, count + 1}
end
local freeing = redis.call('ZRANGE', key, count - max, count - max, 'WITHSCORES')
return {0, tonumber(freeing[2]) + window - now}
`

type LimitCommands = Redis & { limitTake(key: string, now: number, windowMs: number, max: number, member: string): Promise<[number, number]> }

/** Keys of this product in a Redis that may serve others too. */
const PREFIX = "iqa:limit:"

/** How long the first connection is waited for at start: calls made before it is up are answered 503. */
const FIRST_CONNECTION_WAIT_MS = 2_000

/**
 * The client is loaded only when REDIS_URL is set, not on every start (ioredis is 0.08 CPU-s). A Redis that is down or
 * stops answering fails each call within a second (ServiceUnavailableError, answered 503) instead of hanging it.
 */
export async function redisLimitStore(url: string): Promise<LimitStore> {
  const { Redis: Client, ReplyError } = await import("ioredis")
  const redis = new Client(url, {
    // Without a connection a command fails at once, rather than waiting in a queue to be sent late: a count taken
    // after its request was answered 503 would hold a limit's place for nothing. For the same reason a command
    // whose connection was lost is neither kept nor sent again.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 1_000,
    // Reconnects soon after Redis is back (ioredis's default backs off to 2 s).
    retryStrategy: (attempt) => Math.min(attempt * 100, 500)
  }) as LimitCommands
  // A lost connection is retried by the client; the request that needed it fails with its own error.
  redis.on("error", () => {})
  redis.defineCommand("limitTake", { numberOfKeys: 1, lua: TAKE })
  const availability = watchAvailability({
    service: "redis",
    probe: async () => void (await redis.ping()),
    // Redis's own refusals are ReplyErrors; anything else is the connection.
    isUnreachable: (error) => !(error instanceof ReplyError)
  })
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONNECTION_WAIT_MS)
    redis.once("ready", () => {
      clearTimeout(timer)
      resolve()
    })
  })
  return {
    async take(key, max, windowMs, now): Promise<LimitAnswer> {
      const [taken, value] = await availability.run(() => redis.limitTake(PREFIX + key, now, windowMs, max, `${now}:${randomUUID()}`))
      return taken === 1 ? { taken: true, count: value } : { taken: false, retryAfterMs: Math.max(0, value) }
    },
    async release(key) {
      await availability.run(() => redis.zpopmax(PREFIX + key))
    },
    // Redis forgets a key when its last event leaves the window (PEXPIRE).
    async sweep() {},
    async close() {
      availability.close()
      // A Redis that answers nothing would never acknowledge the QUIT.
      await withTimeout(redis.quit(), 1_000, "Redis did not answer QUIT").catch(() => redis.disconnect())
    }
  }
}
