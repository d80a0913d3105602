import { sql, type Kysely } from "kysely"

/**
 * The public API's answered calls per key, UTC day and endpoint, in place of 012's per month: the dashboard charts
 * the last days, and a month is the sum of its days (GET /api/v1/usage). A month counted before this migration lands
 * on its first day, the only day it can honestly be given.
 *
 * The day is text, "2026-11-27", as the months of usage_counters are: it sorts and compares as the date does, and
 * reaches JavaScript unchanged, where a `date` column would come back as a local-midnight Date shifted by the
 * server's time zone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_call_days")
    .addColumn("key_id", "uuid", (column) => column.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (column) => column.notNull())
    .addColumn("day", "text", (column) => column.notNull().check(sql`day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    .addColumn("endpoint", "text", (column) => column.notNull())
    .addColumn("calls", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("api_call_days_pkey", ["key_id", "day", "endpoint"])
    .execute()
  // An account's days, for the dashboard's chart and the month's sum.
  await db.schema.createIndex("api_call_days_user_day").on("api_call_days").columns(["user_id", "day"]).execute()
  await sql`insert into api_call_days (key_id, user_id, day, endpoint, calls)
    select key_id, user_id, month || '-01', endpoint, calls from api_calls`.execute(db)
  await db.schema.dropTable("api_calls").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
  await sql`insert into api_calls (key_id, user_id, month, endpoint, calls)
    select key_id, user_id, left(day, 7), endpoint, sum(calls) from api_call_days group by key_id, user_id, left(day, 7), endpoint`.execute(db)
  await db.schema.dropTable("api_call_days").execute()
}
