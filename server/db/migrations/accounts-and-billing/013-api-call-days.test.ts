import { Migrator, sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { openTestDatabase } from "../../../test-kit"
import { migrateToLatest, type Database } from "../../database"
import { migrationProvider } from ".."

let database: Database

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => database?.close())

const tableExists = async (db: Kysely<unknown>, name: string) =>
  (await sql<{ found: string | null }>`select to_regclass(${`public.${name}`})::text as found`.execute(db)).rows[0]!.found !== null

describe("migration 013-api-call-days", () => {
  it("moves each month's calls to the month's first day and drops api_calls; undone, the days sum back into months", async () => {
    const db = database.db as unknown as Kysely<unknown>
    const migrator = new Migrator({ db, provider: migrationProvider })
    expect((await migrator.migrateTo("012-api-keys")).error).toBeUndefined()

    const user = await sql<{ id: string }>`insert into users (email, name) values ('caller@example.com', 'Caller') returning id`.execute(db)
    const userId = user.rows[0]!.id
    const key = await sql<{ id: string }>`insert into api_keys (user_id, name, prefix, key_hash, created_at)
      values (${userId}, 'ci', 'iqa_12345678', 'hash', now()) returning id`.execute(db)
    const keyId = key.rows[0]!.id
    await sql`insert into api_calls (key_id, user_id, month, endpoint, calls) values
      (${keyId}, ${userId}, '2026-10', 'ask', 7), (${keyId}, ${userId}, '2026-11', 'ask', 2), (${keyId}, ${userId}, '2026-11', 'translate', 5)`.execute(db)

    await migrateToLatest(database.db)
    const days = await database.db.selectFrom("api_call_days").select(["key_id", "user_id", "day", "endpoint", "calls"]).orderBy("day").orderBy("endpoint").execute()
    expect(days).toEqual([
      { key_id: keyId, user_id: userId, day: "2026-10-01", endpoint: "ask", calls: 7 },
      { key_id: keyId, user_id: userId, day: "2026-11-01", endpoint: "ask", calls: 2 },
      { key_id: keyId, user_id: userId, day: "2026-11-01", endpoint: "translate", calls: 5 }
    ])
    expect(await tableExists(db, "api_calls")).toBe(false)
    // A day is written as one: "2026-11" or "27/11/2026" is refused.
    await expect(sql`insert into api_call_days values (${keyId}, ${userId}, '2026-11', 'ask', 1)`.execute(db)).rejects.toThrow(/check/)

    await database.db.insertInto("api_call_days").values({ key_id: keyId, user_id: userId, day: "2026-11-27", endpoint: "ask", calls: 3 }).execute()
    expect((await migrator.migrateTo("012-api-keys")).error).toBeUndefined()
    const months = await sql<{ month: string; endpoint: string; calls: number }>`select month, endpoint, calls from api_calls order by month, endpoint`.execute(db)
    expect(months.rows).toEqual([
      { month: "2026-10", endpoint: "ask", calls: 7 },
      { month: "2026-11", endpoint: "ask", calls: 5 },
      { month: "2026-11", endpoint: "translate", calls: 5 }
    ])
    expect(await tableExists(db, "api_call_days")).toBe(false)
    await migrateToLatest(database.db)
  })
})
