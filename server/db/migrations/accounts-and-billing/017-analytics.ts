import { sql, type Kysely } from "kysely"

/**
 * The admin panel's analytics and billing history (issue 27), from events recorded as they happen, not estimated:
 *
 * - daily_metrics: a count per UTC day and metric (questions, translations, sign-ups, feedback), raised in the
 *   transaction of the thing it counts by one upsert, so parallel requests on any instance never lose a count.
 * - active_user_days: the accounts that made an authenticated request on a day, one row each.
 * - subscription_changes: every record the billing code writes, appended in the same transaction, so the MRR of any
 *   past instant is the last change of each account before it. A subscription that predates this log gets one row
 *   dated at the epoch: with no history, its current state counts for every past day.
 *
 * Days are text ("2026-11-27"), as api_call_days' are: sortable, and free of the server's time zone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("daily_metrics")
    .addColumn("day", "text", (column) => column.notNull().check(sql`day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    .addColumn("metric", "text", (column) => column.notNull().check(sql`metric in ('questions', 'translations', 'signUps', 'feedback')`))
    .addColumn("count", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("daily_metrics_pkey", ["day", "metric"])
    .execute()

  await db.schema
    .createTable("active_user_days")
    .addColumn("day", "text", (column) => column.notNull().check(sql`day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    // No foreign key: a deleted account was still active on the days it was.
    .addColumn("user_id", "uuid", (column) => column.notNull())
    .addPrimaryKeyConstraint("active_user_days_pkey", ["day", "user_id"])
    .execute()

  await db.schema
    .createTable("subscription_changes")
    .addColumn("id", "bigserial", (column) => column.primaryKey())
    // No foreign key either: a deleted subscriber's past revenue stays in the history.
    .addColumn("user_id", "uuid", (column) => column.notNull())
    .addColumn("at", "timestamptz", (column) => column.notNull())
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("plan_id", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("billing_interval", "text")
    // What settling the record at a later instant needs (a trial's or a cancelled period's end).
    .addColumn("current_period_end", "timestamptz")
    .addColumn("cancel_at_period_end", "boolean", (column) => column.notNull())
    .addColumn("trial_end", "timestamptz")
    .addColumn("scheduled_plan_id", "text")
    .execute()
  await db.schema.createIndex("subscription_changes_user_at").on("subscription_changes").columns(["user_id", "at", "id"]).execute()
  await sql`insert into subscription_changes (user_id, at, provider, plan_id, status, billing_interval, current_period_end, cancel_at_period_end, trial_end, scheduled_plan_id)
    select user_id, timestamptz '1970-01-01T00:00:00Z', provider, plan_id, status, billing_interval, current_period_end, cancel_at_period_end, trial_end, scheduled_plan_id
    from subscriptions`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("subscription_changes").execute()
  await db.schema.dropTable("active_user_days").execute()
  await db.schema.dropTable("daily_metrics").execute()
}
