/**
 * The test provider: payments with Stripe's documented test cards (no card is charged), and records run by the
 * server itself: test-mode subscriptions, and trials without a card (test mode's, and those started before trials went
 * through Stripe). On a server that has moved to Stripe, a test-mode subscription is neither renewed nor changed: it
 * runs to the end of its period.
 */
import type { FastifyInstance } from "fastify"

import { CARD_DECLINED_MESSAGE, intervalOf, TEST_CARD_DECLINED, TEST_CARD_REQUIRED_MESSAGE, TEST_CARD_SUCCEEDS, TRIAL_DAYS } from "~core/billing/billing"
import { cardDigits, validatePayment } from "~core/billing/payment"

import { claimTrial, type TrialHeldBy } from "../../auth/account-traces"
import { ApiError, signInRequired, validationFailed } from "../../http/errors"
import { refusalError, testRecordFrozen, wrongMode } from "../billing-errors"
import { changeSubscription } from "../subscription-changes"
import { cancel, changePlan, pay, resume, startTrial, trialUsedElsewhere, type SubscriptionRecord, type Transition } from "../subscription-rules"
import type { Account, BillingProvider } from "./provider"

export function testProvider(app: FastifyInstance): BillingProvider {
  const mode = app.config.billingMode
  const now = () => new Date(app.clock())

  /** Applies a transition to the account's record under its lock; a refusal is answered in words. */
  const apply = async (account: Account, transition: (current: SubscriptionRecord | undefined) => Transition, context?: "change" | "cancel") => {
    const change = await changeSubscription(app, account.user.id, (current) => {
      const next = transition(current)
      if ("refused" in next) throw refusalError(next.refused, current, context)
      return next.record
    })
    if (!change) throw signInRequired()
    return change.after
  }

  /** A test-mode record on a server that takes payments through Stripe runs, unchanged, to its end. */
  const refuseFrozen = (account: Account) => {
    if (mode !== "test" && account.record?.provider === "test" && account.record.status !== "trialing") {
      throw testRecordFrozen(account.record)
    }
  }

  return {
    async payWithTestCard(account, payment) {
      if (mode !== "test") throw wrongMode(mode)
      const details = Object.entries(validatePayment(payment, now())).map(([field, message]) => `${field}: ${message}`)
      if (details.length) throw validationFailed(details)
      const digits = cardDigits(payment.cardNumber)
      if (digits === TEST_CARD_DECLINED) throw new ApiError(402, "CARD_DECLINED", CARD_DECLINED_MESSAGE)
      if (digits !== TEST_CARD_SUCCEEDS) throw new ApiError(400, "TEST_CARD_REQUIRED", TEST_CARD_REQUIRED_MESSAGE)
      return apply(account, (current) => pay(current, { planId: payment.planId, interval: intervalOf(payment.annual) }, now()))
    },
    async checkout() {
      throw wrongMode(mode)
    },
    async portal() {
      throw wrongMode(mode)
    },
    async change(account, choice) {
      refuseFrozen(account)
      return apply(account, (current) => changePlan(current, { ...choice, interval: intervalOf(choice.annual) }, now()), "change")
    },
    async cancel(account) {
      return apply(account, (current) => cancel(current, now()), "cancel")
    },
    async resume(account) {
      refuseFrozen(account)
      return apply(account, resume)
    },
    /**
     * The trial without a card, in the transaction that claims it for the person. When another account of theirs had
     * it, this account's trial is marked used (its dashboard stops offering it) and the call is refused.
     */
    async startTrial(account, planId) {
      if (mode !== "test") throw wrongMode(mode)
      const claim: { heldElsewhere: TrialHeldBy | null } = { heldElsewhere: null }
      const change = await changeSubscription(
        app,
        account.user.id,
        (current) => {
          const next = startTrial(current, planId, TRIAL_DAYS, mode, now())
          if ("refused" in next) throw refusalError(next.refused, current)
          return claim.heldElsewhere ? trialUsedElsewhere(current, mode, now()) : next.record
        },
        async (trx) => {
          claim.heldElsewhere = await claimTrial(app, trx, account.user)
          return true
        }
      )
      if (!change) throw signInRequired()
      if (claim.heldElsewhere) throw refusalError("TRIAL_ALREADY_USED", change.after)
      return { record: change.after }
    }
  }
}
