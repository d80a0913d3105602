/**
 * The calls' store: one upsert per call, so that calls of one key answered at once on several connections (PostgreSQL
 * in the api-postgres project) each add their one; days split at midnight UTC; a month sums its own days only.
 */
import { sql } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { insertKey } from "../api-keys/key-store"
import type { Database } from "../db/database"
import { openTestDatabase } from "../test-kit"
import { callsOfMonth, callsPerDay, countCall } from "./usage-store"

let database: Database

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => database?.close())

async function accountWithKey() {
  const user = await sql<{ id: string }>`insert into users (email, name) values (${`store-${Math.random()}@example.com`}, 'Store') returning id`.execute(database.db)
  const userId = user.rows[0]!.id
  const key = await insertKey(database.db, { userId, name: "k", prefix: "iqa_12345678", keyHash: `hash-${Math.random()}`, createdAt: new Date() })
  return { userId, keyId: key.id }
}

describe("the public API's calls per day", () => {
  it("counts 20 calls of one key on one day and endpoint made at once", async () => {
    const { userId, keyId } = await accountWithKey()
    const at = Date.parse("2026-11-27T08:00:00Z")
    await Promise.all(Array.from({ length: 20 }, (_, index) => countCall(database.db, { keyId, userId, at: at + index, endpoint: "translate" })))
    expect(await callsPerDay(database.db, userId, "2026-11-27", "2026-11-27")).toEqual([{ day: "2026-11-27", endpoint: "translate", calls: 20 }])
  })

  it("splits days at midnight UTC and sums a month's days, without its neighbours'", async () => {
    const { userId, keyId } = await accountWithKey()
    const count = (iso: string, endpoint: "ask" | "translate") => countCall(database.db, { keyId, userId, at: Date.parse(iso), endpoint })
    await count("2026-10-31T23:59:59.999Z", "ask")
    await count("2026-11-01T00:00:00.000Z", "ask")
    await count("2026-11-15T12:00:00Z", "ask")
    await count("2026-11-15T13:00:00Z", "translate")
    await count("2026-11-30T23:59:59.999Z", "translate")
    await count("2026-12-01T00:00:00.000Z", "translate")

    expect((await callsOfMonth(database.db, userId, "2026-11")).map(({ endpoint, calls }) => [endpoint, calls]).sort()).toEqual([["ask", 2], ["translate", 2]])
    expect(await callsPerDay(database.db, userId, "2026-10-31", "2026-11-01")).toEqual([
      { day: "2026-10-31", endpoint: "ask", calls: 1 },
      { day: "2026-11-01", endpoint: "ask", calls: 1 }
    ])
  })
})
