import { sql, type Kysely } from "kysely"

/**
 * The limits every API instance shares (per-IP rate limits, resend cooldowns, feedback confirmations, failed image
 * downloads): per key, the times of its events still in the window, and when the last of them leaves it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("limit_events")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("hits", sql`timestamptz[]`, (column) => column.notNull())
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("limit_events_expires_at").on("limit_events").column("expires_at").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("limit_events").execute()
}
