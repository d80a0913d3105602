import { FREE_TRIAL_DAYS, MONEY_BACK_GUARANTEE_DAYS, SUPPORT_REPLY_HOURS } from "~core/billing/plans"
import { monthlyEquivalentOfAnnual, PLAN_CHANGE_LABELS, planChangeFor, type Plan, type PlanId } from "~core/billing/plans"
import { TRIAL_CARD_TERMS, type BillingMode, type Subscription } from "~core/billing/billing"
import { planIdOfUser, type User } from "~core/user"
import { effectivePlanId } from "~site/shared/billing/subscription-view"

export type Billing = "monthly" | "annual"

export interface PriceView {
  /** The big figure, in USD per month. */
  perMonth: number
  /** The line under it. */
  note: string
}

/** Monthly: the monthly price. Annual: the annual price divided by 12 and rounded, billed once a year. */
export function priceView(plan: Plan, billing: Billing): PriceView {
  if (plan.price === 0) return { perMonth: 0, note: "Free forever" }
  if (billing === "monthly") return { perMonth: plan.price, note: "Billed monthly" }
  return { perMonth: monthlyEquivalentOfAnnual(plan), note: `$${plan.annualPrice} billed yearly` }
}

/**
 * The plan the signed-in user has: the subscription record's once loaded, else the stored user's (Free when it carries
 * none, or a cancelled one); null when nobody is signed in.
 */
export function currentPlanIdOf(user: User | null, record?: Subscription): PlanId | null {
  if (!user) return null
  if (record) return effectivePlanId(record)
  return planIdOfUser(user)
}

export interface PlanAction {
  label: string
  disabled: boolean
  /** Where the button leads; absent when disabled. */
  to?: string
}

/**
 * The button of a plan card. Paid plans lead to the payment form with the chosen billing. The Free plan
 * needs no payment: an anonymous visitor signs up, a paying user manages the plan from the dashboard. An Enterprise
 * subscriber's own card leads to the organisation page: to create the team the plan sells, or to manage it once
 * `inOrganization`.
 */
export function planAction(plan: Plan, currentPlanId: PlanId | null, billing: Billing, inOrganization = false): PlanAction {
  const change = planChangeFor(plan, currentPlanId)
  const label = PLAN_CHANGE_LABELS[change]
  if (change === "current" && plan.id === "enterprise") {
    return { label: inOrganization ? "Manage your organisation" : "Create your organisation", disabled: false, to: "/organization" }
  }
  if (change === "current") return { label, disabled: true }
  if (plan.price === 0) return { label, disabled: false, to: currentPlanId === null ? "/register" : "/dashboard" }
  return { label, disabled: false, to: `/payment?plan=${plan.id}&annual=${billing === "annual"}` }
}

/**
 * The trial's answer: in test mode the spec's "no card required"; in Stripe mode Checkout takes a card, so the answer
 * says so, and that nothing is charged before the trial ends; while the mode is not known yet, nothing about a card.
 */
function trialAnswer(mode: BillingMode | undefined): string {
  const start = `Yes. Every paid plan starts with a ${FREE_TRIAL_DAYS}-day free trial`
  const end = "You keep all your settings whether you stay or go back to Free."
  if (mode === "test") return `${start}, and no card is required to start it. ${end}`
  return mode === "stripe" ? `${start}. ${TRIAL_CARD_TERMS.stripe} ${end}` : `${start}. ${end}`
}

/** The line under the page's trial button starts with what the trial asks for, once the server's mode is known. */
export const trialButtonNote = (mode: BillingMode | undefined): string => (mode ? `${TRIAL_CARD_TERMS[mode]} ` : "")

/** The pricing page's questions after the trial's. */
const OTHER_QUESTIONS = [
  {
    question: "Can I get a refund?",
    answer: `Yes. We offer a ${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee: if Image Query AI is not right for you, write to us within ${MONEY_BACK_GUARANTEE_DAYS} days of paying and we refund you in full.`
  },
  {
    question: "Which payment methods do you accept?",
    answer: "You can pay by credit or debit card through our card payment provider, or with an online wallet. Annual plans are billed once a year, monthly plans every month."
  },
  {
    question: "How fast is support?",
    answer: `We reply to every support request within ${SUPPORT_REPLY_HOURS} hours. Pro and Enterprise requests go to the front of the queue, and Enterprise customers get a dedicated contact.`
  }
] as const

/** The pricing page's questions, the trial's answer for the server's billing mode (GET /api/billing/config). */
export const pricingFaq = (mode: BillingMode | undefined) => [{ question: "Is there a free trial?", answer: trialAnswer(mode) }, ...OTHER_QUESTIONS]
