/**
 * What the billing routes call: each action reads the caller's record, picks the provider that handles it and lets it
 * act. New subscriptions go to the server's provider (Stripe, or test mode); an existing subscription goes to the
 * provider that holds it (a Stripe subscription, its trial included, to Stripe; trials without a card and test-mode
 * records to the test provider). The free trial is the server's provider's: run here in test mode, without a card;
 * through Checkout in Stripe mode, with a card.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"
import type Stripe from "stripe"

import type { PaidPlanId, PlanChoice, TestPayment } from "~core/billing/billing"

import type { UserRow } from "../auth/user-store"
import { ApiError } from "../http/errors"
import { settleOptionsOf } from "./plan"
import type { Account, BillingProvider, TrialStart } from "./providers/provider"
import { createStripeClient, stripeProvider } from "./providers/stripe"
import { testProvider } from "./providers/test"
import { isLocalTrial, settle, type SubscriptionRecord } from "./subscription-rules"
import { findRecord, liveRecords } from "./subscription-store"
import { subscriptionFigures } from "./subscription-view"

/** A Stripe subscription on a server set up without Stripe (its variables removed): nothing can change it here. */
const stripeUnreachable = () =>
  new ApiError(409, "WRONG_BILLING_MODE", "Your subscription is billed through Stripe, which this server is not set up for. Please contact support.")

export interface BillingService {
  /** The Stripe client in Stripe mode (the webhook reads subscriptions with it), null in test mode. */
  stripe: Stripe | null
  currentRecord(userId: string): Promise<SubscriptionRecord | undefined>
  payWithTestCard(user: UserRow, log: FastifyBaseLogger, payment: TestPayment): Promise<SubscriptionRecord | undefined>
  checkout(user: UserRow, log: FastifyBaseLogger, choice: PlanChoice): Promise<{ url: string }>
  portal(user: UserRow, log: FastifyBaseLogger): Promise<{ url: string }>
  change(user: UserRow, log: FastifyBaseLogger, choice: PlanChoice): Promise<SubscriptionRecord | undefined>
  cancel(user: UserRow, log: FastifyBaseLogger): Promise<SubscriptionRecord | undefined>
  resume(user: UserRow, log: FastifyBaseLogger): Promise<SubscriptionRecord | undefined>
  startTrial(user: UserRow, log: FastifyBaseLogger, planId: PaidPlanId): Promise<TrialStart>
}

export async function billingService(app: FastifyInstance): Promise<BillingService> {
  const stripeConfig = app.config.stripe
  const stripe = stripeConfig ? await createStripeClient(stripeConfig) : null
  const test = testProvider(app)
  const forNewSubscriptions: BillingProvider = stripe && stripeConfig ? stripeProvider(app, stripeConfig, stripe) : test
  const forRecord = (record: SubscriptionRecord | undefined): BillingProvider => {
    if (!record?.stripe_subscription_id || isLocalTrial(record)) return test
    if (forNewSubscriptions === test) throw stripeUnreachable()
    return forNewSubscriptions
  }

  /** The caller's record as it stands now, its time-bound changes made (they are stored by the next change). */
  const currentRecord = async (userId: string) => {
    const stored = await findRecord(app.database.db, userId)
    return stored && settle(stored, new Date(app.clock()), settleOptionsOf(app.config))
  }
  const accountOf = async (user: UserRow, log: FastifyBaseLogger): Promise<Account> => ({ user, log, record: await currentRecord(user.id) })

  return {
    stripe,
    currentRecord,
    payWithTestCard: async (user, log, payment) => forNewSubscriptions.payWithTestCard(await accountOf(user, log), payment),
    checkout: async (user, log, choice) => forNewSubscriptions.checkout(await accountOf(user, log), choice),
    portal: async (user, log) => forNewSubscriptions.portal(await accountOf(user, log)),
    async change(user, log, choice) {
      const account = await accountOf(user, log)
      return forRecord(account.record).change(account, choice)
    },
    async cancel(user, log) {
      const account = await accountOf(user, log)
      return forRecord(account.record).cancel(account)
    },
    async resume(user, log) {
      const account = await accountOf(user, log)
      return forRecord(account.record).resume(account)
    },
    startTrial: async (user, log, planId) => forNewSubscriptions.startTrial(await accountOf(user, log), planId)
  }
}

/** The admin overview's billing figures, from the live records as they stand now. */
export async function liveSubscriptionFigures(app: FastifyInstance) {
  const now = new Date(app.clock())
  return subscriptionFigures((await liveRecords(app.database.db)).map((record) => settle(record, now, settleOptionsOf(app.config))))
}
