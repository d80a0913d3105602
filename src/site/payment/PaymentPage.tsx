import { useState, type ReactNode } from "react"
import { Link, Navigate, useLocation, useSearchParams } from "react-router"

import { useSession } from "~site-session/session-store"
import { findPlan } from "~core/billing/plans"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import type { LoginRedirectState } from "~site/shared/login-redirect"
import { LoadFailure } from "~site/shared/LoadFailure"
import { PageTitle } from "~site/shared/PageTitle"
import { billingErrorMessage, useBillingConfig, useSubscription } from "~site/shared/billing/billing-requests"
import { isPayingSubscription, isPaidPlanRecord, type PaidPlan } from "~site/shared/billing/subscription-view"

import { OrderSummary } from "./OrderSummary"
import { PaymentForm } from "./PaymentForm"
import { PlanChange } from "./PlanChange"
import { StripeCheckout } from "./StripeCheckout"

/** A failed load stands where the checkout would, as far below the title. */
const LOAD_FAILURE_SPACING = "mt-8 space-y-4"

/** The page is public: a visitor sees the order and signs in to pay, coming back here afterwards. */
function SignInToPay({ plan, annual }: { plan: PaidPlan; annual: boolean }) {
  const location = useLocation()
  const state: LoginRedirectState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } }
  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-3">
      <OrderSummary plan={plan} annual={annual} />
      <section aria-label="Sign in to pay" className="space-y-4 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm lg:col-span-2">
        <p className="text-sm text-gray-700">Sign in to subscribe: your plan belongs to your account.</p>
        <div className="flex flex-wrap gap-3">
          <Link to="/login" state={state} className={buttonStyles.primary}>
            Sign in to continue
          </Link>
          <Link to="/register" className={buttonStyles.secondary}>
            Create an account
          </Link>
        </div>
      </section>
    </div>
  )
}

/**
 * The view for the visitor: sign in, change plan (a paid subscription runs), or pay (test form or Stripe). Once a
 * payment or change went through, that view stays for the 2 s wait although the record it came from has changed.
 */
function Checkout({ plan, annual }: { plan: PaidPlan; annual: boolean }): ReactNode {
  const status = useSession((state) => state.status)
  const config = useBillingConfig()
  const subscription = useSubscription()
  const [finished, setFinished] = useState<"paid" | "changed" | null>(null)
  const paidView = <PaymentForm plan={plan} annual={annual} onPaid={() => setFinished("paid")} />
  if (finished === "paid") return paidView
  if (finished === "changed" && subscription.data) {
    return <PlanChange plan={plan} annual={annual} subscription={subscription.data} onChanged={() => setFinished("changed")} />
  }

  if (status === "loading") return <Spinner />
  if (status === "loggedOut") return <SignInToPay plan={plan} annual={annual} />
  if (subscription.isError) return <LoadFailure subject="your subscription" query={subscription} reason={billingErrorMessage} className={LOAD_FAILURE_SPACING} />
  if (!subscription.data) return <Spinner />
  if (isPayingSubscription(subscription.data)) {
    return <PlanChange plan={plan} annual={annual} subscription={subscription.data} onChanged={() => setFinished("changed")} />
  }
  if (config.isError) return <LoadFailure subject="the payment settings" query={config} reason={billingErrorMessage} className={LOAD_FAILURE_SPACING} />
  if (!config.data) return <Spinner />
  return config.data.mode === "stripe" ? <StripeCheckout plan={plan} annual={annual} /> : paidView
}

/** /payment?plan=&annual=: a paid plan only; an unknown, missing or free plan returns to /pricing. */
export default function PaymentPage() {
  const [params] = useSearchParams()
  const plan = findPlan(params.get("plan"))
  if (!plan || !isPaidPlanRecord(plan)) return <Navigate to="/pricing" replace />
  const annual = params.get("annual") === "true"
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title={`Payment: ${plan.name} plan`} />
      <h1 className="text-3xl font-bold tracking-tight">Payment: {plan.name} plan</h1>
      <Checkout plan={plan} annual={annual} />
    </div>
  )
}
