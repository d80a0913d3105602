/**
 * The subscription state machine, as pure functions of a record and an event: no database, no provider, no clock of
 * their own. Every change of a record goes through one of these (server/billing/subscription-changes.ts applies them
 * in a transaction); subscription-rules.test.ts holds the table of every state × event.
 *
 * A record is what the server keeps of an account's subscription. Test-mode records are run here entirely (renewal,
 * upgrade, downgrade, cancel), and so are trials taken without a card (test mode, and trials started before Stripe's
 * trials took a card); Stripe-mode records follow the subscription as Stripe reports it (`followProvider`), its trial
 * (with a card, through Checkout) included.
 */
import { effectivePlanOf, isOnHold, isPayingFor, isUpgrade, type BillingInterval, type PaidPlanId, type PlanChoice, type SubscriptionStatus } from "~core/billing/billing"
import { getPlan, type PlanId } from "~core/billing/plans"

export interface SubscriptionRecord {
  provider: "test" | "stripe"
  plan_id: PlanId
  status: SubscriptionStatus
  billing_interval: BillingInterval | null
  current_period_end: Date | null
  cancel_at_period_end: boolean
  trial_end: Date | null
  trial_started_at: Date | null
  /** A lower plan waiting for the end of the period already paid. */
  scheduled_plan_id: PlanId | null
  stripe_customer_id: string | null
  stripe_subscription_id: string | null
  /** When the provider's event that ended the subscription was created: no older event may reopen it. */
  closed_by_event_at: Date | null
}

export const NO_RECORD: Omit<SubscriptionRecord, "provider"> = {
  plan_id: "free",
  status: "active",
  billing_interval: null,
  current_period_end: null,
  cancel_at_period_end: false,
  trial_end: null,
  trial_started_at: null,
  scheduled_plan_id: null,
  stripe_customer_id: null,
  stripe_subscription_id: null,
  closed_by_event_at: null
}

/** Why a transition is refused; the service words each one for the user. */
export type Refusal = "ALREADY_SUBSCRIBED" | "ON_HOLD" | "NO_SUBSCRIPTION" | "NOT_CANCELLED" | "TRIAL_ALREADY_USED"

/** The record after an event (the same object when nothing changes), or why the event is refused. */
export type Transition = { record: SubscriptionRecord } | { refused: Refusal }

/** How time-bound changes go: a test-mode record renews by itself only while the server runs in test mode. */
export interface SettleOptions {
  testRecordsRenew: boolean
}

export const effectivePlan = (record: Pick<SubscriptionRecord, "plan_id" | "status">): PlanId => effectivePlanOf(record.plan_id, record.status)

/** A paid plan the account has now (a trial included): what a payment or a trial would replace. */
export const hasPaidPlan = (record: Pick<SubscriptionRecord, "plan_id" | "status">): boolean => effectivePlan(record) !== "free"

/** A subscription the account pays for (not a trial): a new choice of plan is a change, not a payment. */
export const isPaying = (record: SubscriptionRecord | undefined): boolean => Boolean(record && isPayingFor(record.plan_id, record.status))

/**
 * A trial run here, without a card (test mode, or from before trials went through Stripe): it ends by time alone. A
 * trial at Stripe has a card, and a billing interval from its price: Stripe ends it (charging the card, or not).
 */
export const isLocalTrial = (record: Pick<SubscriptionRecord, "status" | "billing_interval">): boolean => record.status === "trialing" && record.billing_interval === null

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

/**
 * When the record may next change by time alone; null when only the provider can change it. A test-mode record is
 * reviewed at its period's end: it renews there (as a test card would be charged again) or, once the server takes
 * payments through Stripe and charges nobody for it, it ends there.
 */
export function reviewAt(record: SubscriptionRecord): Date | null {
  if (record.status === "canceled") return null
  if (isLocalTrial(record)) return record.trial_end
  if (record.provider === "test") return record.current_period_end
  return record.cancel_at_period_end || record.scheduled_plan_id ? record.current_period_end : null
}

const ended = (record: SubscriptionRecord): SubscriptionRecord => ({ ...record, plan_id: "free", status: "canceled", cancel_at_period_end: false, scheduled_plan_id: null })

