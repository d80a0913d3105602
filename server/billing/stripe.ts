/** Stripe mode: the SDK client, our price ids, and Stripe's subscriptions read into our record. */
import Stripe from "stripe"

import { BILLING_INTERVALS, PAID_PLAN_IDS, type BillingInterval, type PaidPlanId, type SubscriptionStatus } from "~core/billing"
import { getPlan } from "~core/plans"

import type { StripeConfig } from "../config"
import { NO_RECORD, type RecordFields } from "./records"

const STRIPE_TIMEOUT_MS = 20_000

export function createStripeClient(config: StripeConfig): Stripe {
  // STRIPE_API_BASE (tests only) sends the SDK to a stand-in on loopback.
  const base = config.apiBase ? new URL(config.apiBase) : null
  return new Stripe(config.secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 2,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === "https:" ? 443 : 80), protocol: base.protocol === "https:" ? "https" : "http" } : {})
  })
}

export const priceFor = (config: StripeConfig, plan: PaidPlanId, interval: BillingInterval): string => config.prices[plan][interval]

export function planOfPrice(config: StripeConfig, priceId: string): { plan: PaidPlanId; interval: BillingInterval } | null {
  for (const plan of PAID_PLAN_IDS) {
    for (const interval of BILLING_INTERVALS) if (config.prices[plan][interval] === priceId) return { plan, interval }
  }
  return null
}

/** The id of a field Stripe sends either as an id or, expanded, as the object. */
export const idOf = (field: string | { id: string } | null | undefined): string | null => (typeof field === "string" ? field : (field?.id ?? null))

/** Stripe's statuses in ours; null for a subscription whose first payment is not made yet (it gives nothing). */
function statusOf(status: Stripe.Subscription.Status): SubscriptionStatus | null {
  switch (status) {
    case "trialing":
      return "trialing"
    case "active":
      return "active"
    case "past_due":
    case "unpaid":
    case "paused":
      return "past_due"
    case "canceled":
    case "incomplete_expired":
      return "canceled"
    default:
      return null
  }
}

export type StripeReading = { record: RecordFields } | { ignored: string }

/**
 * Our record from a Stripe subscription. A lower plan for the period already paid is a downgrade: the paid plan is
 * kept until the period's end, the lower one scheduled. An event about another subscription than the account's
 * live one, or with a price that is not ours, changes nothing.
 */
export function readStripeSubscription(config: StripeConfig, subscription: Stripe.Subscription, current: RecordFields | undefined): StripeReading {
  const item = subscription.items.data[0]
  const price = item && planOfPrice(config, item.price.id)
  if (!item || !price) return { ignored: `price ${item?.price.id ?? "(none)"} is not one of STRIPE_PRICE_*` }
  const status = statusOf(subscription.status)
  if (!status) return { ignored: `subscription ${subscription.status}` }
  const follows = current?.stripe_subscription_id === subscription.id
  if (current?.stripe_subscription_id && !follows && current.status !== "canceled" && status === "canceled") {
    return { ignored: "an earlier subscription of the account ended" }
  }
  const periodEnd = new Date(item.current_period_end * 1000)
  const sameLivePeriod = follows && current.status !== "canceled" && current.current_period_end?.getTime() === periodEnd.getTime()
  const downgrade = sameLivePeriod && status !== "canceled" && getPlan(price.plan).rank < getPlan(current.plan_id).rank
  return {
    record: {
      ...(current ?? { ...NO_RECORD, provider: "stripe" }),
      provider: "stripe",
      plan_id: downgrade ? current.plan_id : price.plan,
      scheduled_plan_id: downgrade ? price.plan : null,
      status,
      billing_interval: price.interval,
      current_period_end: periodEnd,
      cancel_at_period_end: status !== "canceled" && subscription.cancel_at_period_end,
      trial_end: status === "trialing" && subscription.trial_end ? new Date(subscription.trial_end * 1000) : null,
      stripe_customer_id: idOf(subscription.customer),
      stripe_subscription_id: subscription.id
    }
  }
}
