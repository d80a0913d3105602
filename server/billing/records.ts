/**
 * The subscription record: one row per account that ever subscribed or started a trial. It is changed only by
 * the payment provider (Stripe's events and answers) or a test-mode payment, never by a redirect, and every change
 * goes through `changeRecord`, which also writes the plan the rest of the server reads (users.plan_id, the quota's
 * source) and sends the e-mails a change calls for. Changes by time alone (a trial's end, the end of a cancelled or
 * downgraded period, a test-mode renewal) are applied when the account is next read (`settleDueSubscription`).
 */
import type { FastifyInstance } from "fastify"
import type { Kysely, Selectable, Transaction } from "kysely"

import { effectivePlanOf, type BillingInterval, type Subscription } from "~core/billing"
import { EMAIL_TEMPLATES } from "~core/email-templates"
import { longDate } from "~core/format"
import { getPlan, type PlanId } from "~core/plans"

import type { UserRow } from "../auth/users"
import type { DatabaseSchema, SubscriptionsTable } from "../db/schema"
import { deliverMail } from "../mail/mailer"

type Db = Kysely<DatabaseSchema>
export type SubscriptionRow = Selectable<SubscriptionsTable>
/** What a change may set; the rest of the row stays. */
export type RecordFields = Omit<SubscriptionRow, "user_id" | "updated_at">

export const NO_RECORD: Omit<RecordFields, "provider"> = {
  plan_id: "free",
  status: "active",
  billing_interval: null,
  current_period_end: null,
  cancel_at_period_end: false,
  trial_end: null,
  trial_started_at: null,
  scheduled_plan_id: null,
  stripe_customer_id: null,
  stripe_subscription_id: null
}

/** The plan an account has under this record: a cancelled subscription gives Free. */
export const effectivePlan = (record: Pick<RecordFields, "plan_id" | "status">): PlanId => effectivePlanOf(record.plan_id, record.status)

/** A paid plan the account has now: what a payment or a trial would replace. */
export const hasPaidPlan = (record: Pick<RecordFields, "plan_id" | "status">) => effectivePlan(record) !== "free"

/** Adds whole months (or years) in UTC, the last day of a shorter month standing in for a missing one. */
export function addInterval(from: Date, interval: BillingInterval, count = 1): Date {
  const months = interval === "year" ? 12 * count : count
  const date = new Date(from)
  const day = date.getUTCDate()
  date.setUTCDate(1)
  date.setUTCMonth(date.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
  date.setUTCDate(Math.min(day, lastDay))
  return date
}

/** When the record may next change by time alone; null when only the provider can change it. */
export function reviewAt(record: RecordFields): Date | null {
  if (record.status === "canceled") return null
  if (record.status === "trialing") return record.trial_end
  if (record.cancel_at_period_end || record.scheduled_plan_id) return record.current_period_end
  // A test-mode subscription renews by itself, as a test card would be charged again.
  return record.provider === "test" ? record.current_period_end : null
}

/** The record once the time-bound changes due at `now` are made. */
export function settled(record: RecordFields, now: Date): RecordFields {
  const due = reviewAt(record)
  if (!due || due > now) return record
  if (record.status === "trialing") return { ...record, plan_id: "free", status: "canceled" }
  if (record.cancel_at_period_end || record.scheduled_plan_id === "free") {
    return { ...record, plan_id: "free", status: "canceled", cancel_at_period_end: false, scheduled_plan_id: null }
  }
  const plan = record.scheduled_plan_id ?? record.plan_id
  if (record.provider !== "test" || !record.current_period_end || !record.billing_interval) return { ...record, plan_id: plan, scheduled_plan_id: null }
  let periodEnd = record.current_period_end
  while (periodEnd <= now) periodEnd = addInterval(periodEnd, record.billing_interval)
  return { ...record, plan_id: plan, scheduled_plan_id: null, current_period_end: periodEnd }
}

export async function findRecord(db: Db | Transaction<DatabaseSchema>, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirst()
}

export async function findRecordByCustomer(db: Db, customerId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("subscriptions").selectAll().where("stripe_customer_id", "=", customerId).executeTakeFirst()
}

export function toSubscription(record: RecordFields | undefined, mode: Subscription["mode"]): Subscription {
  const row = record ?? { ...NO_RECORD, provider: mode }
  const iso = (date: Date | null) => date?.toISOString() ?? null
  return {
    plan: effectivePlan(row),
    status: row.status,
    interval: effectivePlan(row) === "free" ? null : row.billing_interval,
    currentPeriodEnd: iso(row.current_period_end),
    cancelAtPeriodEnd: row.cancel_at_period_end,
    trialEnd: iso(row.trial_end),
    scheduledPlan: row.scheduled_plan_id,
    trialAvailable: row.trial_started_at === null && !hasPaidPlan(row),
    portalAvailable: mode === "stripe" && row.stripe_customer_id !== null,
    mode
  }
}

export interface RecordChange {
  /** The record before the change, with its time-bound changes made. */
  before: RecordFields | undefined
  after: RecordFields | undefined
  user: UserRow
}

/**
 * Changes a user's record in one transaction, the user's row locked so that parallel changes of one account are
 * made one after another. `change` gets the current record (time-bound changes already made) and returns the
 * new one, or null to keep it; it may throw an ApiError to refuse. Undefined when the user does not exist, or when
 * `claim` (run first, in the same transaction: a provider event recorded as processed) answers false.
 */
export async function changeRecord(
  app: FastifyInstance,
  userId: string,
  change: (current: RecordFields | undefined, user: UserRow) => RecordFields | null,
  claim?: (trx: Transaction<DatabaseSchema>) => Promise<boolean>
): Promise<RecordChange | undefined> {
  const now = new Date(app.clock())
  const result = await app.database.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").selectAll().where("id", "=", userId).forUpdate().executeTakeFirst()
    if (!user) return undefined
    if (claim && !(await claim(trx))) return undefined
    const stored = await findRecord(trx, userId)
    const before = stored && settled(stored, now)
    const after = change(before, user) ?? before
    if (!after || after === stored) return { before, after, user }
    return write(trx, user, before, after, now)
  })
  if (result) sendChangeEmails(app, result)
  return result
}