/** The record once the time-bound changes due at `now` are made: a trial's end, a period's end, a test renewal. */
export function settle(record: SubscriptionRecord, now: Date, options: SettleOptions): SubscriptionRecord {
  const due = reviewAt(record)
  if (!due || due > now) return record
  if (record.status === "trialing") return ended(record)
  if (record.cancel_at_period_end || record.scheduled_plan_id === "free") return ended(record)
  if (record.provider === "test" && !options.testRecordsRenew) return ended(record)
  const plan = record.scheduled_plan_id ?? record.plan_id
  if (record.provider !== "test" || !record.current_period_end || !record.billing_interval) return { ...record, plan_id: plan, scheduled_plan_id: null }
  let periodEnd = record.current_period_end
  while (periodEnd <= now) periodEnd = addInterval(periodEnd, record.billing_interval)
  return { ...record, plan_id: plan, scheduled_plan_id: null, current_period_end: periodEnd }
}

/**
 * Refuses a new payment while the account already has a subscription it pays for, one on hold, or a trial at Stripe (it
 * becomes the paid subscription at its end: a second one would be charged beside it).
 */
function newPaymentRefusal(current: SubscriptionRecord | undefined): Refusal | null {
  if (isPaying(current) || (current?.status === "trialing" && !isLocalTrial(current))) return "ALREADY_SUBSCRIBED"
  if (current && isOnHold(current.status)) return "ON_HOLD"
  return null
}

/** A test-mode payment went through: the plan starts now, for one interval. A running trial becomes the paid plan. */
export function pay(current: SubscriptionRecord | undefined, choice: { planId: PaidPlanId; interval: BillingInterval }, now: Date): Transition {
  const refusal = newPaymentRefusal(current)
  if (refusal) return { refused: refusal }
  return {
    record: {
      ...(current ?? NO_RECORD),
      provider: "test",
      plan_id: choice.planId,
      status: "active",
      billing_interval: choice.interval,
      current_period_end: addInterval(now, choice.interval),
      cancel_at_period_end: false,
      trial_end: null,
      scheduled_plan_id: null,
      stripe_subscription_id: null,
      closed_by_event_at: null
    }
  }
}

/** Whether a payment for a new subscription may start (a Checkout Session): the same rule as `pay`. */
export const mayStartPayment = (current: SubscriptionRecord | undefined): Refusal | null => newPaymentRefusal(current)

/**
 * A test-mode plan change: an upgrade (a higher plan, or yearly billing of the same plan) is charged and given now,
 * starting a new period; anything else waits for the end of the period already paid. Choosing the plan and billing the
 * account has, with nothing scheduled, is refused.
 */
export function changePlan(current: SubscriptionRecord | undefined, choice: PlanChoice & { interval: BillingInterval }, now: Date): Transition {
  if (!current || !isPaying(current)) return { refused: "NO_SUBSCRIPTION" }
  if (current.plan_id === choice.planId && current.billing_interval === choice.interval && !current.scheduled_plan_id) return { refused: "ALREADY_SUBSCRIBED" }
  if (isUpgrade({ plan: current.plan_id, interval: current.billing_interval }, choice)) {
    return {
      record: { ...current, plan_id: choice.planId, billing_interval: choice.interval, current_period_end: addInterval(now, choice.interval), scheduled_plan_id: null, cancel_at_period_end: false }
    }
  }
  const scheduled = choice.planId === current.plan_id ? null : choice.planId
  return { record: { ...current, scheduled_plan_id: scheduled, billing_interval: choice.interval, cancel_at_period_end: false } }
}

/** Cancelling: a trial without a card ends now; a paid period is kept to its end. Cancelling twice changes nothing. */
export function cancel(current: SubscriptionRecord | undefined, now: Date): Transition {
  if (!current || !hasPaidPlan(current)) return { refused: "NO_SUBSCRIPTION" }
  if (current.status === "trialing") return { record: { ...current, plan_id: "free", status: "canceled", trial_end: now } }
  return { record: current.cancel_at_period_end ? current : { ...current, cancel_at_period_end: true } }
}

/** Taking a cancellation back before the period ends. */
export function resume(current: SubscriptionRecord | undefined): Transition {
  if (!current || !hasPaidPlan(current) || !current.cancel_at_period_end) return { refused: "NOT_CANCELLED" }
  return { record: { ...current, cancel_at_period_end: false } }
}

