/**
 * What the site needs to know before touching Firebase, without loading the Firebase SDK: the server's public
 * Firebase settings (fetched at run time, so one build serves every deployment) and whether this browser has
 * used Google sign-in before (so e-mail-only visitors never download the SDK on start).
 */
import { getApiClient, getSessionStorage } from "./site-client"

export const FIREBASE_CONFIG_PATH = "/api/auth/firebase-config"
/** Set after a Google sign-in or link in this browser; cleared on logout and when Firebase has no user left. */
export const FIREBASE_USED_KEY = "firebaseUsed"

export interface FirebaseSetup {
  config: { apiKey: string; authDomain: string; projectId: string }
  /** The Auth emulator's URL in test deployments; null against the real Firebase. */
  emulatorUrl: string | null
}

function parseSetup(data: unknown): FirebaseSetup | null {
  if (typeof data !== "object" || data === null) return null
  const { enabled, config, emulatorUrl } = data as Record<string, unknown>
  if (enabled !== true || typeof config !== "object" || config === null) return null
  const { apiKey, authDomain, projectId } = config as Record<string, unknown>
  if (typeof apiKey !== "string" || typeof authDomain !== "string" || typeof projectId !== "string") return null
  return { config: { apiKey, authDomain, projectId }, emulatorUrl: typeof emulatorUrl === "string" && emulatorUrl ? emulatorUrl : null }
}

/** The server's Firebase settings, or null when Google sign-in is not configured there. The site's pages keep it through react-query (use-firebase-setup). */
export async function loadFirebaseSetup(): Promise<FirebaseSetup | null> {
  return parseSetup(await getApiClient().get<unknown>(FIREBASE_CONFIG_PATH, { auth: "none" }))
}

export const firebaseWasUsed = (): boolean => getSessionStorage().getItem(FIREBASE_USED_KEY) === "1"
export const markFirebaseUsed = (): void => getSessionStorage().setItem(FIREBASE_USED_KEY, "1")
export const forgetFirebaseUse = (): void => getSessionStorage().removeItem(FIREBASE_USED_KEY)
