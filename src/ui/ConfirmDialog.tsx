/**
 * The confirmation before a destructive action (sign out everywhere, remove a sign-in method, cancel a plan): a Radix
 * AlertDialog, so it is announced as an alert dialog, opens with the safe choice focused and ignores clicks outside.
 */
import { AlertDialog } from "radix-ui"
import { useState, type ReactNode } from "react"

import { Notice } from "./Notice"
import { buttonStyles } from "./styles"

interface ConfirmDialogProps {
  /** `accessibleName` when the label alone would not tell the trigger apart (one "Revoke" per row). */
  trigger: { label: string; className: string; accessibleName?: string }
  title: string
  description: ReactNode
  /** The button that closes the dialog and does nothing: "Keep it" unless the thing kept wants naming. */
  keepLabel?: string
  /** The action's button: the primary button's look unless `className` gives another (buttonStyles.danger for what deletes). */
  confirm: { label: string; busyLabel: string; className?: string }
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
export function ConfirmDialog({ trigger, title, description, keepLabel = "Keep it", confirm, onConfirm, children, confirmDisabled = false }: ConfirmDialogProps) {
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
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (working) return
        setOpen(next)
        setError(null)
      }}
    >
      <AlertDialog.Trigger className={trigger.className} aria-label={trigger.accessibleName}>
        {trigger.label}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-gray-600">{description}</AlertDialog.Description>
          {children && <div className="mt-4 space-y-4">{children}</div>}
          {error && (
            <div className="mt-4">
              <Notice>{error}</Notice>
            </div>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel type="button" className={buttonStyles.secondary} disabled={working}>
              {keepLabel}
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action, which closes at once: the dialog stays open until the action is done. */}
            <button type="button" disabled={working || confirmDisabled} onClick={() => void run()} className={confirm.className ?? buttonStyles.primary}>
              {working ? confirm.busyLabel : confirm.label}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
