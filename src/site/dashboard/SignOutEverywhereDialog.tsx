import { logoutEverywhere } from "~site-session/account-requests"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { buttonStyles } from "~ui/styles"
import { attempt } from "~site/shared/failure-text"
import { useLogout } from "~site/shared/use-logout"

/**
 * "Sign out everywhere": the server ends every session of the account (every browser, the extension, this one),
 * then this browser signs out the usual way, which also tells the extension here. Refused or unreachable, the user
 * stays signed in and can try again.
 */
export function SignOutEverywhereDialog() {
  const logout = useLogout()
  return (
    <ConfirmDialog
      trigger={{ label: "Sign out everywhere", className: buttonStyles.secondary }}
      title="Sign out everywhere?"
      description="This signs you out on every device and browser, in the browser extension, and here. You will need to sign in again everywhere."
      keepLabel="Cancel"
      confirm={{ label: "Sign out everywhere", busyLabel: "Signing out..." }}
      onConfirm={() => attempt(logoutEverywhere, logout)}
    />
  )
}