async function write(trx: Transaction<DatabaseSchema>, user: UserRow, before: RecordFields | undefined, after: RecordFields, now: Date): Promise<RecordChange> {
  await trx
    .insertInto("subscriptions")
    .values({ ...after, user_id: user.id, updated_at: now })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ ...after, updated_at: now }))
    .execute()
  const updated = await trx
    .updateTable("users")
    .set({ plan_id: effectivePlan(after), subscription_status: after.status, plan_review_at: reviewAt(after), updated_at: now })
    .where("id", "=", user.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return { before, after, user: updated }
}

/** The account with the time-bound changes of its record made, when one is due; as it was otherwise. */
export async function settleDueSubscription(app: FastifyInstance, user: UserRow): Promise<UserRow> {
  if (!user.plan_review_at || user.plan_review_at.getTime() > app.clock()) return user
  const change = await changeRecord(app, user.id, () => null)
  return change?.user ?? user
}

const longDateOf = (date: Date | null) => (date ? longDate(date) : null)

/** Started (a paid plan or a trial where there was none), cancelled (now or at the period's end) and payment failed. */
function sendChangeEmails(app: FastifyInstance, { before, after, user }: RecordChange): void {
  if (!after || after === before) return
  const dashboardUrl = `${app.config.publicUrl}/dashboard`
  const planBefore = before ? effectivePlan(before) : "free"
  const send = (what: string, content: { subject: string; text: string }) =>
    app.mailQueue.enqueue(what, async () => {
      await deliverMail(app, { to: user.email, ...content }, what)
    })
  const started = hasPaidPlan(after) && (planBefore === "free" || (before?.status === "trialing" && after.status !== "trialing"))
  if (started) {
    const planName = getPlan(effectivePlan(after)).name
    send("subscription started", EMAIL_TEMPLATES.subscriptionStarted({ name: user.name, planName, trialEnds: after.status === "trialing" ? longDateOf(after.trial_end) : null, dashboardUrl }))
  }
  const canceledNow = planBefore !== "free" && before?.status !== "trialing" && after.status === "canceled"
  const cancelScheduled = after.cancel_at_period_end && !before?.cancel_at_period_end
  if (cancelScheduled || canceledNow) {
    const planName = getPlan(cancelScheduled ? after.plan_id : planBefore).name
    send("subscription cancelled", EMAIL_TEMPLATES.subscriptionCanceled({ name: user.name, planName, endsOn: cancelScheduled ? longDateOf(after.current_period_end) : null, dashboardUrl }))
  }
  if (after.status === "past_due" && before?.status !== "past_due") {
    send("payment failed", EMAIL_TEMPLATES.paymentFailed({ name: user.name, planName: getPlan(after.plan_id).name, billingUrl: dashboardUrl }))
  }
}

export interface SubscriptionFigures {
  /** Paying accounts per paid plan (a cancelled subscription counts until its period ends). */
  subscribers: { pro: number; enterprise: number }
  trialing: number
  pastDue: number
  /** USD a month: monthly prices, and yearly prices over 12, of the paying accounts. */
  monthlyRecurringRevenue: number
}

/** The admin overview's billing figures, from the records. */
export async function subscriptionFigures(db: Db, now: Date): Promise<SubscriptionFigures> {
  const rows = await db.selectFrom("subscriptions").selectAll().where("plan_id", "!=", "free").where("status", "!=", "canceled").execute()
  const figures: SubscriptionFigures = { subscribers: { pro: 0, enterprise: 0 }, trialing: 0, pastDue: 0, monthlyRecurringRevenue: 0 }
  for (const row of rows.map((stored) => settled(stored, now))) {
    const plan = effectivePlan(row)
    if (plan === "free") continue
    if (row.status === "trialing") {
      figures.trialing++
      continue
    }
    if (row.status === "past_due") figures.pastDue++
    figures.subscribers[plan]++
    const { price, annualPrice } = getPlan(plan)
    figures.monthlyRecurringRevenue += row.billing_interval === "year" ? annualPrice / 12 : price
  }
  figures.monthlyRecurringRevenue = Math.round(figures.monthlyRecurringRevenue * 100) / 100
  return figures
}
