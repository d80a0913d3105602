import * as Dialog from "@radix-ui/react-dialog"
import { useState } from "react"

import { ApiRequestError } from "~api/client"
import { logoutEverywhere } from "~auth/auth-api"
import { CONNECTION_ERROR_MESSAGE } from "~auth/error-messages"
import { FormMessage } from "~ui/fields"
import { buttonStyles } from "~ui/styles"

import { useLogout } from "../layout/UserMenu"

/**
 * "Sign out everywhere": the server ends every session of the account (every browser, the extension, this one),
 * then this browser signs out the usual way, which also tells the extension here. Refused or unreachable, the user
 * stays signed in and can try again.
 */
export function SignOutEverywhereDialog() {
  const logout = useLogout()
  const [open, setOpen] = useState(false)
  const [working, setWorking] = useState(false)
  const [error, setError] = useState("")

  const confirm = async () => {
    setWorking(true)
    setError("")
    try {
      await logoutEverywhere()
    } catch (failure) {
      setError(failure instanceof ApiRequestError && !failure.isNetworkError ? failure.message : CONNECTION_ERROR_MESSAGE)
      setWorking(false)
      return
    }
    await logout()
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !working && (setOpen(next), setError(""))}>
      <Dialog.Trigger className={buttonStyles.secondary}>Sign out everywhere</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold">Sign out everywhere?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-gray-600">
            This signs you out on every device and browser, in the browser extension, and here. You will need to sign in again everywhere.
          </Dialog.Description>
          {error && (
            <div className="mt-4">
              <FormMessage>{error}</FormMessage>
            </div>
          )}
          <div className="mt-6 flex justify-end gap-2">
            <Dialog.Close className={buttonStyles.secondary} disabled={working}>
              Cancel
            </Dialog.Close>
            <button type="button" className={buttonStyles.primary} disabled={working} onClick={() => void confirm()}>
              {working ? "Signing out..." : "Sign out everywhere"}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
