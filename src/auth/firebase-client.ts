/**
 * The site's few uses of Firebase Authentication, each loading the SDK on first use (see ./firebase-sdk). Tests
 * replace this module; everything above it (config, session, pages) runs for real.
 */
import type { FirebaseSetup } from "./firebase-setup"

const sdk = () => import("./firebase-sdk")

/** Starts downloading the SDK (e.g. when the pointer reaches a Google button), so the click opens the popup quickly. */
export function preloadFirebase(): void {
  void sdk().catch(() => {})
}

/** Google's popup; resolves with the Firebase ID token. Rejects with Firebase's `auth/...` errors. */
export async function signInWithGoogle(setup: FirebaseSetup): Promise<string> {
  return (await sdk()).popupIdToken(setup)
}

/** The ID token of the user Firebase still has signed in in this browser, or null. */
export async function currentIdToken(setup: FirebaseSetup, { forceRefresh = false } = {}): Promise<string | null> {
  return (await sdk()).currentUserIdToken(setup, forceRefresh)
}

export async function signOutFirebase(setup: FirebaseSetup): Promise<void> {
  return (await sdk()).signOutOfFirebase(setup)
}
