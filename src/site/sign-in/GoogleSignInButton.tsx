import { useState } from "react"

import { GOOGLE_NOT_CONFIGURED_MESSAGE, googleErrorView } from "~site-session/error-messages"
import type { FirebaseSetup } from "~site-session/firebase-setup"
import { googlePopup, type GooglePopup } from "~site-session/google-popup"
import { SecondStepRequired, useSession } from "~site-session/session-store"
import { Notice } from "~ui/Notice"
import { useFirebaseSetup } from "~site/shared/account-queries"
import { ContinueOnSite, GOOGLE_BUTTON_CLASS, GOOGLE_SETUP_FAILED_NOTE } from "~site/shared/google-button"
import { TermsModal } from "~site/shared/legal/TermsModal"
import { useFormMutation } from "~site/shared/use-form-mutation"

/** A Google button that cannot be used yet (settings loading) or at all (not configured, settings not loadable). */
function GoogleUnavailable({ label, note }: { label: string; note?: string }) {
  return (
    <div>
      <button type="button" disabled aria-describedby={note ? "google-sign-in-note" : undefined} className={`${GOOGLE_BUTTON_CLASS} text-gray-400`}>
        {label}
      </button>
      {note && (
        <p id="google-sign-in-note" className="mt-2 text-center text-xs text-gray-500">
          {note}
        </p>
      )}
    </div>
  )
}

export const GOOGLE_ON_SITE_NOTE = "Google sign-in continues on the Image Query AI site in a new tab. The extension is signed in as soon as you finish there."

/**
 * Google sign-in and sign-up: Google's popup, then the ID token to the server. A new Google user is shown the
 * terms first (TERMS_NOT_ACCEPTED); accepting sends the same ID token to accept-terms. Success opens the session
 * exactly as the e-mail sign-in does (the login page then navigates, or in extension mode closes the tab).
 */
export function GoogleSignInButton({
  label = "Continue with Google",
  flow = "login",
  onSecondStep
}: {
  label?: string
  flow?: "login" | "register"
  /** An account with a second factor: the page asks for it (the step Google's sign-in answered). */
  onSecondStep?: (step: SecondStepRequired) => void
}) {
  const setup = useFirebaseSetup()
  const popup = googlePopup()
  if (setup.isPending) return <GoogleUnavailable label={label} />
  if (setup.isError) return <GoogleUnavailable label={label} note={GOOGLE_SETUP_FAILED_NOTE} />
  if (!setup.data) return <GoogleUnavailable label={label} note={GOOGLE_NOT_CONFIGURED_MESSAGE} />
  if (!popup) return <ContinueOnSite label={label} path="/login?source=extension" note={GOOGLE_ON_SITE_NOTE} noteId="google-sign-in-note" />
  return <GooglePopupButton label={label} flow={flow} firebase={setup.data} popup={popup} onSecondStep={onSecondStep} />
}

function GooglePopupButton({
  label,
  flow,
  firebase,
  popup,
  onSecondStep
}: {
  label: string
  flow: "login" | "register"
  firebase: FirebaseSetup
  popup: GooglePopup
  onSecondStep?: (step: SecondStepRequired) => void
}) {
  const googleLogin = useSession((state) => state.googleLogin)
  const acceptGoogleTerms = useSession((state) => state.acceptGoogleTerms)
  const [error, setError] = useState<string | null>(null)
  /** The ID token of a new Google user, kept while the terms modal is open. */
  const [pendingTerms, setPendingTerms] = useState<{ idToken: string } | null>(null)

  const signingIn = useFormMutation({
    /** Answers the ID token of a new Google user, who must accept the terms first; null once signed in. */
    mutationFn: async (): Promise<string | null> => {
      const idToken = await popup.signIn(firebase)
      try {
        await googleLogin(idToken)
        return null
      } catch (failure) {
        if ((failure as { code?: string }).code !== "TERMS_NOT_ACCEPTED") throw failure
        return idToken
      }
    },
    onSuccess: (termsNeededFor) => {
      if (termsNeededFor) setPendingTerms({ idToken: termsNeededFor })
    },
    onError: (failure) => {
      if (failure instanceof SecondStepRequired && onSecondStep) return onSecondStep(failure)
      setError(googleErrorView(failure, flow)?.message ?? null)
    }
  })
  const acceptingTerms = useFormMutation({
    mutationFn: (idToken: string) => acceptGoogleTerms(idToken),
    onError: (failure) => setError(googleErrorView(failure, "acceptTerms")?.message ?? null),
    // Accepted or refused, the modal closes: a new try starts again from Google's popup.
    onSettled: () => setPendingTerms(null)
  })
  // One step at a time: the button and the terms modal wait for either.
  const busy = signingIn.isPending || acceptingTerms.isPending
  const idle = () => !signingIn.isRunning() && !acceptingTerms.isRunning()

  const start = () => {
    if (!idle()) return
    setError(null)
    signingIn.mutate()
  }

  const accept = (pending: { idToken: string }) => {
    if (!idle()) return
    setError(null)
    acceptingTerms.mutate(pending.idToken)
  }

  const decline = () => {
    setPendingTerms(null)
    // No account was created: leave no Firebase user behind that a later start could try to exchange.
    void popup.signOut(firebase).catch((failure: unknown) => console.warn("The Google sign-out failed", failure))
  }

  return (
    <div className="space-y-3">
      <button
        type="button"
        className={`${GOOGLE_BUTTON_CLASS} text-brand-secondary hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60`}
        disabled={busy}
        aria-busy={busy || undefined}
        onPointerEnter={popup.preload}
        onFocus={popup.preload}
        onClick={start}
      >
        {label}
      </button>
      {error && <Notice>{error}</Notice>}
      <TermsModal
        open={pendingTerms !== null}
        busy={busy}
        onAccept={() => pendingTerms && accept(pendingTerms)}
        onDecline={() => pendingTerms && decline()}
      />
    </div>
  )
}
