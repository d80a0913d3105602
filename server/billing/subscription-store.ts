/**
 * The subscription records as stored: one row per account that ever subscribed or started a trial, and the columns of
 * users that carry the plan the rest of the server reads (plan_id, subscription_status, plan_review_at). Queries only:
 * what a change may be is subscription-rules.ts, applying one is subscription-changes.ts.
 */
import { sql, type Kysely, type Selectable, type Transaction } from "kysely"

import type { UserRow } from "../auth/user-store"
import type { DatabaseSchema, SubscriptionsTable, TrialRefusalsTable } from "../db/schema"
import { NO_RECORD, type SubscriptionRecord } from "./subscription-rules"

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>
export type SubscriptionRow = Selectable<SubscriptionsTable>

/** The record fields of a stored row. */
export function recordOf(row: SubscriptionRow): SubscriptionRecord {
  const { user_id: _user, updated_at: _updated, ...record } = row
  return record
}

export async function findRecord(db: Db, userId: string): Promise<SubscriptionRecord | undefined> {
  const row = await db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst()
  return row && recordOf(row)
}

/** The account whose record holds this Stripe customer. */
export async function findUserIdByCustomer(db: Db, customerId: string): Promise<string | undefined> {
  const row = await db.selectFrom("subscriptions").select("user_id").where("stripe_customer_id", "=", customerId).executeTakeFirst()
  return row?.user_id
}

/** The user's row, locked until the transaction ends: changes of one account are made one after another. */
export function lockUser(trx: Transaction<DatabaseSchema>, userId: string): Promise<UserRow | undefined> {
  return trx.selectFrom("users").selectAll().where("id", "=", userId).forUpdate().executeTakeFirst()
}

/** Stores the record and the plan it gives on the user's row; answers the updated user. */
export async function saveRecord(
  trx: Transaction<DatabaseSchema>,
  userId: string,
  record: SubscriptionRecord,
  plan: { planId: UserRow["plan_id"]; reviewAt: Date | null },
  now: Date
): Promise<UserRow> {
  await trx
    .insertInto("subscriptions")
    .values({ ...record, user_id: userId, updated_at: now })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ ...record, updated_at: now }))
    .execute()
  await appendChange(trx, userId, record, now)
  return trx
    .updateTable("users")
    .set({ plan_id: plan.planId, subscription_status: record.status, plan_review_at: plan.reviewAt, updated_at: now })
    .where("id", "=", userId)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Appends the record to the account's history (the admin's MRR of a past day), in the transaction that stores it: the
 * fields that decide the plan, its price and its time-bound end.
 */
async function appendChange(trx: Transaction<DatabaseSchema>, userId: string, record: SubscriptionRecord, now: Date): Promise<void> {
  await trx
    .insertInto("subscription_changes")
    .values({
      user_id: userId,
      at: now,
      provider: record.provider,
      plan_id: record.plan_id,
      status: record.status,
      billing_interval: record.billing_interval,
      current_period_end: record.current_period_end,
      cancel_at_period_end: record.cancel_at_period_end,
      trial_end: record.trial_end,
      scheduled_plan_id: record.scheduled_plan_id
    })
    .execute()
}

/** Marks the account's free trial used (a deleted account's trial carried to its next one), making a record if it has none. */
export async function markTrialUsed(db: Db, userId: string, at: Date, provider: SubscriptionRecord["provider"], now: Date): Promise<void> {
  await db
    .insertInto("subscriptions")
    .values({ ...NO_RECORD, provider, trial_started_at: at, user_id: userId, updated_at: now })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ trial_started_at: sql`coalesce(subscriptions.trial_started_at, excluded.trial_started_at)`, updated_at: now }))
    .execute()
}

/** The records that may give a paid plan (not ended, not Free): what the admin's billing figures count. */
export async function liveRecords(db: Db): Promise<SubscriptionRecord[]> {
  const rows = await db.selectFrom("subscriptions").selectAll().where("plan_id", "!=", "free").where("status", "!=", "canceled").execute()
  return rows.map(recordOf)
}

/** Records that a subscription's trial was refused; false when it already was (the refusal and its e-mail happen once). */
export async function recordTrialRefusal(
  trx: Transaction<DatabaseSchema>,
  refusal: { subscriptionId: string; userId: string; reason: TrialRefusalsTable["reason"]; now: Date }
): Promise<boolean> {
  const recorded = await trx
    .insertInto("trial_refusals")
    .values({ stripe_subscription_id: refusal.subscriptionId, user_id: refusal.userId, reason: refusal.reason, refused_at: refusal.now })
    .onConflict((conflict) => conflict.column("stripe_subscription_id").doNothing())
    .returning("stripe_subscription_id")
    .executeTakeFirst()
  return Boolean(recorded)
}
