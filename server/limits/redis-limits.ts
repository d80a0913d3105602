import { randomUUID } from "node:crypto"

import type { Redis } from "ioredis"

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

/** The client is loaded only when REDIS_URL is set, not on every start (ioredis is 0.08 CPU-s). */
export async function redisLimitStore(url: string): Promise<LimitStore> {
  const { Redis: Client } = await import("ioredis")
  const redis = new Client(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }) as LimitCommands
  // A lost connection is retried by the client; the request that needed it fails with its own error.
  redis.on("error", () => {})
  redis.defineCommand("limitTake", { numberOfKeys: 1, lua: TAKE })
  return {
    async take(key, max, windowMs, now): Promise<LimitAnswer> {
      const [taken, value] = await redis.limitTake(PREFIX + key, now, windowMs, max, `${now}:${randomUUID()}`)
      return taken === 1 ? { taken: true, count: value } : { taken: false, retryAfterMs: Math.max(0, value) }
    },
    async release(key) {
      await redis.zpopmax(PREFIX + key)
    },
    // Redis forgets a key when its last event leaves the window (PEXPIRE).
    async sweep() {},
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    }
  }
}
