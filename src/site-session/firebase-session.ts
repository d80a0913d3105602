/**
 * The Firebase side of a Google session, kept apart from the session store: renewing the Firebase ID token,
 * exchanging a Firebase user left from an earlier visit for a session on start, and signing Firebase out.
 * Every function loads the SDK only in a browser that has used Google sign-in (see ./firebase-setup), so
 * e-mail-only visitors never download it. Nothing here touches the store: the store passes in what it needs.
 */
import { ApiRequestError } from "~http/http-client"

import { signInWithGoogle } from "./account-requests"
import { firebaseWasUsed, forgetFirebaseUse, loadFirebaseSetup } from "./firebase-setup"
import { googlePopup } from "./google-popup"

/** Keeps the Firebase ID token of a Google session fresh; nothing (and no SDK download) for other sessions. */
export async function refreshFirebaseIdToken(): Promise<void> {
  const popup = googlePopup()
  if (!popup || !firebaseWasUsed()) return
  const setup = await loadFirebaseSetup()
  if (setup) await popup.currentIdToken(setup, { forceRefresh: true })
}

export interface FirebaseExchange {
  /** False once the store stopped waiting (a session opened or ended meanwhile): the exchange then drops its answer. */
  stillWaiting(): boolean
  /** Opens the session from the server's sign-in answer; may throw when the answer is invalid. */
  open(answer: unknown): void
}

/**
 * The start-up exchange: Firebase still has a signed-in user but there is no local session. Returns once the
 * session is open, or when there is no identity, the server refuses it, or anything fails (never rejects).
 */
export async function exchangeFirebaseIdentity({ stillWaiting, open }: FirebaseExchange): Promise<void> {
  try {
    const popup = googlePopup()
    const setup = popup ? await loadFirebaseSetup() : null
    const idToken = popup && setup ? await popup.currentIdToken(setup) : null
    // Nothing left to exchange: later starts need not download the SDK.
    if (!idToken) forgetFirebaseUse()
    else if (stillWaiting()) {
      const answer = await signInWithGoogle(idToken)
      if (stillWaiting()) open(answer)
    }
  } catch (error) {
    // The server refused this identity (no account yet, invalid token): retrying at every start would only
    // download the SDK for nothing. A rate limit or a network failure may pass, so those are tried again.
    if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500 && error.status !== 429) forgetFirebaseUse()
    console.warn("Could not restore the Google session", error)
  }
}

/** Signs this browser out of Firebase; true when that worked. Forgets the use either way, so no later start signs the user back in. */
export async function endFirebaseSession(): Promise<boolean> {
  forgetFirebaseUse()
  try {
    const popup = googlePopup()
    const setup = popup ? await loadFirebaseSetup() : null
    if (popup && setup) await popup.signOut(setup)
    return true
  } catch (error) {
    console.warn("The Google sign-out failed", error)
    return false
  }
}
