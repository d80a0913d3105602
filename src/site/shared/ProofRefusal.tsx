import { useNavigate } from "react-router"

import { useSession } from "~site-session/session-store"
import { Notice } from "~ui/Notice"

/** Refusals of the proof of the person (the current password, a recent sign-in): the user can put them right. */
export const PROOF_REFUSALS = new Set(["INVALID_CREDENTIALS", "VALIDATION_FAILED", "REAUTHENTICATION_REQUIRED"])

/** Signs out here and opens the sign-in page, coming back to the dashboard: a sign-in proves the person afresh. */
export function useSignInAgain() {
  const navigate = useNavigate()
  const logout = useSession((state) => state.logout)
  return async () => {
    await logout({ navigate })
    navigate("/login", { replace: true })
  }
}

/** A refused proof in words; a stale sign-in comes with the way to sign in again. */
export function ProofMessage({ code, message }: { code: string; message: string }) {
  const signInAgain = useSignInAgain()
  return (
    <Notice>
      {message}
      {code === "REAUTHENTICATION_REQUIRED" && (
        <button type="button" className="ml-1 font-semibold underline" onClick={() => void signInAgain()}>
          Sign in again
        </button>
      )}
    </Notice>
  )
}
