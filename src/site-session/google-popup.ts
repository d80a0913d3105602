/**
 * Google's sign-in popup, provided by the host that can open it. The web build provides Firebase's
 * (./firebase-client). Extension pages provide none: Firebase's popup runs a script from Google's servers, which
 * Manifest V3 forbids, so the extension's copy of the site sends Google sign-in to the web site instead and its
 * bundle never carries the Firebase SDK.
 */
import type { FirebaseSetup } from "./firebase-setup"

export interface GooglePopup {
  /** Starts downloading what the popup needs (e.g. when the pointer reaches a Google button), so a click opens it at once. */
  preload(): void
  /** Google's popup; resolves with the Firebase ID token, rejects with Firebase's `auth/...` errors. */
  signIn(setup: FirebaseSetup): Promise<string>
  /** The ID token of the user Firebase still has signed in in this browser, or null. */
  currentIdToken(setup: FirebaseSetup, options?: { forceRefresh?: boolean }): Promise<string | null>
  signOut(setup: FirebaseSetup): Promise<void>
}

let provided: GooglePopup | null = null

export function provideGooglePopup(popup: GooglePopup | null): void {
  provided = popup
}

/** The host's Google popup, or null where this page cannot open one (the extension's pages). */
export function googlePopup(): GooglePopup | null {
  return provided
}
