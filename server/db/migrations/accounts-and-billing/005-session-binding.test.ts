import { Migrator, sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { openTestDatabase } from "../../../test-kit"
import { migrateToLatest, type Database } from "../../database"
import { migrationProvider } from ".."

const DAY = 24 * 60 * 60_000

let database: Database

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => database?.close())

describe("migration 005-session-binding", () => {
  it("gives existing sessions an absolute end 90 days after their creation and ends the unbound extension sessions", async () => {
    const db = database.db as unknown as Kysely<unknown>
    const migrator = new Migrator({ db, provider: migrationProvider })
    const down = await migrator.migrateTo("004-feedback")
    expect(down.error).toBeUndefined()

    const created = Date.UTC(2026, 0, 1)
    const user = await sql<{ id: string }>`insert into users (email, name) values ('old@example.com', 'Old') returning id`.execute(db)
    const userId = user.rows[0]!.id
    const insert = (client: string, tokenHash: string, createdAt: number, expiresAt: number) =>
      sql`insert into sessions (user_id, client, token_hash, grace_token, created_at, last_used_at, expires_at)
          values (${userId}, ${client}, ${tokenHash}, 'sealed', ${new Date(createdAt)}, ${new Date(createdAt)}, ${new Date(expiresAt)})`.execute(db)
    await insert("site", "recent-site", created, created + 30 * DAY)
    await insert("site", "old-site", created - 80 * DAY, created + 30 * DAY)
    await insert("extension", "extension", created, created + 30 * DAY)

    await migrateToLatest(database.db)
    const rows = await database.db.selectFrom("sessions").selectAll().orderBy("token_hash").execute()
    expect(rows.map((row) => [row.token_hash, row.absolute_expires_at.getTime(), row.expires_at.getTime(), row.revoked_at !== null])).toEqual([
      ["extension", created + 90 * DAY, created + 30 * DAY, true],
      ["old-site", created + 10 * DAY, created + 10 * DAY, false],
      ["recent-site", created + 90 * DAY, created + 30 * DAY, false]
    ])
    expect(Object.keys(rows[0]!)).not.toContain("grace_token")
    // The database itself keeps a refresh from passing the absolute end.
    await expect(database.db.updateTable("sessions").set({ expires_at: new Date(created + 91 * DAY) }).where("token_hash", "=", "recent-site").execute()).rejects.toThrow(
      /sessions_expiry_within_lifetime/
    )
  })
})
