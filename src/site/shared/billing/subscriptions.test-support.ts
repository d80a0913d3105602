import type { Subscription } from "~core/billing/billing"

/** The record of an account that never subscribed, as GET /api/billing/subscription answers it in test mode. */
export const FREE_SUBSCRIPTION: Subscription = {
  plan: "free",
  status: "active",
  interval: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  trialEnd: null,
  scheduledPlan: null,
  trialAvailable: true,
  portalAvailable: false,
  mode: "test"
}

export const PERIOD_END = "2026-12-23T12:00:00.000Z"
