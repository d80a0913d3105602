import { sql, type Kysely } from "kysely"

/**
 * Billing that cannot be made to give plans away: a subscription Stripe reports unpaid or paused is kept as such (the
 * account is on Free meanwhile, and it comes back once the invoice is paid), and a record remembers when the event that
 * ended it was created, so that a late delivery of an older event never reopens it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table subscriptions drop constraint subscriptions_status_check`.execute(db)
  await sql`alter table subscriptions add constraint subscriptions_status_check
    check (status in ('trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'))`.execute(db)
  await db.schema.alterTable("subscriptions").addColumn("closed_by_event_at", "timestamptz").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("subscriptions").dropColumn("closed_by_event_at").execute()
  await sql`update subscriptions set status = 'past_due' where status in ('unpaid', 'paused')`.execute(db)
  await sql`alter table subscriptions drop constraint subscriptions_status_check`.execute(db)
  await sql`alter table subscriptions add constraint subscriptions_status_check check (status in ('trialing', 'active', 'past_due', 'canceled'))`.execute(db)
}
