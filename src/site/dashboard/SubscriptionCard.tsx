import { useState } from "react"
import { Link } from "react-router"

import { longDate } from "~core/format"
import { isOnHold, SUBSCRIPTION_ON_HOLD_MESSAGE, TRIAL_CARD_TERMS, TRIAL_DAYS, trialDaysLeft, type Subscription } from "~core/billing/billing"
import { getPlan } from "~core/billing/plans"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import {
  billingErrorMessage,
  createPortalSession,
  goToProvider,
  resumeSubscription,
  startTrial,
  startTrialCheckout,
  useSubscriptionChanged
} from "~site/shared/billing/billing-requests"
import { effectivePlanId, hasPaidSubscription, STATUS_LABELS, trialDaysLeftText } from "~site/shared/billing/subscription-view"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { CancelSubscriptionDialog } from "./CancelSubscriptionDialog"

const limitText = (planId: Subscription["plan"]) => {
  const limit = getPlan(planId).requestLimit
  if (limit.kind === "monthly") return `Up to ${limit.requests} AI requests per month.`
  return limit.kind === "unlimited" ? "Unlimited AI requests." : "Custom request limits."
}

/** The lines under the plan name: the dates of the record, in words (`end` is the period's end, written out; days left count from `now`, when the record arrived). */
function subscriptionLines(subscription: Subscription, paid: boolean, end: string | null, now: number): string[] {
  const lines: string[] = []
  if (paid && subscription.status === "trialing") lines.push(trialDaysLeftText(trialDaysLeft(subscription.trialEnd, now)))
  if (paid && end) {
    if (subscription.cancelAtPeriodEnd) lines.push(`Ends on ${end}`)
    else if (subscription.status !== "trialing") lines.push(`Renews on ${end}`)
  }
  if (paid && subscription.scheduledPlan && end && !subscription.cancelAtPeriodEnd) lines.push(`Changes to ${getPlan(subscription.scheduledPlan).name} on ${end}`)
  if (subscription.status === "past_due") lines.push("Your last payment failed. Update your payment method to keep your plan.")
  if (isOnHold(subscription.status)) lines.push(SUBSCRIPTION_ON_HOLD_MESSAGE)
  return lines
}

type Action = "portal" | "resume" | "trial"

/** The dashboard's subscription card, from GET /api/billing/subscription, with its billing actions. */
export function SubscriptionCard({ subscription, receivedAt }: { subscription: Subscription; receivedAt: number }) {
  const subscriptionChanged = useSubscriptionChanged()
  const [error, setError] = useState<string | null>(null)
  const plan = getPlan(subscription.plan)
  const paid = hasPaidSubscription(subscription)
  const end = subscription.currentPeriodEnd ? longDate(subscription.currentPeriodEnd) : null

  // One billing action at a time: every button waits while one runs, and the running one says what it does.
  const billing = useFormMutation({
    mutationFn: ({ call }: { action: Action; call: () => Promise<void> }) => call(),
    onError: (failure) => setError(billingErrorMessage(failure))
  })
  const running = billing.isPending ? billing.variables.action : null

  const run = (name: Action, call: () => Promise<void>) => {
    if (billing.isRunning()) return
    setError(null)
    billing.mutate({ action: name, call })
  }
  const openPortal = () => run("portal", async () => goToProvider(await createPortalSession()))
  const resume = () => run("resume", async () => subscriptionChanged(await resumeSubscription()))
  // Stripe mode: the trial takes a card, on Stripe's Checkout page; test mode: it starts here, without one.
  const trialAtStripe = subscription.mode === "stripe"
  const trial = () => run("trial", async () => (trialAtStripe ? goToProvider(await startTrialCheckout()) : subscriptionChanged(await startTrial())))

  return (
    <div>
      <p className="text-2xl font-semibold">{plan.name}</p>
      <p className="mt-1 text-sm text-gray-600">Status: {STATUS_LABELS[subscription.status]}</p>
      <ul className="mt-2 space-y-1 text-sm text-gray-700">
        {subscriptionLines(subscription, paid, end, receivedAt).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-gray-600">{limitText(effectivePlanId(subscription))}</p>
      {error && (
        <div className="mt-3">
          <Notice>{error}</Notice>
        </div>
      )}
      <div className="mt-4 flex flex-col gap-2">
        {subscription.plan === "free" && subscription.trialAvailable && (
          <>
            <button type="button" disabled={running !== null} onClick={trial} className={`${buttonStyles.primary} w-full`}>
              {running === "trial" ? (trialAtStripe ? "Opening secure payment…" : "Starting your trial…") : `Start ${TRIAL_DAYS}-day free trial`}
            </button>
            {trialAtStripe && <p className="text-xs text-gray-600">{TRIAL_CARD_TERMS.stripe}</p>}
          </>
        )}
        {subscription.portalAvailable && (
          <button type="button" disabled={running !== null} onClick={openPortal} className={`${buttonStyles.secondary} w-full`}>
            {running === "portal" ? "Opening billing…" : "Manage billing"}
          </button>
        )}
        {paid && subscription.cancelAtPeriodEnd && (
          <button type="button" disabled={running !== null} onClick={resume} className={`${buttonStyles.primary} w-full`}>
            {running === "resume" ? "Resuming…" : "Resume subscription"}
          </button>
        )}
        <Link to="/pricing" className={`${buttonStyles.secondary} w-full`}>
          {plan.id === "enterprise" && paid ? "View plans" : "Upgrade plan"}
        </Link>
        {paid && !subscription.cancelAtPeriodEnd && <CancelSubscriptionDialog planName={plan.name} endsOn={end} />}
      </div>
      {running && (
        <p role="status" className="sr-only">
          Working…
        </p>
      )}
    </div>
  )
}
