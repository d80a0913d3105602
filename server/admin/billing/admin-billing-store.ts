/**
 * The admin's billing queries: the subscription records (server/billing's table) with their accounts, and the history
 * of records (subscription_changes, migration 017) from which a past instant's subscriptions are read.
 */
import type { Db } from "../../db/transaction"
import { NO_RECORD, type SubscriptionRecord } from "../../billing/subscription-rules"
import { recordOf } from "../../billing/subscription-store"

/**
 * The records that are subscriptions: everything but the mark of a trial used on an account that never had a plan
 * (a Free record, active), which billing keeps only to refuse a second trial.
 */
const subscriptionsOnly = <T extends Db>(db: T) =>
  db.selectFrom("subscriptions").where((eb) => eb.or([eb("subscriptions.plan_id", "!=", "free"), eb("subscriptions.status", "!=", "active")]))

/**
 * Every subscription with its account. All of them: the figures count every one, and the list's order depends on each
 * record settled as of now (a trial or cancelled period that ended meanwhile goes last), which only code can tell.
 */
export async function allSubscriptions(db: Db) {
  const rows = await subscriptionsOnly(db).innerJoin("users", "users.id", "subscriptions.user_id").selectAll("subscriptions").select(["users.email", "users.name"]).execute()
  return rows.map(({ email, name, ...row }) => ({ userId: row.user_id, email, name, record: recordOf(row) }))
}

/**
 * Each account's record as it stood at `at`: its latest change at or before then (not yet settled for the time that
 * passed since). Accounts without a change by then had no subscription.
 */
export async function recordsAsOf(db: Db, at: Date): Promise<SubscriptionRecord[]> {
  const rows = await db
    .selectFrom("subscription_changes")
    .distinctOn("user_id")
    .selectAll()
    .where("at", "<=", at)
    .orderBy("user_id")
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .execute()
  return rows.map((row) => ({
    ...NO_RECORD,
    provider: row.provider,
    plan_id: row.plan_id,
    status: row.status,
    billing_interval: row.billing_interval,
    current_period_end: row.current_period_end,
    cancel_at_period_end: row.cancel_at_period_end,
    trial_end: row.trial_end,
    scheduled_plan_id: row.scheduled_plan_id
  }))
}
