/**
 * The Stripe provider: hosted Checkout for a new subscription or the free trial, the customer portal, and plan changes,
 * cancellations and resumptions made at Stripe, the record then following the subscription Stripe answers. Nothing is
 * granted on our side before Stripe has been paid: an upgrade is sent with payment_behavior "pending_if_incomplete", so
 * Stripe applies it only once its invoice is paid, and a subscription Stripe reports unpaid or paused gives Free. The
 * trial is Stripe's trial with a payment method: Checkout collects a card, nothing is charged before the trial ends, and
 * the trial is given once per card (stripe-trials.ts, when Stripe reports it).
 */
import type { FastifyInstance } from "fastify"
import type Stripe from "stripe"

import { BILLING_INTERVALS, intervalOf, isUpgrade, PAID_PLAN_IDS, TRIAL_DAYS, type BillingInterval, type PaidPlanId, type SubscriptionStatus } from "~core/billing/billing"

import { trialHeldElsewhere } from "../../auth/account-traces"
import { signInRequired } from "../../http/errors"
import type { StripeConfig } from "../../config"
import { noSubscription, providerFailed, refusalError, upgradeNotPaid, wrongMode } from "../billing-errors"
import { changeSubscription } from "../subscription-changes"
import { followProvider, hasPaidPlan, isPaying, mayStartPayment, NO_RECORD, trialRefusal, type ProviderSubscription } from "../subscription-rules"
import { markTrialUsed } from "../subscription-store"
import type { Account, BillingProvider } from "./provider"

const STRIPE_TIMEOUT_MS = 20_000

export async function createStripeClient(config: StripeConfig): Promise<Stripe> {
  // Loaded only in Stripe mode: the SDK is 0.11 CPU-s of every start otherwise.
  const { default: StripeSdk } = await import("stripe")
  // STRIPE_API_BASE (tests only) sends the SDK to a stand-in on loopback.
  const base = config.apiBase ? new URL(config.apiBase) : null
  return new StripeSdk(config.secretKey, {
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
    case "active":
    case "past_due":
    case "unpaid":
    case "paused":
    case "canceled":
      return status as SubscriptionStatus
    case "incomplete_expired":
      return "canceled"
    default:
      return null
  }
}

/** A Stripe subscription as our rules read it, or why it is none of ours (a price that is not one of STRIPE_PRICE_*). */
export function readStripeSubscription(config: StripeConfig, subscription: Stripe.Subscription): ProviderSubscription | { ignored: string } {
  const item = subscription.items.data[0]
  const price = item && planOfPrice(config, item.price.id)
  if (!item || !price) return { ignored: `price ${item?.price.id ?? "(none)"} is not one of STRIPE_PRICE_*` }
  const status = statusOf(subscription.status)
  if (!status) return { ignored: `subscription ${subscription.status}` }
  return {
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer),
    plan: price.plan,
    interval: price.interval,
    status,
    periodEnd: new Date(item.current_period_end * 1000),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    trialStart: subscription.trial_start ? new Date(subscription.trial_start * 1000) : null,
    trialEnd: subscription.trial_end ? new Date(subscription.trial_end * 1000) : null
  }
}

