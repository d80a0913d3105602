import { useState } from "react"
import { Link } from "react-router"

import type { Subscription } from "~core/billing/billing"
import { getPlan } from "~core/billing/plans"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { billingErrorMessage, changePlan, useSubscriptionChanged } from "~site/shared/billing/billing-requests"
import { planChangeEffect, type PaidPlan } from "~site/shared/billing/subscription-view"

import { OrderSummary } from "./OrderSummary"
import { useSuccessRedirect } from "./use-success-redirect"

/**
 * An account with a paid subscription changes plan rather than paying again: POST /api/billing/change (an upgrade
 * at once, a downgrade at the period's end), then the same wait and dashboard as a payment.
 */
export function PlanChange({
  plan,
  annual,
  subscription,
  onChanged
}: {
  plan: PaidPlan
  annual: boolean
  subscription: Subscription
  /** The change went through; called before the record is refreshed (the page keeps this view during the wait). */
  onChanged?: () => void
}) {
  const subscriptionChanged = useSubscriptionChanged()
  const redirect = useSuccessRedirect()
  const [state, setState] = useState<"idle" | "changing" | "changed">("idle")
  const [error, setError] = useState<string | null>(null)
  // The record as it was when the change was confirmed: the answer changes it, and the page keeps its words during the wait.
  const [before, setBefore] = useState<Subscription | null>(null)
  const shown = before ?? subscription
  const effect = planChangeEffect(shown, plan, annual)
  const current = getPlan(shown.plan)

  const confirm = async () => {
    setState("changing")
    setBefore(subscription)
    setError(null)
    try {
      const changed = await changePlan({ planId: plan.id, annual })
      setState("changed")
      onChanged?.()
      redirect()
      await subscriptionChanged(changed)
    } catch (failure) {
      setError(billingErrorMessage(failure))
      setBefore(null)
      setState("idle")
    }
  }

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-3">
      <OrderSummary plan={plan} annual={annual}>
        {effect.kind !== "same" && (
          <p data-testid="change-effect" className="mt-4 text-sm font-medium text-gray-800">
            {effect.text}
          </p>
        )}
      </OrderSummary>
      <section aria-label="Change plan" className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm lg:col-span-2">
        {effect.kind === "same" ? (
          <>
            <p className="text-sm text-gray-700">You are already on the {current.name} plan, billed this way.</p>
            <Link to="/dashboard" className={buttonStyles.secondary}>
              Go to your dashboard
            </Link>
          </>
        ) : (
          <>
            <p className="text-sm text-gray-700">
              You are on the {current.name} plan. Your subscription changes to the {plan.name} plan, billed {annual ? "yearly" : "monthly"}, with the
              payment details you already gave.
            </p>
            {error && <Notice>{error}</Notice>}
            <button type="button" disabled={state !== "idle"} onClick={() => void confirm()} className={`w-full ${buttonStyles.primary}`}>
              {state === "idle" ? `Change to ${plan.name}` : "Changing your plan…"}
            </button>
            {state !== "idle" && (
              <p role="status" className="sr-only">
                {state === "changed" ? "Plan changed. Taking you to your dashboard…" : "Changing your plan…"}
              </p>
            )}
          </>
        )}
      </section>
    </div>
  )
}
