import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { redisUnavailableReason, startRedis } from "../../tests/redis-server"
import type { Database } from "../db/database"
import { openTestDatabase } from "../test-kit"
import { databaseLimitStore } from "./database-limit-store"
import { takeAll, type LimitStore } from "./limit-store"
import { redisLimitStore } from "./redis-limits"

const MINUTE = 60_000
const START = Date.UTC(2026, 10, 23, 12, 0, 0)
let counter = 0
const freshKey = () => `test:${++counter}:${Math.random().toString(36).slice(2)}`

const redisSkip = redisUnavailableReason()
if (redisSkip) console.warn(`Redis limit tests skipped: ${redisSkip}`)

describe.each([
  { backend: "database", skip: null as string | null },
  { backend: "redis", skip: redisSkip }
])("shared limits in the $backend", ({ backend, skip }) => {
  let store: LimitStore
  let database: Database | null = null
  let redis: Awaited<ReturnType<typeof startRedis>> | null = null

  beforeAll(async () => {
    if (skip) return
    if (backend === "database") {
      database = await openTestDatabase()
      store = databaseLimitStore(database.db)
    } else {
      redis = await startRedis()
      store = await redisLimitStore(redis.url)
    }
  })
  afterAll(async () => {
    await store?.close()
    await database?.close()
    await redis?.stop()
  })

  it.skipIf(skip)("20 parallel takes against a limit of 5: exactly 5 counted, the others told when to come back", async () => {
    const key = freshKey()
    const answers = await Promise.all(Array.from({ length: 20 }, () => store.take(key, 5, MINUTE, START)))
    const taken = answers.filter((answer) => answer.taken)
    expect(taken).toHaveLength(5)
    expect(taken.map((answer) => answer.taken && answer.count).sort()).toEqual([1, 2, 3, 4, 5])
    for (const answer of answers.filter((answer) => !answer.taken)) expect(answer).toEqual({ taken: false, retryAfterMs: MINUTE })
  })

  it.skipIf(skip)("slides: a place comes free when the oldest event leaves the window, not before", async () => {
    const key = freshKey()
    expect((await store.take(key, 2, MINUTE, START)).taken).toBe(true)
    expect((await store.take(key, 2, MINUTE, START + 30_000)).taken).toBe(true)
    expect(await store.take(key, 2, MINUTE, START + 59_000)).toEqual({ taken: false, retryAfterMs: 1_000 })
    expect((await store.take(key, 2, MINUTE, START + 60_001)).taken).toBe(true)
    // The event of START + 30 s is still in the window.
    expect(await store.take(key, 2, MINUTE, START + 60_002)).toEqual({ taken: false, retryAfterMs: 29_998 })
  })

  it.skipIf(skip)("keeps keys apart, gives back a released event, and takes from several limits all or none", async () => {
    const [first, second] = [freshKey(), freshKey()]
    expect((await store.take(first, 1, MINUTE, START)).taken).toBe(true)
    expect((await store.take(second, 1, MINUTE, START)).taken).toBe(true)
    expect((await store.take(first, 1, MINUTE, START)).taken).toBe(false)
    await store.release(first)
    expect((await store.take(first, 1, MINUTE, START)).taken).toBe(true)

    const [roomy, full] = [freshKey(), freshKey()]
    await store.take(full, 1, MINUTE, START)
    const refused = await takeAll(store, [{ key: roomy, max: 1, windowMs: MINUTE }, { key: full, max: 1, windowMs: MINUTE }], START)
    expect(refused).toMatchObject({ refusedBy: 1, answer: { taken: false } })
    // The first limit's event was given back.
    expect((await store.take(roomy, 1, MINUTE, START)).taken).toBe(true)
  })

  it.skipIf(skip)("forgets keys whose events have all left their window", async () => {
    const key = freshKey()
    await store.take(key, 3, MINUTE, START)
    await store.sweep(START + 2 * MINUTE)
    expect((await store.take(key, 1, MINUTE, START + 2 * MINUTE)).taken).toBe(true)
    if (database) {
      await store.sweep(START + 10 * MINUTE)
      expect(await database.db.selectFrom("limit_events").select("key").where("key", "=", key).execute()).toEqual([])
    }
  })
})
