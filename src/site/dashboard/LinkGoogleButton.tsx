import { useRef, useState } from "react"

import { linkGoogle } from "~auth/auth-api"
import { GOOGLE_NOT_CONFIGURED_MESSAGE, googleErrorView } from "~auth/error-messages"
import { preloadFirebase, signInWithGoogle, signOutFirebase } from "~auth/firebase-client"
import { markFirebaseUsed } from "~auth/firebase-setup"
import { FormMessage } from "~ui/fields"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"

import { GOOGLE_SETUP_FAILED_NOTE } from "../auth/GoogleSignInButton"
import { useFirebaseSetup } from "../auth/use-firebase-setup"

export const GOOGLE_LINKED_MESSAGE = "Google account linked. You can now sign in with Google too."

/** "Link Google account" for an e-mail-only account: Google's popup proves the identity, the server links it. */
export function LinkGoogleButton({ onLinked }: { onLinked: () => void }) {
  const setup = useFirebaseSetup()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const busyRef = useRef(false)

  const note = setup.isError ? GOOGLE_SETUP_FAILED_NOTE : setup.isSuccess && !setup.data ? GOOGLE_NOT_CONFIGURED_MESSAGE : null
  const firebase = setup.data

  const link = async () => {
    if (!firebase || busyRef.current) return
    busyRef.current = true
    setBusy(true)
    setError(null)
    let idToken: string | null = null
    try {
      idToken = await signInWithGoogle(firebase)
      await linkGoogle(idToken)
      markFirebaseUsed()
      toast.success(GOOGLE_LINKED_MESSAGE)
      onLinked()
    } catch (failure) {
      // Refused by the server: the popup's Google user is no sign-in of this account, so Firebase forgets it.
      if (idToken) void signOutFirebase(firebase).catch((signOutFailure: unknown) => console.warn("The Google sign-out failed", signOutFailure))
      setError(googleErrorView(failure, "link")?.message ?? null)
    } finally {
      busyRef.current = false
      setBusy(false)
    }
  }

  return (
    <>
      <button
        type="button"
        className={buttonStyles.secondary}
        disabled={!firebase || busy}
        aria-busy={busy || undefined}
        aria-describedby={note ? "link-google-note" : undefined}
        onPointerEnter={firebase ? preloadFirebase : undefined}
        onFocus={firebase ? preloadFirebase : undefined}
        onClick={() => void link()}
      >
        {busy ? "Linking..." : "Link Google account"}
      </button>
      {note && (
        <p id="link-google-note" className="w-full text-xs text-gray-500">
          {note}
        </p>
      )}
      {error && (
        <div className="w-full">
          <FormMessage>{error}</FormMessage>
        </div>
      )}
    </>
  )
}
