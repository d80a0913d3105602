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

describe("migration 017-analytics", () => {
  it("gives each existing subscription a history of its current state since the epoch, and refuses a day written otherwise", async () => {
    const db = database.db as unknown as Kysely<unknown>
    const migrator = new Migrator({ db, provider: migrationProvider })
    expect((await migrator.migrateTo("016-audit-log")).error).toBeUndefined()

    const user = await sql<{ id: string }>`insert into users (email, name) values ('payer@example.com', 'Payer') returning id`.execute(db)
    const userId = user.rows[0]!.id
    await sql`insert into subscriptions (user_id, provider, plan_id, status, billing_interval, current_period_end, updated_at)
      values (${userId}, 'test', 'pro', 'active', 'year', '2027-01-01T00:00:00Z', now())`.execute(db)

    await migrateToLatest(database.db)
    const history = await database.db.selectFrom("subscription_changes").select(["user_id", "at", "plan_id", "status", "billing_interval"]).execute()
    expect(history).toEqual([{ user_id: userId, at: new Date(0), plan_id: "pro", status: "active", billing_interval: "year" }])
    await expect(sql`insert into daily_metrics (day, metric, count) values ('27/11/2026', 'questions', 1)`.execute(db)).rejects.toThrow(/check/)
    await expect(sql`insert into daily_metrics (day, metric, count) values ('2026-11-27', 'guesses', 1)`.execute(db)).rejects.toThrow(/check/)
  })
})
