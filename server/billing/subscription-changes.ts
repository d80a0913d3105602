/**
 * Applies a change to an account's subscription record: in one transaction, the user's row locked so that parallel
 * changes of one account are made one after another, the record's time-bound changes made first (settle), then the
 * change, then the record, the plan on the user's row, the e-mails the change calls for and its subscription.updated
 * webhook are written together.
 * A change made by time alone (a trial's end, a period's end, a test-mode renewal) is applied when the account is next
 * read (settleDueSubscription).
 */
import type { FastifyInstance } from "fastify"
import type { Transaction } from "kysely"

import type { UserRow } from "../auth/user-store"
import type { DatabaseSchema } from "../db/schema"
import { ownersOfPerson, queueWebhookEvent } from "../webhooks/webhook-events"
import { settleOptionsOf } from "./plan"
import { queueSubscriptionEmails, type RecordChange } from "./subscription-emails"
import { effectivePlan, reviewAt, settle, type SubscriptionRecord } from "./subscription-rules"
import { findRecord, lockUser, saveRecord } from "./subscription-store"

export type { RecordChange }

/** A change: the new record (the same object, or null, to keep it); it may throw to refuse. */
export type RecordUpdate = (current: SubscriptionRecord | undefined, user: UserRow) => SubscriptionRecord | null

/**
 * Changes a user's record. Undefined when the user does not exist, or when `claim` (run first in the same transaction:
 * a provider event recorded as processed) answers false.
 */
export async function changeSubscription(
  app: FastifyInstance,
  userId: string,
  update: RecordUpdate,
  claim?: (trx: Transaction<DatabaseSchema>) => Promise<boolean>
): Promise<RecordChange | undefined> {
  const now = new Date(app.clock())
  return app.database.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, userId)
    if (!user) return undefined
    if (claim && !(await claim(trx))) return undefined
    const stored = await findRecord(trx, userId)
    const before = stored && settle(stored, now, settleOptionsOf(app.config))
    const after = update(before, user) ?? before
    if (!after || (after === stored && user.plan_review_at?.getTime() === reviewAt(after)?.getTime())) return { before, after, user }
    const saved = await saveRecord(trx, userId, after, { planId: effectivePlan(after), reviewAt: reviewAt(after) }, now)
    const change = { before, after, user: saved }
    await queueSubscriptionEmails(app, trx, change)
    await queueWebhookEvent(app, trx, await ownersOfPerson(trx, userId), "subscription.updated", subscriptionEventData(change))
    return change
  })
}

/** What the subscription.updated webhook says of a change: the plan before and after, and the record's terms. */
function subscriptionEventData({ before, after, user }: RecordChange): Record<string, unknown> {
  return {
    userId: user.id,
    previousPlan: before ? effectivePlan(before) : "free",
    plan: after ? effectivePlan(after) : "free",
    status: after?.status ?? null,
    billingInterval: after?.billing_interval ?? null,
    currentPeriodEnd: after?.current_period_end?.toISOString() ?? null,
    cancelAtPeriodEnd: after?.cancel_at_period_end ?? false
  }
}

/** The account with the time-bound changes of its record made, when one is due; as it was otherwise. */
export async function settleDueSubscription(app: FastifyInstance, user: UserRow): Promise<UserRow> {
  if (!user.plan_review_at || user.plan_review_at.getTime() > app.clock()) return user
  const change = await changeSubscription(app, user.id, () => null)
  return change?.user ?? user
}
