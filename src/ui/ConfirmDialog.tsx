import { Dialog } from "radix-ui"
import { useState, type ReactNode } from "react"

import { FormMessage } from "./fields"
import { buttonStyles } from "./styles"

interface ConfirmDialogProps {
  trigger: { label: string; className: string }
  title: string
  description: ReactNode
  /** The button that closes the dialog and does nothing. */
  keepLabel: string
  confirm: { label: string; busyLabel: string; className: string }
  /**
   * Does the action; answers what went wrong in plain words, or null once done. `close` shuts the dialog, for an
   * action that has more to do after the server answered.
   */
  onConfirm: (close: () => void) => Promise<string | null>
  /** Fields the action needs (a current password), shown under the description. */
  children?: ReactNode
  /** The confirm button waits for them. */
  confirmDisabled?: boolean
}

/** Asks before an action that cannot simply be undone; no way out while it runs, and its failure shown inside. */
export function ConfirmDialog({ trigger, title, description, keepLabel, confirm, onConfirm, children, confirmDisabled = false }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false)
  const [working, setWorking] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const run = async () => {
    setWorking(true)
    setError(null)
    try {
      setError(await onConfirm(() => setOpen(false)))
    } finally {
      setWorking(false)
    }
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (working) return
        setOpen(next)
        setError(null)
      }}
    >
      <Dialog.Trigger className={trigger.className}>{trigger.label}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-gray-600">{description}</Dialog.Description>
          {children && <div className="mt-4 space-y-4">{children}</div>}
          {error && (
            <div className="mt-4">
              <FormMessage>{error}</FormMessage>
            </div>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Dialog.Close type="button" className={buttonStyles.secondary} disabled={working}>
              {keepLabel}
            </Dialog.Close>
            <button type="button" disabled={working || confirmDisabled} onClick={() => void run()} className={confirm.className}>
              {working ? confirm.busyLabel : confirm.label}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
