import { Dialog } from "radix-ui"
import { useState } from "react"
import { useNavigate } from "react-router"

import { ApiRequestError } from "~http/http-client"
import { deleteAccount } from "~site-session/account-requests"
import { useAuthStatus } from "~site/shared/account-queries"
import { DialogFormActions } from "~ui/DialogFormActions"
import { PasswordField, TextField } from "~ui/fields"
import { toast } from "~ui/toast"
import { SECOND_MS } from "~core/time"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { PROOF_REFUSALS, ProofMessage, useSignInAgain } from "~site/shared/ProofRefusal"

export const DELETE_ACCOUNT_FALLBACK_REDIRECT_MS = 2 * SECOND_MS

type Refusal = { code: string; message: string }

/**
 * Refusals that leave the account as it was, shown in the dialog with the server's words while the person stays
 * signed in: a refused proof (also too many wrong passwords: wait, or reset it), and the last admin, who must make
 * another account an admin first. Only an unknown failure gets the spec's "Failed to delete account".
 */
const REFUSALS_SHOWN_IN_DIALOG = new Set([...PROOF_REFUSALS, "ACCOUNT_LOCKED", "PROGRESSIVE_DELAY", "LAST_ADMIN"])
const isShownInDialog = (error: unknown): error is ApiRequestError => error instanceof ApiRequestError && REFUSALS_SHOWN_IN_DIALOG.has(error.code)

const DELETE_BUTTON =
  "inline-flex items-center justify-center rounded-lg bg-red-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50"

/**
 * Deletion needs the account's e-mail typed out and, for an account with e-mail sign-in, the current password
 * (an account without one needs a recent sign-in, which the server checks). A refused proof, or the last admin's
 * refusal, is shown in the dialog; after any other answer, success or not, the user is signed out.
 */
export function DeleteAccountDialog({ email }: { email: string }) {
  const navigate = useNavigate()
  const signOutToLogin = useSignInAgain()
  const authStatus = useAuthStatus()
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState("")
  const [password, setPassword] = useState("")
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  const hasEmailAuth = authStatus.data?.hasEmailAuth
  const matches = typed.trim().toLowerCase() === email.toLowerCase()
  const ready = hasEmailAuth !== undefined && matches && (!hasEmailAuth || password.length > 0)

  const reset = () => {
    setTyped("")
    setPassword("")
    setRefusal(null)
  }

  /** The deletion and the sign-out after it; only a refusal the person can put right fails it, and keeps the dialog open. */
  const deletion = useFormMutation({
    mutationFn: async (currentPassword: string | undefined) => {
      // If navigation after logout does not happen (a slow server), still leave the dashboard.
      const fallback = setTimeout(() => navigate("/login", { replace: true }), DELETE_ACCOUNT_FALLBACK_REDIRECT_MS)
      try {
        await deleteAccount(currentPassword)
        toast.success("Your account has been deleted.")
      } catch (error) {
        if (isShownInDialog(error)) {
          clearTimeout(fallback)
          throw error
        }
        toast.error("Failed to delete account. Please try again.")
      }
      await signOutToLogin()
      clearTimeout(fallback)
    },
    onError: (error) => {
      if (isShownInDialog(error)) setRefusal({ code: error.code, message: error.message })
    }
  })
  const deleting = deletion.isPending

  const confirm = () => {
    setRefusal(null)
    deletion.mutate(hasEmailAuth ? password : undefined)
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !deletion.isRunning() && (setOpen(next), reset())}>
      <Dialog.Trigger className="inline-flex items-center justify-center rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-red-600">
        Delete account
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-red-700">Delete your account?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-gray-600">
            This removes your account, your sessions and your settings for good. To confirm, type your email address <strong>{email}</strong>
            {hasEmailAuth ? " and your current password." : "."}
          </Dialog.Description>
          <form
            className="mt-4 space-y-4"
            noValidate
            aria-busy={deleting}
            onSubmit={(event) => {
              event.preventDefault()
              if (ready && !deletion.isRunning()) confirm()
            }}
          >
            <TextField label="Your email address" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
            {hasEmailAuth && (
              <PasswordField
                label="Current password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                error={refusal?.code === "INVALID_CREDENTIALS" ? refusal.message : undefined}
              />
            )}
            {refusal && refusal.code !== "INVALID_CREDENTIALS" && <ProofMessage {...refusal} />}
            <DialogFormActions
              confirmLabel="Delete my account"
              busyLabel="Deleting..."
              busy={deleting}
              confirmDisabled={!ready}
              confirmClassName={DELETE_BUTTON}
              holdOpenWhileBusy
              spaced
            />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
