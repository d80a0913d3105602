/**
 * One free trial per person in Stripe mode. Checkout takes a card for the trial; when Stripe reports a trialing
 * subscription (any event about it: the subscription is read from Stripe, never taken from the event), its card's
 * fingerprint is read from Stripe too, and the trial is given only if neither this account nor another account of the
 * same mailbox, Google uid or card had one (account-traces.ts). Otherwise the subscription is cancelled at Stripe at
 * once: nothing is charged. Ending the trial instead would charge at once a card its owner gave for a free trial, which
 * they did not agree to; cancelling takes nothing, and the e-mail says so and where to subscribe. The refusal is
 * recorded once per subscription (trial_refusals), and its e-mail queued in the same transaction, so it is sent once.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"
import type { Transaction } from "kysely"
import type Stripe from "stripe"

import { claimTrial, trialHeldElsewhere } from "../auth/account-traces"
import { findUserById, type UserRow } from "../auth/user-store"
import type { DatabaseSchema } from "../db/schema"
import { ApiError } from "../http/errors"
import { EMAIL_TEMPLATES } from "../mail/email-templates"
import { queueEmail } from "../mail/outbox"
import { providerFailed } from "./billing-errors"
import { idOf } from "./providers/stripe"
import type { SubscriptionRecord } from "./subscription-rules"
import { findRecord, recordTrialRefusal } from "./subscription-store"

/** Who had the trial before: this account, another of the same mailbox or Google uid, or another with the card. */
export type TrialRefusalReason = "account" | "identity" | "card"

/** What a trialing subscription asks of its account's transaction: claim the trial for the account, or record its refusal. */
export type TrialReview = { user: UserRow; subscriptionId: string } & ({ grant: { fingerprint: string | null } } | { refused: TrialRefusalReason })

/** The account has its trial already, from another subscription (or without a card): a second one is refused. */
const hadOwnTrial = (record: SubscriptionRecord | undefined, subscriptionId: string) => Boolean(record?.trial_started_at && record.stripe_subscription_id !== subscriptionId)

export function stripeTrials(app: FastifyInstance, stripe: Stripe) {
  const asked = async <T>(log: FastifyBaseLogger, request: () => Promise<T>): Promise<T> => {
    try {
      return await request()
    } catch (error) {
      throw providerFailed(log, error)
    }
  }

  /** The fingerprint of the card Checkout collected (the subscription's default payment method), read from Stripe. */
  const fingerprintOf = async (subscription: Stripe.Subscription, log: FastifyBaseLogger): Promise<string | null> => {
    const id = idOf(subscription.default_payment_method)
    if (!id) return null
    const method = await asked(log, () => stripe.paymentMethods.retrieve(id))
    return method.card?.fingerprint ?? null
  }

  /** Cancels the subscription now; one cancelled already (by another delivery about it) is taken as it is. */
  const cancelNow = async (id: string, log: FastifyBaseLogger): Promise<Stripe.Subscription> => {
    try {
      return await stripe.subscriptions.cancel(id)
    } catch (error) {
      const now = await asked(log, () => stripe.subscriptions.retrieve(id))
      if (now.status === "canceled") return now
      throw providerFailed(log, error)
    }
  }

  return {
    /**
     * Before the account's transaction (Stripe is not called inside it): for a subscription Stripe reports trialing, and
     * not already the account's trial, whether the person had a trial, on the trials recorded so far. A refused trial is
     * cancelled at Stripe here; the answer carries the subscription as Stripe has it then. Null: nothing to review.
     */
    async review(userId: string, subscription: Stripe.Subscription, log: FastifyBaseLogger): Promise<{ review: TrialReview; subscription: Stripe.Subscription } | null> {
      if (subscription.status !== "trialing") return null
      const db = app.database.db
      const [user, record] = await Promise.all([findUserById(db, userId), findRecord(db, userId)])
      if (!user || (record?.stripe_subscription_id === subscription.id && record.trial_started_at)) return null
      const fingerprint = await fingerprintOf(subscription, log)
      const refused = hadOwnTrial(record, subscription.id) ? "account" : await trialHeldElsewhere(app, db, user, fingerprint)
      if (!refused) return { review: { user, subscriptionId: subscription.id, grant: { fingerprint } }, subscription }
      log.info({ subscription: subscription.id, reason: refused }, "Stripe trial refused: the person had one; cancelled at Stripe")
      return { review: { user, subscriptionId: subscription.id, refused }, subscription: await cancelNow(subscription.id, log) }
    },

    /**
     * In the account's transaction, its row locked: a granted trial is claimed for the account (its mailbox, Google uid
     * and card); a refused one is recorded, and its e-mail queued, once. A claim that another account (or another
     * subscription of this one) made meanwhile fails the delivery, which changes nothing: Stripe sends the event again,
     * and the review then refuses the trial.
     */
    async apply(trx: Transaction<DatabaseSchema>, review: TrialReview): Promise<void> {
      const { user, subscriptionId } = review
      if ("grant" in review) {
        const heldBy = hadOwnTrial(await findRecord(trx, user.id), subscriptionId) ? "account" : await claimTrial(app, trx, user, review.grant.fingerprint)
        if (heldBy) throw new ApiError(409, "TRIAL_ALREADY_USED", "Another trial of this person started meanwhile: the event is applied when Stripe sends it again.")
        return
      }
      if (!(await recordTrialRefusal(trx, { subscriptionId, userId: user.id, reason: review.refused, now: new Date(app.clock()) }))) return
      const content = EMAIL_TEMPLATES.trialRefused({ name: user.name, reason: review.refused, pricingUrl: `${app.config.publicUrl}/pricing` })
      await queueEmail(app, trx, { to: user.email, what: "trial refused", content })
    }
  }
}
