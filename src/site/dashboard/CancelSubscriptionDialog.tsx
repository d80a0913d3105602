import * as Dialog from "@radix-ui/react-dialog"
import { useState } from "react"

import { FormMessage } from "~ui/fields"
import { buttonStyles } from "~ui/styles"

import { billingErrorMessage, cancelSubscription, useSubscriptionChanged } from "../billing/billing-api"

const dangerButton =
  "inline-flex items-center justify-center rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-50"

/** Asks first; then POST /api/billing/cancel: the plan stays until `endsOn` (the period's end), then Free. */
export function CancelSubscriptionDialog({ planName, endsOn }: { planName: string; endsOn: string | null }) {
  const subscriptionChanged = useSubscriptionChanged()
  const [open, setOpen] = useState(false)
  const [cancelling, setCancelling] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const confirm = async () => {
    setCancelling(true)
    setError(null)
    try {
      const subscription = await cancelSubscription()
      setOpen(false)
      await subscriptionChanged(subscription)
    } catch (failure) {
      setError(billingErrorMessage(failure))
    } finally {
      setCancelling(false)
    }
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (cancelling) return
        setOpen(next)
        setError(null)
      }}
    >
      <Dialog.Trigger className={dangerButton}>Cancel subscription</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold">Cancel your subscription?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-gray-600">
            You keep the {planName} plan {endsOn ? `until ${endsOn}` : "until the end of the current period"}, then your account goes back to Free.
            You can resume the subscription until then.
          </Dialog.Description>
          {error && (
            <div className="mt-4">
              <FormMessage>{error}</FormMessage>
            </div>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Dialog.Close type="button" className={buttonStyles.secondary} disabled={cancelling}>
              Keep my subscription
            </Dialog.Close>
            <button type="button" disabled={cancelling} onClick={() => void confirm()} className={dangerButton}>
              {cancelling ? "Cancelling…" : "Yes, cancel subscription"}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
