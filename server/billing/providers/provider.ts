/**
 * What a payment provider does for the billing routes. The test provider takes Stripe's test cards and runs its
 * records itself; the Stripe provider sends the customer to Stripe and makes the record follow what Stripe answers.
 * A call a provider does not take (a test card in Stripe mode, a Checkout Session in test mode) is refused by that
 * provider with WRONG_BILLING_MODE, so no handler asks which mode it is in.
 */
import type { FastifyBaseLogger } from "fastify"

import type { PaidPlanId, PlanChoice, TestPayment } from "~core/billing/billing"

import type { UserRow } from "../../auth/user-store"
import type { SubscriptionRecord } from "../subscription-rules"

/** The caller: the account (its row as authenticated) and its record, time-bound changes made. */
export interface Account {
  user: UserRow
  record: SubscriptionRecord | undefined
  log: FastifyBaseLogger
}

/** The record after a provider call; undefined only when the account was deleted meanwhile. */
export type ProviderAnswer = Promise<SubscriptionRecord | undefined>

/**
 * The free trial as started: the record (test mode: the trial runs here, without a card), or the Checkout page where
 * the card is given (Stripe mode: the trial starts when Stripe reports it).
 */
export type TrialStart = { record: SubscriptionRecord | undefined } | { url: string }

export interface BillingProvider {
  /** Test mode: a payment with one of Stripe's test cards. */
  payWithTestCard(account: Account, payment: TestPayment): ProviderAnswer
  /** Stripe mode: a hosted Checkout Session for a new subscription. */
  checkout(account: Account, choice: PlanChoice): Promise<{ url: string }>
  /** Stripe mode: the customer portal (cards, invoices). */
  portal(account: Account): Promise<{ url: string }>
  change(account: Account, choice: PlanChoice): ProviderAnswer
  cancel(account: Account): ProviderAnswer
  resume(account: Account): ProviderAnswer
  /** The free trial, once per person (account-traces.ts: its mailbox, Google uid and, in Stripe mode, card). */
  startTrial(account: Account, planId: PaidPlanId): Promise<TrialStart>
}
