import { sql, type Kysely } from "kysely"

/**
 * Subscriptions: one record per account that ever subscribed or started a trial, changed only by the payment
 * provider's events (or a test-mode payment); the provider's webhook events processed once each; and on users,
 * when the plan may next change by time alone (a trial's or a cancelled period's end), so that reading an account
 * costs no extra query until then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("subscriptions")
    .addColumn("user_id", "uuid", (column) => column.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("provider", "text", (column) => column.notNull().check(sql`provider in ('test', 'stripe')`))
    .addColumn("plan_id", "text", (column) => column.notNull().check(sql`plan_id in ('free', 'pro', 'enterprise')`))
    .addColumn("status", "text", (column) => column.notNull().check(sql`status in ('trialing', 'active', 'past_due', 'canceled')`))
    .addColumn("billing_interval", "text", (column) => column.check(sql`billing_interval in ('month', 'year')`))
    .addColumn("current_period_end", "timestamptz")
    .addColumn("cancel_at_period_end", "boolean", (column) => column.notNull().defaultTo(false))
    .addColumn("trial_end", "timestamptz")
    .addColumn("trial_started_at", "timestamptz")
    .addColumn("scheduled_plan_id", "text", (column) => column.check(sql`scheduled_plan_id in ('free', 'pro', 'enterprise')`))
    .addColumn("stripe_customer_id", "text", (column) => column.unique())
    .addColumn("stripe_subscription_id", "text", (column) => column.unique())
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema
    .createTable("billing_events")
    .addColumn("event_id", "text", (column) => column.primaryKey())
    .addColumn("type", "text", (column) => column.notNull())
    .addColumn("received_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.alterTable("users").addColumn("plan_review_at", "timestamptz").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("plan_review_at").execute()
  await db.schema.dropTable("billing_events").execute()
  await db.schema.dropTable("subscriptions").execute()
}
