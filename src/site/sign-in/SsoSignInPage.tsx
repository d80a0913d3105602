/**
 * /login/sso: where a sign-in through the organisation's identity provider comes back. The fragment holds the
 * one-time code (exchanged at once for the session, as password sign-in opens it, the second step included) or the
 * reason it failed, said in words. The fragment never reaches a server or a Referer, and is cleared from the address.
 */
import { useEffect, useRef, useState } from "react"
import { Link, useNavigate } from "react-router"

import { SSO_FAILURES, type SsoFailure } from "~core/organization-sso"
import { SecondStepRequired, useSession } from "~site-session/session-store"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { failureText } from "~site/shared/failure-text"
import { AuthCard } from "~site/shared/AuthCard"

import { ExtensionSignedIn } from "./ExtensionSignedIn"
import { SecondStepForm } from "./SecondStepForm"
import { SSO_RETURN_KEY, type SsoReturn } from "./SsoSignInButton"

const DEFAULT_RETURN: SsoReturn = { next: "/dashboard", fromExtension: false }

function readReturn(): SsoReturn {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SSO_RETURN_KEY) ?? "null") as Partial<SsoReturn> | null
    // Only a path of this site: what is stored is this tab's, but never an address elsewhere.
    const next = typeof stored?.next === "string" && stored.next.startsWith("/") && !stored.next.startsWith("//") ? stored.next : DEFAULT_RETURN.next
    return { next, fromExtension: stored?.fromExtension === true }
  } catch {
    return DEFAULT_RETURN
  }
}

export default function SsoSignInPage() {
  const ssoLogin = useSession((state) => state.ssoLogin)
  const navigate = useNavigate()
  const [fragment] = useState(() => new URLSearchParams(window.location.hash.slice(1)))
  const [back] = useState(readReturn)
  const [state, setState] = useState<{ kind: "working" } | { kind: "failed"; message: string } | { kind: "secondStep"; step: SecondStepRequired } | { kind: "extension" }>(() => {
    const reason = fragment.get("error")
    if (reason) return { kind: "failed", message: SSO_FAILURES[reason as SsoFailure] ?? SSO_FAILURES.provider }
    return fragment.get("code") ? { kind: "working" } : { kind: "failed", message: SSO_FAILURES.expired }
  })
  const started = useRef(false)
  const done = () => {
    sessionStorage.removeItem(SSO_RETURN_KEY)
    if (back.fromExtension) setState({ kind: "extension" })
    else navigate(back.next, { replace: true })
  }

  useEffect(() => {
    // The code is good once: React's second effect run in development must not spend it again.
    if (started.current) return
    started.current = true
    window.history.replaceState(null, "", window.location.pathname)
    const code = fragment.get("code")
    if (!code) return
    ssoLogin(code).then(done, (failure: unknown) => {
      if (failure instanceof SecondStepRequired) setState({ kind: "secondStep", step: failure })
      else setState({ kind: "failed", message: failureText(failure) })
    })
    // Runs once, on the fragment the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (state.kind === "extension") return <ExtensionSignedIn />
  return (
    <AuthCard title="Signing in with SSO" subtitle="Image Query AI, through your organisation's identity provider.">
      {state.kind === "working" && (
        <p role="status" className="text-sm text-slate-700">
          Signing you in...
        </p>
      )}
      {state.kind === "secondStep" && <SecondStepForm step={state.step} onSignedIn={done} onRestart={() => navigate("/login", { replace: true })} />}
      {state.kind === "failed" && (
        <div className="space-y-4">
          <Notice>{state.message}</Notice>
          <Link to="/login" className={`${buttonStyles.primary} block w-full text-center`}>
            Back to sign in
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
