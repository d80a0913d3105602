import { useState } from "react"

import { linkGoogle } from "~site-session/account-requests"
import { GOOGLE_NOT_CONFIGURED_MESSAGE, googleErrorView } from "~site-session/error-messages"
import { markFirebaseUsed } from "~site-session/firebase-setup"
import type { FirebaseSetup } from "~site-session/firebase-setup"
import { googlePopup, type GooglePopup } from "~site-session/google-popup"
import { PasswordField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFirebaseSetup } from "~site/shared/account-queries"
import { ContinueOnSite, GOOGLE_SETUP_FAILED_NOTE } from "~site/shared/google-button"
import { useFormMutation } from "~site/shared/use-form-mutation"

export const GOOGLE_LINKED_MESSAGE = "Google account linked. You can now sign in with Google too."
export const LINK_GOOGLE_ON_SITE_NOTE = "Linking opens your dashboard on the Image Query AI site in a new tab: choose Link Google account there."

/**
 * "Link Google account" for an e-mail-only account: the current password proves the person, Google's popup proves the
 * identity, the server links it (and e-mails the owner).
 */
export function LinkGoogleButton({ onLinked }: { onLinked: () => void }) {
  const setup = useFirebaseSetup()
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string | null>(null)
  const popup = googlePopup()

  const note = setup.isError ? GOOGLE_SETUP_FAILED_NOTE : setup.isSuccess && !setup.data ? GOOGLE_NOT_CONFIGURED_MESSAGE : null
  const firebase = setup.data

  const linking = useFormMutation({
    mutationFn: async (link: { firebase: FirebaseSetup; popup: GooglePopup; password: string }) => {
      const idToken = await link.popup.signIn(link.firebase)
      try {
        await linkGoogle(idToken, link.password)
        markFirebaseUsed()
      } catch (failure) {
        // Refused by the server: the popup's Google user is no sign-in of this account, so Firebase forgets it.
        void link.popup.signOut(link.firebase).catch((signOutFailure: unknown) => console.warn("The Google sign-out failed", signOutFailure))
        throw failure
      }
    },
    onSuccess: () => {
      toast.success(GOOGLE_LINKED_MESSAGE)
      onLinked()
    },
    onError: (failure) => setError(googleErrorView(failure, "link")?.message ?? null)
  })
  const busy = linking.isPending

  const link = () => {
    if (!firebase || !popup || linking.isRunning() || !password) return
    setError(null)
    linking.mutate({ firebase, popup, password })
  }

  if (firebase && !popup) return <ContinueOnSite label="Link Google account" path="/dashboard" note={LINK_GOOGLE_ON_SITE_NOTE} noteId="link-google-note" />
  return (
    <>
      <div className="w-full sm:w-64">
        <PasswordField label="Current password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      </div>
      <button
        type="button"
        className={buttonStyles.secondary}
        disabled={!firebase || busy || !password}
        aria-busy={busy || undefined}
        aria-describedby={note ? "link-google-note" : undefined}
        onPointerEnter={firebase ? popup?.preload : undefined}
        onFocus={firebase ? popup?.preload : undefined}
        onClick={link}
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
          <Notice>{error}</Notice>
        </div>
      )}
    </>
  )
}
