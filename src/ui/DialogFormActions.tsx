/** The button row at the foot of a form inside a Radix dialog: Cancel closes the dialog, the other button submits the form. */
import { Dialog } from "radix-ui"

import { buttonStyles } from "./styles"

interface DialogFormActionsProps {
  /** The submit button's words, and its words while the form is being sent. */
  confirmLabel: string
  busyLabel: string
  /** The form is being sent: the submit button shows `busyLabel` and cannot be pressed again. */
  busy: boolean
  /** The form is not ready yet (a field still to fill in): the submit button waits. */
  confirmDisabled?: boolean
  /** The submit button's look; a destructive action passes its own. */
  confirmClassName?: string
  /** Cancel waits too while busy: for an action whose dialog must stay open until the server has answered. */
  holdOpenWhileBusy?: boolean
  /** Extra space above the row, for a form whose fields need more room before its buttons. */
  spaced?: boolean
}

export function DialogFormActions({
  confirmLabel,
  busyLabel,
  busy,
  confirmDisabled = false,
  confirmClassName = buttonStyles.primary,
  holdOpenWhileBusy = false,
  spaced = false
}: DialogFormActionsProps) {
  return (
    <div className={spaced ? "flex justify-end gap-2 pt-2" : "flex justify-end gap-2"}>
      <Dialog.Close type="button" className={buttonStyles.secondary} disabled={holdOpenWhileBusy && busy}>
        Cancel
      </Dialog.Close>
      <button type="submit" className={confirmClassName} disabled={busy || confirmDisabled}>
        {busy ? busyLabel : confirmLabel}
      </button>
    </div>
  )
}
