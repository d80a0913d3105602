import { ConfirmDialog } from "~ui/ConfirmDialog"
import { billingErrorMessage, cancelSubscription, useSubscriptionChanged } from "~site/shared/billing/billing-requests"

const dangerButton =
  "inline-flex items-center justify-center rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-50"

/** Asks first; then POST /api/billing/cancel: the plan stays until `endsOn` (the period's end), then Free. */
export function CancelSubscriptionDialog({ planName, endsOn }: { planName: string; endsOn: string | null }) {
  const subscriptionChanged = useSubscriptionChanged()
  return (
    <ConfirmDialog
      trigger={{ label: "Cancel subscription", className: dangerButton }}
      title="Cancel your subscription?"
      description={
        <>
          You keep the {planName} plan {endsOn ? `until ${endsOn}` : "until the end of the current period"}, then your account goes back to Free. You can
          resume the subscription until then.
        </>
      }
      keepLabel="Keep my subscription"
      confirm={{ label: "Yes, cancel subscription", busyLabel: "Cancelling…", className: dangerButton }}
      onConfirm={async (close) => {
        try {
          const subscription = await cancelSubscription()
          close()
          await subscriptionChanged(subscription)
          return null
        } catch (failure) {
          return billingErrorMessage(failure)
        }
      }}
    />
  )
}
