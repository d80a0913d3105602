/**
 * Who is signed in, as the popup and the side panel show it: the same facts (name, plan, the month's AI usage, or
 * signed out) from one account state, in the popup's card or the panel's one line. Signed out, both lead to the
 * same sign-in page (`openSignIn` of ./account); the panel offers it as a link, the popup as a button of its own.
 */
import { openSignIn, type AccountState } from "./account"

type SignedIn = Extract<AccountState, { kind: "signedIn" }>

const planNameOf = (account: SignedIn) => account.user.subscription?.plan.name ?? "Free"
const usageOf = (account: SignedIn) => account.usage ?? "Usage unavailable"

/**
 * The side panel's line: "Ada · 3 of 10 AI requests used this month", or signed out with a Sign in link. On an
 * organisation's accent colour (`onAccent`) it takes the header's text colour, chosen to read on it.
 */
export function AccountLine({ account, onAccent = false }: { account: AccountState; onAccent?: boolean }) {
  return (
    <div className={`flex items-center justify-between gap-2 text-xs ${onAccent ? "" : "text-gray-600"}`} data-testid="panel-account">
      {account.kind === "checking" && <span>Checking your account…</span>}
      {account.kind === "signedOut" && (
        <>
          <span>Not signed in: local analyses only.</span>
          <button
            type="button"
            onClick={openSignIn}
            className={`shrink-0 whitespace-nowrap font-semibold hover:underline focus-ring ${onAccent ? "underline focus-visible:outline-current" : "text-blue-700"}`}
          >
            Sign in
          </button>
        </>
      )}
      {account.kind === "signedIn" && (
        <span data-testid="panel-usage">
          {account.user.name} · {usageOf(account)}
        </span>
      )}
    </div>
  )
}

/** The popup's card: name, e-mail, plan and usage on their own lines; signed out, what signing in brings. */
export function AccountCard({ account }: { account: AccountState }) {
  return (
    <section aria-label="Account" className="space-y-1 rounded-lg border border-gray-200 p-3 text-sm">
      {account.kind === "checking" && <p className="text-gray-600">Checking your account…</p>}
      {account.kind === "signedOut" && <p className="text-gray-600">Not signed in. Sign in on the website to use AI features.</p>}
      {account.kind === "signedIn" && (
        <>
          <p className="font-semibold" data-testid="account-name">
            {account.user.name}
          </p>
          <p className="text-gray-600" data-testid="account-email">
            {account.user.email}
          </p>
          <p>
            Plan: <span data-testid="account-plan">{planNameOf(account)}</span>
          </p>
          <p className="text-gray-600" data-testid="account-usage">
            {usageOf(account)}
          </p>
        </>
      )}
    </section>
  )
}
