import { useEffect, useState } from "react"

import { syncVerification } from "~site-session/account-requests"
import { onPageShown } from "~ui/page-shown"

/**
 * How often the "Check your email" page asks whether the address has been verified (also when
 * the tab comes back into view): well inside the 30 look-ups per 15 minutes a client may make.
 */
export const VERIFICATION_CHECK_INTERVAL_SECONDS = 60

/**
 * Whether the address the user just registered has been verified: people open the e-mailed
 * link in another tab, then come back to this one. Asks every minute while the page is visible
 * and whenever it becomes visible again; stops once verified. Without the registration's
 * verification token there is nothing to ask (the server answers only its holder).
 */
export function useVerificationWatch(email: string | null, verificationToken: string | undefined): boolean {
  const [verified, setVerified] = useState(false)

  useEffect(() => {
    if (!email || !verificationToken || verified) return
    let stopped = false
    const check = async () => {
      if (document.visibilityState === "hidden") return
      try {
        const answer = await syncVerification(email, verificationToken)
        if (!stopped && answer.verified) setVerified(true)
      } catch {
        // A check that fails (offline, rate limited) just waits for the next one.
      }
    }
    const timer = setInterval(() => void check(), VERIFICATION_CHECK_INTERVAL_SECONDS * 1000)
    const stopListening = onPageShown(() => void check())
    return () => {
      stopped = true
      clearInterval(timer)
      stopListening()
    }
  }, [email, verificationToken, verified])

  return verified
}
