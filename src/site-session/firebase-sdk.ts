/**
 * The only module that imports the Firebase SDK. It is reached through a dynamic import in ./firebase-client, so
 * it lands in its own chunk and the landing page's first load does not carry it.
 */
import { initializeApp } from "firebase/app"
import { connectAuthEmulator, getAuth, GoogleAuthProvider, signInWithPopup, signOut, type Auth } from "firebase/auth"

import type { FirebaseSetup } from "./firebase-setup"

let auth: Auth | null = null

/** One app and one Auth per page: initialising twice throws, and the emulator can be connected only once. */
function authFor(setup: FirebaseSetup): Auth {
  if (auth) return auth
  auth = getAuth(initializeApp(setup.config))
  if (setup.emulatorUrl) connectAuthEmulator(auth, setup.emulatorUrl, { disableWarnings: true })
  return auth
}

export async function popupIdToken(setup: FirebaseSetup): Promise<string> {
  const { user } = await signInWithPopup(authFor(setup), new GoogleAuthProvider())
  return user.getIdToken()
}

export async function currentUserIdToken(setup: FirebaseSetup, forceRefresh: boolean): Promise<string | null> {
  const current = authFor(setup)
  // Firebase restores its persisted user asynchronously; before this, currentUser is null even when one exists.
  await current.authStateReady()
  return current.currentUser ? current.currentUser.getIdToken(forceRefresh) : null
}

export async function signOutOfFirebase(setup: FirebaseSetup): Promise<void> {
  await signOut(authFor(setup))
}
