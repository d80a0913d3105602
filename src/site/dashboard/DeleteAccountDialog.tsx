import * as Dialog from "@radix-ui/react-dialog"
import { useState } from "react"
import { useNavigate } from "react-router"

import { deleteAccount } from "~auth/auth-api"
import { useSession } from "~auth/session-store"
import { DELETE_ACCOUNT_FALLBACK_REDIRECT_MS } from "~core/limits"
import { TextField } from "~ui/fields"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"

/** Deletion needs the account's e-mail typed out; afterwards, success or not, the user is signed out. */
export function DeleteAccountDialog({ email }: { email: string }) {
  const navigate = useNavigate()
  const logout = useSession((state) => state.logout)
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState("")
  const [deleting, setDeleting] = useState(false)
  const matches = typed.trim().toLowerCase() === email.toLowerCase()

  const confirm = async () => {
    setDeleting(true)
    // If navigation after logout does not happen (a slow server), still leave the dashboard.
    const fallback = setTimeout(() => navigate("/login", { replace: true }), DELETE_ACCOUNT_FALLBACK_REDIRECT_MS)
    try {
      await deleteAccount()
      toast.success("Your account has been deleted.")
    } catch {
      toast.error("Failed to delete account. Please try again.")
    }
    await logout({ navigate })
    clearTimeout(fallback)
    navigate("/login", { replace: true })
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !deleting && (setOpen(next), setTyped(""))}>
      <Dialog.Trigger className="inline-flex items-center justify-center rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-red-600">
        Delete account
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-red-700">Delete your account?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-gray-600">
            This removes your account, your sessions and your settings for good. To confirm, type your email address <strong>{email}</strong>.
          </Dialog.Description>
          <div className="mt-4">
            <TextField label="Your email address" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
          </div>
          <div className="mt-6 flex justify-end gap-2">
            <Dialog.Close className={buttonStyles.secondary} disabled={deleting}>
              Cancel
            </Dialog.Close>
            <button
              type="button"
              disabled={!matches || deleting}
              onClick={() => void confirm()}
              className="inline-flex items-center justify-center rounded-lg bg-red-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {deleting ? "Deleting..." : "Delete my account"}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
