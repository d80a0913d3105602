import { type Kysely } from "kysely"

/**
 * What outlives a deleted account, so that deleting it and registering again gives no new trial and no new month of
 * requests: per keyed hash of its normalised address and of its Google uid (never the address or uid itself), when its
 * trial was used and its count of the month it was deleted in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("identity_traces")
    .addColumn("key_hash", "text", (column) => column.primaryKey())
    .addColumn("trial_used_at", "timestamptz")
    .addColumn("usage_month", "text")
    .addColumn("usage_used", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("identity_traces").execute()
}
