/**
 * The account line of the popup and the side panel: who is signed in, on which plan, and the month's AI usage; or,
 * signed out, a Sign in link to the site. One component, so both say the same and open the same sign-in page.
 */
import { openSitePage, SIGN_IN_PATH, type AccountState } from "./account"

export interface AccountLineProps {
  account: AccountState
  /** The signed-in line's test id (the popup's and the panel's tests each select their own). */
  usageTestId: string
  /** The text size and colour of where it sits. */
  className: string
}

export function AccountLine({ account, usageTestId, className }: AccountLineProps) {
  return (
    <div className={`flex items-center justify-between gap-2 ${className}`}>
      {account.kind === "checking" && <span>Checking your account…</span>}
      {account.kind === "signedOut" && (
        <>
          <span>Not signed in: local analyses only.</span>
          <button type="button" onClick={() => void openSitePage(SIGN_IN_PATH)} className="shrink-0 whitespace-nowrap font-semibold text-blue-700 hover:underline focus-ring">
            Sign in
          </button>
        </>
      )}
      {account.kind === "signedIn" && (
        <span data-testid={usageTestId}>
          {account.user.name} · <span data-testid="account-plan">{account.user.subscription?.plan.name ?? "Free"}</span> · {account.usage ?? "Usage unavailable"}
        </span>
      )}
    </div>
  )
}
