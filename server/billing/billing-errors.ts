/** The billing refusals, in plain words, in the API's error wrapper. */
import type { FastifyBaseLogger } from "fastify"

import { SUBSCRIPTION_ON_HOLD_MESSAGE, type BillingMode } from "~core/billing/billing"
import { longDate } from "~core/format"
import { getPlan } from "~core/billing/plans"

import { ApiError } from "../http/errors"
import type { Refusal, SubscriptionRecord } from "./subscription-rules"

const NO_SUBSCRIPTION_MESSAGES: Record<"change" | "cancel" | "portal" | "default", string> = {
  change: "You have no paid subscription to change. Choose a plan on the pricing page.",
  cancel: "You have no subscription to cancel.",
  portal: "There is no billing account to manage yet. Choose a plan on the pricing page.",
  default: "You have no paid subscription. Choose a plan on the pricing page."
}

export const noSubscription = (context: keyof typeof NO_SUBSCRIPTION_MESSAGES = "default") => new ApiError(409, "NO_SUBSCRIPTION", NO_SUBSCRIPTION_MESSAGES[context])

/** A refused transition (subscription-rules), said for the record it was refused on. */
export function refusalError(refusal: Refusal, record: SubscriptionRecord | undefined, context?: "change" | "cancel"): ApiError {
  switch (refusal) {
    case "ALREADY_SUBSCRIBED":
      if (record?.status === "trialing") {
        // Only a trial at Stripe refuses a payment: it becomes the paid plan itself, on the card given for it.
        return new ApiError(409, "ALREADY_SUBSCRIBED", `Your ${getPlan(record.plan_id).name} trial becomes the paid plan when it ends, on the card you gave. To change or cancel it, use Manage billing on your dashboard.`)
      }
      return new ApiError(409, "ALREADY_SUBSCRIBED", `You already have the ${getPlan(record?.plan_id ?? "free").name} plan. Change or cancel it from your dashboard.`)
    case "ON_HOLD":
      return new ApiError(409, "SUBSCRIPTION_ON_HOLD", SUBSCRIPTION_ON_HOLD_MESSAGE)
    case "NO_SUBSCRIPTION":
      return noSubscription(context)
    case "NOT_CANCELLED":
      return new ApiError(409, "NO_SUBSCRIPTION", "There is no cancelled subscription to resume. Choose a plan on the pricing page.")
    case "TRIAL_ALREADY_USED":
      return new ApiError(409, "TRIAL_ALREADY_USED", "The free trial is once per person, and it has already been used with this account or this email address. You can subscribe from the pricing page.")
  }
}

export const wrongMode = (mode: BillingMode) =>
  new ApiError(
    409,
    "WRONG_BILLING_MODE",
    mode === "test" ? "Payments run in test mode on this server: use the payment form." : "This server takes payments through Stripe: continue to the secure payment page."
  )

/** A test-mode subscription on a server that now takes payments through Stripe: it runs to its end, unchanged. */
export const testRecordFrozen = (record: SubscriptionRecord) =>
  new ApiError(
    409,
    "TEST_MODE_SUBSCRIPTION",
    `This subscription was made in test mode and cannot be changed now that payments go through Stripe. It ends${record.current_period_end ? ` on ${longDate(record.current_period_end)}` : ""}; you can subscribe through Stripe at any time.`
  )

/** A Stripe call that failed: said in plain words, logged without the request's data. */
export function providerFailed(log: FastifyBaseLogger, error: unknown): ApiError {
  log.error({ err: error instanceof Error ? { name: error.name, message: error.message } : error }, "Stripe call failed")
  return new ApiError(502, "BILLING_PROVIDER_ERROR", "The payment provider could not be reached. Nothing was charged; please try again in a moment.")
}

/** Stripe kept the upgrade pending because its invoice was not paid: nothing is granted. */
export const upgradeNotPaid = () =>
  new ApiError(402, "PAYMENT_FAILED", "The payment for the new plan did not go through, so your plan is unchanged. Update your card from the billing portal and try again.")