export function stripeProvider(app: FastifyInstance, config: StripeConfig, client: Stripe): BillingProvider {
  const call = async <T>(account: Account, request: (stripe: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await request(client)
    } catch (error) {
      throw providerFailed(account.log, error)
    }
  }

  /** The account's record made to follow the subscription Stripe answered, as of now. */
  const followAnswer = async (account: Account, subscription: Stripe.Subscription) => {
    const reading = readStripeSubscription(config, subscription)
    if ("ignored" in reading) account.log.info({ subscription: subscription.id, why: reading.ignored }, "Stripe subscription ignored")
    const change = await changeSubscription(app, account.user.id, (current) => ("ignored" in reading ? null : followProvider(current, reading, new Date(app.clock()))))
    if (!change) throw signInRequired()
    return change.after
  }

  /** The account's Stripe customer, made once: the idempotency key makes parallel first checkouts share one. */
  const customerOf = async (account: Account): Promise<string> => {
    if (account.record?.stripe_customer_id) return account.record.stripe_customer_id
    const { user } = account
    const created = await call(account, (stripe) => stripe.customers.create({ email: user.email, name: user.name, metadata: { userId: user.id } }, { idempotencyKey: `customer-${user.id}` }))
    const change = await changeSubscription(app, user.id, (current) => (current?.stripe_customer_id ? null : { ...(current ?? { ...NO_RECORD, provider: "stripe" as const }), stripe_customer_id: created.id }))
    return change?.after?.stripe_customer_id ?? created.id
  }

  /** A hosted Checkout Session for a subscription to `planId`; with `trialDays`, Stripe's trial, for which Checkout collects a card. */
  const openCheckout = async (account: Account, planId: PaidPlanId, interval: BillingInterval, trialDays?: number): Promise<{ url: string }> => {
    const customer = await customerOf(account)
    const { user } = account
    const metadata = { userId: user.id, planId }
    const session = await call(account, (stripe) =>
      stripe.checkout.sessions.create({
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price: priceFor(config, planId, interval), quantity: 1 }],
        metadata,
        subscription_data: trialDays
          ? // A card removed during the trial ends it at its end rather than leaving an invoice nobody can pay.
            { metadata, trial_period_days: trialDays, trial_settings: { end_behavior: { missing_payment_method: "cancel" } } }
          : { metadata },
        // Stripe's default in subscription mode, said here: the trial is given against a card, one trial per card.
        ...(trialDays ? { payment_method_collection: "always" as const } : {}),
        success_url: `${app.config.publicUrl}/dashboard?subscription=success`,
        cancel_url: `${app.config.publicUrl}/pricing`
      })
    )
    if (!session.url) throw providerFailed(account.log, new Error("Checkout Session without a URL"))
    return { url: session.url }
  }

  const liveSubscriptionId = (account: Account): string => {
    const id = account.record?.stripe_subscription_id
    if (!id) throw noSubscription()
    return id
  }

  return {
    async payWithTestCard() {
      throw wrongMode("stripe")
    },
    async checkout(account, choice) {
      // A test-mode subscription left from before Stripe runs to its end: paying through Stripe replaces it.
      const refusal = account.record?.provider === "test" ? null : mayStartPayment(account.record)
      if (refusal) throw refusalError(refusal, account.record)
      return openCheckout(account, choice.planId, intervalOf(choice.annual))
    },
    /**
     * Checkout for the trial (billed monthly once it ends), unless the account or another account of the person's
     * mailbox or Google uid had a trial: then this account's is marked used and the call refused. The card is checked when
     * Stripe reports the subscription, as Checkout is where it is given.
     */
    async startTrial(account, planId) {
      const refusal = trialRefusal(account.record)
      if (refusal) throw refusalError(refusal, account.record)
      const db = app.database.db
      if (await trialHeldElsewhere(app, db, account.user)) {
        const now = new Date(app.clock())
        await markTrialUsed(db, account.user.id, now, "stripe", now)
        throw refusalError("TRIAL_ALREADY_USED", account.record)
      }
      return openCheckout(account, planId, "month", TRIAL_DAYS)
    },
    async portal(account) {
      const customer = account.record?.stripe_customer_id
      if (!customer) throw noSubscription("portal")
      const session = await call(account, (stripe) => stripe.billingPortal.sessions.create({ customer, return_url: `${app.config.publicUrl}/dashboard` }))
      return { url: session.url }
    },
    async change(account, choice) {
      const record = account.record
      if (!record || !isPaying(record)) throw noSubscription("change")
      const interval = intervalOf(choice.annual)
      if (record.plan_id === choice.planId && record.billing_interval === interval && !record.scheduled_plan_id) throw refusalError("ALREADY_SUBSCRIBED", record)
      const id = liveSubscriptionId(account)
      let live = await call(account, (stripe) => stripe.subscriptions.retrieve(id))
      const item = live.items.data[0]
      if (!item) throw noSubscription()
      // A pending update takes only the fields that make an invoice: a cancellation is taken back in a call of its own.
      if (live.cancel_at_period_end) live = await call(account, (stripe) => stripe.subscriptions.update(id, { cancel_at_period_end: false }))
      const upgrade = isUpgrade({ plan: record.plan_id, interval: record.billing_interval }, choice)
      const updated = await call(account, (stripe) =>
        stripe.subscriptions.update(id, {
          items: [{ id: item.id, price: priceFor(config, choice.planId, interval) }],
          // An upgrade is charged (pro rata) and given at once, but only once paid; a downgrade is billed from the next period.
          proration_behavior: upgrade ? "always_invoice" : "none",
          payment_behavior: "pending_if_incomplete"
        })
      )
      const after = await followAnswer(account, updated)
      if (updated.pending_update) throw upgradeNotPaid()
      return after
    },
    async cancel(account) {
      const record = account.record
      if (!record || !hasPaidPlan(record)) throw noSubscription("cancel")
      if (record.cancel_at_period_end) return record
      const id = liveSubscriptionId(account)
      return followAnswer(account, await call(account, (stripe) => stripe.subscriptions.update(id, { cancel_at_period_end: true })))
    },
    async resume(account) {
      const record = account.record
      if (!record || !hasPaidPlan(record) || !record.cancel_at_period_end) throw refusalError("NOT_CANCELLED", record)
      const id = liveSubscriptionId(account)
      return followAnswer(account, await call(account, (stripe) => stripe.subscriptions.update(id, { cancel_at_period_end: false })))
    }
  }
}
