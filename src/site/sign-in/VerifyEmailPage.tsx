import { useEffect, useState } from "react"
import { Link, useSearchParams } from "react-router"

import { verifyEmail } from "~site-session/account-requests"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { AuthCard } from "~site/shared/AuthCard"

type Outcome = { state: "success"; email: string } | { state: "error"; message: string } | { state: "invalid" }
type VerificationState = { state: "loading" } | Outcome

const INVALID_LINK = "This verification link is invalid or has expired."
const attemptKey = (code: string) => `emailVerification:${code}`

/** The result is remembered per code in local storage, so a reload does not spend the code twice. */
function rememberedOutcome(code: string): Outcome | null {
  try {
    const raw = window.localStorage.getItem(attemptKey(code))
    return raw ? (JSON.parse(raw) as Outcome) : null
  } catch {
    return null
  }
}

function remember(code: string, value: Outcome) {
  window.localStorage.setItem(attemptKey(code), JSON.stringify(value))
}

/** Codes being verified by this page load (effects may run twice). */
const attemptsInFlight = new Set<string>()

function initialState(mode: string | null, code: string | null): VerificationState {
  if (mode !== "verifyEmail" || !code) return { state: "invalid" }
  return rememberedOutcome(code) ?? { state: "loading" }
}

export default function VerifyEmailPage() {
  const [params] = useSearchParams()
  const mode = params.get("mode")
  const code = params.get("oobCode")
  const [result, setResult] = useState<VerificationState>(() => initialState(mode, code))

  useEffect(() => {
    if (result.state !== "loading" || !code || attemptsInFlight.has(code)) return
    attemptsInFlight.add(code)
    verifyEmail(code)
      .then(
      ({ email }) => {
        const outcome: Outcome = { state: "success", email }
        remember(code, outcome)
        setResult(outcome)
      },
      (failure: { code?: string; message?: string }) => {
        const outcome: Outcome =
          failure.code === "INVALID_OR_EXPIRED_CODE" ? { state: "invalid" } : { state: "error", message: failure.message ?? "Please try again later." }
        remember(code, outcome)
        setResult(outcome)
      }
    )
      .finally(() => attemptsInFlight.delete(code))
  }, [code, result.state])

  return (
    <AuthCard title="Verify your email">
      {result.state === "loading" && <Spinner label="Verifying your email" />}
      {result.state === "success" && (
        <div className="space-y-4">
          <Notice tone="success">
            Your email <strong>{result.email}</strong> is verified.
          </Notice>
          <Link to="/login" className={`${buttonStyles.primary} w-full`}>
            Continue to sign in
          </Link>
        </div>
      )}
      {result.state === "error" && (
        <div className="space-y-4">
          <Notice>
            <strong>Email verification failed</strong>
            <br />
            {result.message}
          </Notice>
          <Link to="/login" className={`${buttonStyles.secondary} w-full`}>
            Go to sign in
          </Link>
        </div>
      )}
      {result.state === "invalid" && (
        <div className="space-y-4">
          <Notice>{INVALID_LINK}</Notice>
          <p className="text-sm text-gray-600">Sign in to get a new link: the sign-in page offers to resend it.</p>
          <Link to="/login" className={`${buttonStyles.secondary} w-full`}>
            Go to sign in
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
