import { useState } from "react"

import { Notice } from "~ui/Notice"
import { Lock } from "~ui/icons"
import { buttonStyles } from "~ui/styles"
import { billingErrorMessage, createCheckout, goToProvider } from "~site/shared/billing/billing-requests"
import { type PaidPlan } from "~site/shared/billing/subscription-view"

import { OrderSummary } from "./OrderSummary"

/** Stripe mode: no card field on our pages. The order, then Stripe's hosted Checkout page. */
export function StripeCheckout({ plan, annual }: { plan: PaidPlan; annual: boolean }) {
  const [leaving, setLeaving] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const checkout = async () => {
    setLeaving(true)
    setError(null)
    try {
      goToProvider(await createCheckout({ planId: plan.id, annual }))
    } catch (failure) {
      setError(billingErrorMessage(failure))
      setLeaving(false)
    }
  }

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-3">
      <OrderSummary plan={plan} annual={annual} note="You pay on Stripe's secure page: your card details never reach this site." />
      <section aria-label="Secure payment" className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm lg:col-span-2">
        <p className="flex gap-2 text-sm text-gray-700">
          <Lock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          Your payment is taken by Stripe, our card payment provider. You come back here once it is done.
        </p>
        {error && <Notice>{error}</Notice>}
        <button type="button" disabled={leaving} onClick={() => void checkout()} className={`w-full ${buttonStyles.primary}`}>
          {leaving ? "Opening secure payment…" : "Continue to secure payment"}
        </button>
        {leaving && (
          <p role="status" className="sr-only">
            Opening secure payment…
          </p>
        )}
      </section>
    </div>
  )
}
