/**
 * Keeps the session store in step with changes made outside it: another tab of the site (storage events on the
 * three session items) and the API client (a refresh stored new tokens, or the client cleared the session).
 * Changes made by another tab are notified to the extension by that tab, so this tab only follows them.
 *
 * Nothing is attached by importing this module: the app calls `startSessionSync()` once (SiteApp does).
 */
import { websiteLogoutMessage } from "~core/extension-messages"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { notifyExtension } from "./extension-notifier"
import { adoptSession, endLocalSession, readStoredUser, syncExtension, useSession } from "./session-store"
import { getSessionStorage, onSessionCleared, onTokensRefreshed } from "./site-client"

let stopSync: (() => void) | null = null

function handleStorageEvent(event: StorageEvent): void {
  const storage = getSessionStorage()
  if (event.storageArea && event.storageArea !== storage) return
  // key null: another tab called clear().
  if (event.key !== null && event.key !== KEYS.authToken && event.key !== KEYS.user) return
  const user = readStoredUser(storage)
  const state = useSession.getState()
  if (!user) {
    if (state.status === "loggedIn") endLocalSession()
    return
  }
  // Another tab signed in; it already runs the refresh that follows a sign-in.
  if (state.status !== "loggedIn") adoptSession(user)
  // A new token needs nothing: the monitor reads the stored token at every check.
  else if (JSON.stringify(user) !== JSON.stringify(state.user)) useSession.setState({ user })
}

/** The client's refresh stored new tokens. */
function handleTokensRefreshed(): void {
  if (useSession.getState().status === "loggedIn") {
    syncExtension()
    return
  }
  // A refresh that was in flight when this tab logged out has stored the tokens of a session that is over.
  const storage = getSessionStorage()
  if (!readStoredUser(storage)) {
    storage.removeItem(KEYS.authToken)
    storage.removeItem(KEYS.refreshToken)
  }
}

/** The client cleared the session: no refresh token, or the server refused the refresh. */
function handleSessionCleared(): void {
  const { status } = useSession.getState()
  if (status === "loggedOut") return
  endLocalSession()
  if (status === "loggedIn") void notifyExtension(websiteLogoutMessage())
}

/** Starts following other tabs and the API client. Attaches once; returns the detach function. */
export function startSessionSync(): () => void {
  if (stopSync) return stopSync
  const listener = (event: StorageEvent) => handleStorageEvent(event)
  if (typeof window !== "undefined") window.addEventListener("storage", listener)
  const unsubscribers = [onTokensRefreshed(handleTokensRefreshed), onSessionCleared(handleSessionCleared)]
  const stop = () => {
    if (typeof window !== "undefined") window.removeEventListener("storage", listener)
    for (const unsubscribe of unsubscribers) unsubscribe()
    if (stopSync === stop) stopSync = null
  }
  stopSync = stop
  return stop
}
