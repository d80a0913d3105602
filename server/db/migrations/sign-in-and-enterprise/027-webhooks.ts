import { sql, type Kysely } from "kysely"

/**
 * Signed webhooks (server/webhooks): the endpoints a Pro person or an Enterprise organisation registered (exactly one
 * owner each, its secret sealed with the server's key), and the deliveries, a transactional outbox of their own: each
 * row is written in the transaction of the event's cause and sent by the webhook worker of any instance, claimed under
 * a lease (locked_until) like the e-mail outbox's rows. `owner_key` ("user:<id>" or "organization:<id>") is what the
 * worker's fairness counts by. The usage thresholds already announced this month keep each one to a single event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (column) => column.references("users.id").onDelete("cascade"))
    .addColumn("organization_id", "uuid", (column) => column.references("organizations.id").onDelete("cascade"))
    .addColumn("url", "text", (column) => column.notNull())
    .addColumn("events", "jsonb", (column) => column.notNull())
    .addColumn("secret_sealed", "text", (column) => column.notNull())
    .addColumn("created_by", "uuid", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addCheckConstraint("webhook_endpoints_one_owner", sql`(user_id is null) <> (organization_id is null)`)
    .execute()
  await db.schema.createIndex("webhook_endpoints_user").on("webhook_endpoints").column("user_id").execute()
  await db.schema.createIndex("webhook_endpoints_organization").on("webhook_endpoints").column("organization_id").execute()

  await db.schema
    .createTable("webhook_deliveries")
    // "msg_…": the webhook-id of every attempt.
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("seq", "bigint", (column) => column.generatedByDefaultAsIdentity().notNull())
    .addColumn("endpoint_id", "uuid", (column) => column.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("owner_key", "text", (column) => column.notNull())
    .addColumn("event_type", "text", (column) => column.notNull())
    // The exact body signed and sent: {type, timestamp, data}.
    .addColumn("payload", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull().defaultTo("pending").check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (column) => column.notNull())
    .addColumn("locked_until", "timestamptz")
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_attempt_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("finished_at", "timestamptz")
    .execute()
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db)
  await sql`create index webhook_deliveries_in_flight on webhook_deliveries (owner_key, locked_until) where status = 'pending'`.execute(db)
  await db.schema.createIndex("webhook_deliveries_endpoint").on("webhook_deliveries").columns(["endpoint_id", "seq"]).execute()

  await db.schema
    .createTable("webhook_usage_thresholds")
    .addColumn("owner_key", "text", (column) => column.notNull())
    .addColumn("month", "text", (column) => column.notNull())
    .addColumn("threshold", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("webhook_usage_thresholds_pk", ["owner_key", "month", "threshold"])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webhook_usage_thresholds").execute()
  await db.schema.dropTable("webhook_deliveries").execute()
  await db.schema.dropTable("webhook_endpoints").execute()
}
