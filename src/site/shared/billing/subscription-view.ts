/** How the site reads and words a subscription record: paid or not, its status, its dates, a plan change's effect. */
import { countOf, longDate } from "~core/format"
import { effectivePlanOf, intervalOf, isPayingFor, isUpgrade, PAID_PLAN_IDS, type PaidPlanId, type Subscription, type SubscriptionStatus } from "~core/billing/billing"
import { type Plan, type PlanId } from "~core/billing/plans"

export const isPaidPlan = (plan: string): plan is PaidPlanId => (PAID_PLAN_IDS as readonly string[]).includes(plan)

/** A plan one pays for: what the payment page sells. */
export type PaidPlan = Plan & { id: PaidPlanId }
export const isPaidPlanRecord = (plan: Plan): plan is PaidPlan => isPaidPlan(plan.id)

/** A paid plan that is running (trial, paid, or a payment being retried): a new choice is a plan change. */
export const hasPaidSubscription = (subscription: Subscription): boolean => effectivePlanId(subscription) !== "free"

/** A subscription the account pays for (~core/billing's rule, the server's): a new choice of plan is a plan change. */
export const isPayingSubscription = (subscription: Subscription): boolean => isPayingFor(subscription.plan, subscription.status)

/** The plan the record gives: its paid plan while the subscription runs, else Free. */
export function effectivePlanId(subscription: Subscription): PlanId {
  return effectivePlanOf(subscription.plan, subscription.status)
}

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: "Trial",
  active: "Active",
  past_due: "Payment failed",
  unpaid: "Unpaid",
  paused: "Paused",
  canceled: "Canceled"
}

/** "3 days left in your free trial". */
export const trialDaysLeftText = (days: number) => `${countOf(days, "day", "days")} left in your free trial`

export type PlanChangeEffect = { kind: "same" } | { kind: "upgrade"; text: string } | { kind: "downgrade"; text: string }

/**
 * What choosing `target` (billed yearly when `annual`) means for an account paying for a subscription: now for an
 * upgrade (~core/billing's rule, the server's), at the period's end otherwise; nothing for the plan and billing it has.
 */
export function planChangeEffect(subscription: Subscription, target: Plan, annual: boolean): PlanChangeEffect {
  if (subscription.plan === target.id && subscription.interval === intervalOf(annual)) return { kind: "same" }
  if (isUpgrade(subscription, { planId: target.id, annual })) return { kind: "upgrade", text: "Upgrade takes effect now" }
  const when = subscription.currentPeriodEnd ? `on ${longDate(subscription.currentPeriodEnd)}` : "at the end of the current period"
  return { kind: "downgrade", text: `Downgrade takes effect ${when}` }
}
