/** A record as the API answers it (GET /api/billing/subscription and every billing action), and the admin's figures. */
import type { BillingMode, Subscription } from "~core/billing/billing"
import { getPlan } from "~core/billing/plans"

import { effectivePlan, hasPaidPlan, NO_RECORD, type SubscriptionRecord } from "./subscription-rules"

export function toSubscription(record: SubscriptionRecord | undefined, mode: BillingMode): Subscription {
  const row = record ?? { ...NO_RECORD, provider: mode }
  const iso = (date: Date | null) => date?.toISOString() ?? null
  const plan = effectivePlan(row)
  return {
    plan,
    status: row.status,
    interval: plan === "free" ? null : row.billing_interval,
    currentPeriodEnd: iso(row.current_period_end),
    cancelAtPeriodEnd: row.cancel_at_period_end,
    trialEnd: iso(row.trial_end),
    scheduledPlan: row.scheduled_plan_id,
    trialAvailable: row.trial_started_at === null && !hasPaidPlan(row),
    portalAvailable: mode === "stripe" && row.stripe_customer_id !== null,
    mode
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

/** The admin overview's billing figures, from the live records (each settled as of now). */
export function subscriptionFigures(records: SubscriptionRecord[]): SubscriptionFigures {
  const figures: SubscriptionFigures = { subscribers: { pro: 0, enterprise: 0 }, trialing: 0, pastDue: 0, monthlyRecurringRevenue: 0 }
  for (const record of records) {
    const plan = effectivePlan(record)
    if (plan === "free") continue
    if (record.status === "trialing") {
      figures.trialing++
      continue
    }
    if (record.status === "past_due") figures.pastDue++
    figures.subscribers[plan]++
    const { price, annualPrice } = getPlan(plan)
    figures.monthlyRecurringRevenue += record.billing_interval === "year" ? annualPrice / 12 : price
  }
  figures.monthlyRecurringRevenue = Math.round(figures.monthlyRecurringRevenue * 100) / 100
  return figures
}
