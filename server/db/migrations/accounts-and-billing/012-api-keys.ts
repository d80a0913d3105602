import { sql, type Kysely } from "kysely"

/**
 * Personal API keys, stored as hashes only, with their answered calls per month, and the audit log: an append-only record of security-relevant changes
 * (who did what to whom, when, from which address), which the admin panel reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("prefix", "text", (column) => column.notNull())
    .addColumn("key_hash", "text", (column) => column.notNull().unique())
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("last_used_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .execute()
  await db.schema.createIndex("api_keys_user").on("api_keys").columns(["user_id", "created_at"]).execute()

  // The public API's answered calls per key, month and endpoint (GET /api/v1/usage).
  await db.schema
    .createTable("api_calls")
    .addColumn("key_id", "uuid", (column) => column.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (column) => column.notNull())
    .addColumn("month", "text", (column) => column.notNull())
    .addColumn("endpoint", "text", (column) => column.notNull())
    .addColumn("calls", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("api_calls_pkey", ["key_id", "month", "endpoint"])
    .execute()
  await db.schema.createIndex("api_calls_user_month").on("api_calls").columns(["user_id", "month"]).execute()

  await db.schema
    .createTable("audit_events")
    .addColumn("id", "bigserial", (column) => column.primaryKey())
    .addColumn("kind", "text", (column) => column.notNull())
    /** Who did it: null for the system (a webhook, a timer) or a deleted account. */
    .addColumn("actor_id", "uuid")
    /** On whom: the account the change is about. */
    .addColumn("subject_id", "uuid")
    .addColumn("detail", "jsonb", (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("ip", "text")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("audit_events_kind_time").on("audit_events").columns(["kind", "created_at"]).execute()
  await db.schema.createIndex("audit_events_subject_time").on("audit_events").columns(["subject_id", "created_at"]).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("audit_events").execute()
  await db.schema.dropTable("api_calls").execute()
  await db.schema.dropTable("api_keys").execute()
}
