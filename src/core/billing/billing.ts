/**
 * Subscriptions: the record the server keeps (changed only by the payment provider's events, or by a test-mode
 * payment), the requests of the billing routes, and the texts both the site and the server show.
 */
import * as z from "zod"

import { FREE_TRIAL_DAYS } from "./plans"
import { DAY_MS } from "../time"
import { getPlan, PLAN_IDS, type PlanId } from "./plans"

export const BILLING_INTERVALS = ["month", "year"] as const
export type BillingInterval = (typeof BILLING_INTERVALS)[number]

/**
 * past_due: a renewal failed and the provider is retrying it; the plan is kept meanwhile. unpaid and paused: the provider
 * gave up retrying, or paused collection: the account is on Free until the invoice is paid.
 */
export const SUBSCRIPTION_STATUSES = ["trialing", "active", "past_due", "unpaid", "paused", "canceled"] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/** Statuses in which the subscription gives no paid plan: ended, or on hold until an invoice is paid. */
const STATUSES_WITHOUT_PLAN: readonly string[] = ["canceled", "unpaid", "paused"] satisfies SubscriptionStatus[]

/** Stripe mode when the server has a Stripe account configured; test mode (no card is charged) otherwise. */
export const BILLING_MODES = ["stripe", "test"] as const
export type BillingMode = (typeof BILLING_MODES)[number]

/** The spec's "14-day free trial, no card required" (a card in Stripe mode: TRIAL_CARD_TERMS), once per person. */
export const TRIAL_DAYS = FREE_TRIAL_DAYS
export const TRIAL_PLAN: PlanId = "pro"

export const TEST_MODE_NOTICE = "Test mode: no card is charged"

/**
 * What starting the free trial asks for, where the trial is offered. Test mode takes no card (the spec's "no card
 * required"); in Stripe mode the trial goes through Stripe's Checkout, which takes a card, charged only once the trial
 * has ended without being cancelled.
 */
export const TRIAL_CARD_TERMS: Record<BillingMode, string> = {
  test: "No card required.",
  stripe: "A card is needed to start it. Nothing is charged before the trial ends, and you can cancel any time before then."
}

/** Stripe's documented test cards that test mode accepts: https://docs.stripe.com/testing */
export const TEST_CARD_SUCCEEDS = "4242424242424242"
export const TEST_CARD_DECLINED = "4000000000000002"
/** Stripe's own decline message for its generic-decline test card. */
export const CARD_DECLINED_MESSAGE = "Your card was declined."
export const TEST_CARD_REQUIRED_MESSAGE = "Test mode accepts only Stripe's test cards: use 4242 4242 4242 4242. No card is charged."

export const PAID_PLAN_IDS = ["pro", "enterprise"] as const satisfies readonly PlanId[]
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number]

/** The subscription as GET /api/billing/subscription answers it. Dates are ISO strings. */
export const subscriptionSchema = z.object({
  plan: z.enum(PLAN_IDS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** null on Free. */
  interval: z.enum(BILLING_INTERVALS).nullable(),
  /** When the paid period ends: the renewal date, or the end date when cancelAtPeriodEnd. */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  trialEnd: z.string().nullable(),
  /** A downgrade waiting for the period's end. */
  scheduledPlan: z.enum(PLAN_IDS).nullable(),
  /** The account may still start its free trial. */
  trialAvailable: z.boolean(),
  /** Stripe's customer portal is open to this account (Stripe mode, once it has a Stripe customer). */
  portalAvailable: z.boolean(),
  mode: z.enum(BILLING_MODES)
})
export type Subscription = z.infer<typeof subscriptionSchema>

/** The answer of the calls that change a subscription: the subscription as it is now. */
export const subscriptionAnswerSchema = z.object({ subscription: subscriptionSchema })

/** POST /api/billing/checkout and /portal: the page of the payment provider to send the browser to. */
export const providerPageSchema = z.object({ url: z.string() })

/** POST /api/billing/webhook: the event was read; processed is false when it had been applied already. */
export const webhookReceiptSchema = z.object({ received: z.literal(true), processed: z.boolean() })

/** GET /api/billing/config, public: how the payment page takes payments. */
export const billingConfigSchema = z.object({ mode: z.enum(BILLING_MODES), trialDays: z.number().int() })
export type BillingConfig = z.infer<typeof billingConfigSchema>

/** POST /api/billing/checkout and POST /api/billing/change. */
export const planChoiceSchema = z.strictObject({
  planId: z.enum(PAID_PLAN_IDS),
  annual: z.boolean()
})
export type PlanChoice = z.infer<typeof planChoiceSchema>

const cardField = (max: number) => z.string().max(max)

/** POST /api/billing/test-payment: the payment form's fields; the form's checks (~core/payment) run on the server too. */
export const testPaymentSchema = planChoiceSchema.extend({
  email: cardField(254),
  cardNumber: cardField(32),
  expiryMonth: cardField(2),
  expiryYear: cardField(4),
  cvc: cardField(4),
  cardholderName: cardField(200),
  billingAddress: cardField(500),
  country: cardField(2)
})
export type TestPayment = z.infer<typeof testPaymentSchema>

/** POST /api/billing/trial */
export const trialRequestSchema = z.strictObject({ planId: z.literal(TRIAL_PLAN) })

/**
 * The plan a subscription gives: its plan while it runs (a trial, a payment being retried); Free once cancelled, and
 * while it is unpaid or paused (nothing is granted that was not paid for).
 */
export const effectivePlanOf = (plan: PlanId, status: string): PlanId => (STATUSES_WITHOUT_PLAN.includes(status) ? "free" : plan)

/** Said on the dashboard and in the refusal of a new payment while a subscription is on hold. */
export const SUBSCRIPTION_ON_HOLD_MESSAGE = "Your subscription is on hold because an invoice is unpaid: your account is on the Free plan until you pay it from the billing portal."

/** A subscription on hold at the provider (unpaid, paused): it comes back once its invoice is paid, so a new one is not sold. */
export const isOnHold = (status: string): boolean => status === "unpaid" || status === "paused"

/**
 * A subscription the account pays for: a new choice of plan is a plan change. A trial is not one: choosing a plan during
 * a trial without a card is a payment (a trial at Stripe, with a card, becomes the paid plan itself at its end).
 */
export const isPayingFor = (plan: PlanId, status: string): boolean => effectivePlanOf(plan, status) !== "free" && status !== "trialing"

export const intervalOf = (annual: boolean): BillingInterval => (annual ? "year" : "month")

/** Whole days of the trial left, counting a started day as one; 0 once it has ended. */
export function trialDaysLeft(trialEnd: string | null, now: number): number {
  if (!trialEnd) return 0
  return Math.max(0, Math.ceil((Date.parse(trialEnd) - now) / DAY_MS))
}

/**
 * Whether moving a paid subscription to `choice` is an upgrade, charged pro rata and given at once: a higher plan, or
 * yearly billing of the same plan. Anything else (a lower plan, monthly billing) waits for the period's end.
 */
export function isUpgrade(current: { plan: PlanId; interval: BillingInterval | null }, choice: { planId: PlanId; annual: boolean }): boolean {
  const from = getPlan(current.plan).rank
  const to = getPlan(choice.planId).rank
  return to > from || (to === from && current.interval === "month" && choice.annual)
}