/**
 * Why the account may not start the free trial: used (a trace of a deleted account's trial, or of another account of
 * the same person, counts: trial_started_at is set), a paid plan running, or a subscription on hold. Null: it may.
 */
export function trialRefusal(current: SubscriptionRecord | undefined): Refusal | null {
  if (current?.trial_started_at) return "TRIAL_ALREADY_USED"
  if (current && hasPaidPlan(current)) return "ALREADY_SUBSCRIBED"
  if (current && isOnHold(current.status)) return "ON_HOLD"
  return null
}

/** The free trial of `planId` without a card, run here: once per account. */
export function startTrial(current: SubscriptionRecord | undefined, planId: PaidPlanId, trialDays: number, provider: SubscriptionRecord["provider"], now: Date): Transition {
  const refusal = trialRefusal(current)
  if (refusal) return { refused: refusal }
  return {
    record: {
      ...(current ?? { ...NO_RECORD, provider }),
      plan_id: planId,
      status: "trialing",
      billing_interval: null,
      current_period_end: null,
      cancel_at_period_end: false,
      scheduled_plan_id: null,
      trial_started_at: now,
      trial_end: new Date(now.getTime() + trialDays * 86_400_000)
    }
  }
}

/** The account's trial counts as used, though it did not run here: another account of the same person had it. */
export function trialUsedElsewhere(current: SubscriptionRecord | undefined, provider: SubscriptionRecord["provider"], now: Date): SubscriptionRecord {
  return current?.trial_started_at ? current : { ...(current ?? { ...NO_RECORD, provider }), trial_started_at: now }
}

/** A renewal's payment failed: the provider retries it, the plan is kept meanwhile. */
export function paymentFailed(current: SubscriptionRecord): SubscriptionRecord {
  return current.status === "active" ? { ...current, status: "past_due" } : current
}

/** A subscription as the payment provider reports it now (read from the provider, never from an event's copy). */
export interface ProviderSubscription {
  subscriptionId: string
  customerId: string | null
  plan: PaidPlanId
  interval: BillingInterval
  status: SubscriptionStatus
  periodEnd: Date
  cancelAtPeriodEnd: boolean
  /** When its trial started (it may have ended since): the account's trial is used. */
  trialStart: Date | null
  trialEnd: Date | null
}

/**
 * The record following the provider's subscription, as of an event created at `eventAt`. Unchanged (the same object)
 * when the subscription is not the account's: an earlier one of the account ending while a later one runs, or any
 * event older than the one that ended the account's subscription (deliveries come in any order and are retried for days).
 * A lower plan within the period already paid is a downgrade: the paid plan is kept until the period's end.
 */
export function followProvider(current: SubscriptionRecord | undefined, reported: ProviderSubscription, eventAt: Date): SubscriptionRecord {
  if (current?.closed_by_event_at && eventAt <= current.closed_by_event_at) return current
  const follows = current?.stripe_subscription_id === reported.subscriptionId
  if (current?.stripe_subscription_id && !follows && current.status !== "canceled" && reported.status === "canceled") return current
  const sameLivePeriod = follows && current.status !== "canceled" && current.current_period_end?.getTime() === reported.periodEnd.getTime()
  const downgrade = sameLivePeriod && reported.status !== "canceled" && getPlan(reported.plan).rank < getPlan(current.plan_id).rank
  const closes = reported.status === "canceled"
  return {
    ...(current ?? { ...NO_RECORD, provider: "stripe" }),
    provider: "stripe",
    plan_id: downgrade ? current.plan_id : reported.plan,
    scheduled_plan_id: downgrade ? reported.plan : null,
    status: reported.status,
    billing_interval: reported.interval,
    current_period_end: reported.periodEnd,
    cancel_at_period_end: !closes && reported.cancelAtPeriodEnd,
    trial_end: reported.status === "trialing" ? reported.trialEnd : null,
    trial_started_at: current?.trial_started_at ?? reported.trialStart,
    stripe_customer_id: reported.customerId ?? current?.stripe_customer_id ?? null,
    stripe_subscription_id: reported.subscriptionId,
    closed_by_event_at: closes ? eventAt : null
  }
}
