/**
 * Google's popup through Firebase Authentication, loading the SDK on first use (see ./firebase-sdk). The web build
 * provides it as the site's Google popup (./google-popup); tests provide a double instead.
 */
import type { GooglePopup } from "./google-popup"

const sdk = () => import("./firebase-sdk")

export const firebaseGooglePopup: GooglePopup = {
  preload: () => void sdk().catch(() => {}),
  signIn: async (setup) => (await sdk()).popupIdToken(setup),
  currentIdToken: async (setup, { forceRefresh = false } = {}) => (await sdk()).currentUserIdToken(setup, forceRefresh),
  signOut: async (setup) => (await sdk()).signOutOfFirebase(setup)
}
