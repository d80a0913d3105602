import { randomUUID } from "node:crypto"

import type { App } from "firebase-admin/app"
import type { DecodedIdToken } from "firebase-admin/auth"
import type { FastifyBaseLogger } from "fastify"

import { MAX_NAME_LENGTH, type FirebaseWebConfig } from "~core/auth-schemas"

import type { AppConfig } from "../../config"
import { ApiError } from "../../http/errors"

/** Who a verified Google ID token says the caller is. */
export interface GoogleIdentity {
  /** The Firebase uid: stored as the account's google_uid and answered as providerId. */
  uid: string
  email: string
  emailVerified: boolean
  name: string
}

export interface GoogleIdentityVerifier {
  verify(idToken: string): Promise<GoogleIdentity>
  close(): Promise<void>
}

export const invalidGoogleToken = () =>
  new ApiError(401, "INVALID_TOKEN", "Google sign-in failed: the sign-in token is invalid or has expired. Please try again.")

/** What firebase-admin says about a token that is wrong, expired or of another project; anything else is its own failure. */
const TOKEN_PROBLEMS = new Set([
  "auth/argument-error",
  "auth/invalid-argument",
  "auth/id-token-expired",
  "auth/id-token-revoked",
  "auth/invalid-id-token",
  "auth/user-not-found",
  "auth/user-disabled"
])

function displayName(decoded: DecodedIdToken, email: string): string {
  const name = typeof decoded.name === "string" ? decoded.name.trim() : ""
  return (name || email.split("@")[0]!).slice(0, MAX_NAME_LENGTH)
}

/** Reads the claims this server relies on; the project, issuer, audience, signature and expiry are verifyIdToken's. */
export function identityFromDecodedToken(decoded: DecodedIdToken): GoogleIdentity {
  if (decoded.firebase?.sign_in_provider !== "google.com") {
    throw new ApiError(401, "INVALID_TOKEN", "Google sign-in failed: this sign-in token does not come from Google.")
  }
  const email = typeof decoded.email === "string" ? decoded.email.trim().toLowerCase() : ""
  if (!email) throw new ApiError(401, "INVALID_TOKEN", "Google sign-in failed: the Google account has no email address.")
  return { uid: decoded.uid, email, emailVerified: decoded.email_verified === true, name: displayName(decoded, email) }
}

/**
 * A firebase-admin app of its own per server app (a unique name), so several servers in one process (tests) do not
 * share one. Undefined when FIREBASE_PROJECT_ID is unset: Google sign-in is then not configured.
 *
 * firebase-admin takes emulator mode from process.env.FIREBASE_AUTH_EMULATOR_HOST when the Auth instance is made,
 * so the configured value is written there first: the variable is process-wide, and the configuration decides it.
 */
export async function createGoogleIdentityVerifier(firebase: AppConfig["firebase"], log: FastifyBaseLogger): Promise<GoogleIdentityVerifier | undefined> {
  const { projectId, authEmulatorHost } = firebase
  if (!projectId) return undefined
  // Loaded only when Google sign-in is set up: firebase-admin is 0.13 CPU-s of every start otherwise.
  const [{ deleteApp, initializeApp }, { getAuth }] = await Promise.all([import("firebase-admin/app"), import("firebase-admin/auth")])
  if (authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = authEmulatorHost
  else delete process.env.FIREBASE_AUTH_EMULATOR_HOST
  const app: App = initializeApp({ projectId }, `image-query-ai-${randomUUID()}`)
  const auth = getAuth(app)
  return {
    async verify(idToken) {
      let decoded: DecodedIdToken
      try {
        decoded = await auth.verifyIdToken(idToken)
      } catch (error) {
        const code = (error as { code?: unknown }).code
        if (typeof code === "string" && TOKEN_PROBLEMS.has(code)) throw invalidGoogleToken()
        // Not the caller's fault (Google's keys unreachable, for one): the token may be fine.
        log.error({ err: error }, "verifying a Google ID token failed")
        throw new ApiError(503, "SERVICE_UNAVAILABLE", "Google sign-in is temporarily unavailable. Please try again later.")
      }
      return identityFromDecodedToken(decoded)
    },
    close: () => deleteApp(app)
  }
}

/** Any key works with the emulator; the web SDK only needs one to be set. */
const EMULATOR_WEB_API_KEY = "demo-api-key"

/** The web client's settings for GET /api/auth/firebase-config: public by design (the browser holds them anyway). */
export function firebaseWebConfig(firebase: AppConfig["firebase"]): FirebaseWebConfig {
  const { projectId, webApiKey, authDomain, authEmulatorHost } = firebase
  const apiKey = webApiKey ?? (authEmulatorHost ? EMULATOR_WEB_API_KEY : undefined)
  if (!projectId || !apiKey) return { enabled: false, config: null, emulatorUrl: null }
  return {
    enabled: true,
    config: { apiKey, authDomain: authDomain ?? `${projectId}.firebaseapp.com`, projectId },
    emulatorUrl: authEmulatorHost ? `http://${authEmulatorHost}` : null
  }
}

const GOOGLE_SCRIPT_ORIGIN = "https://apis.google.com"
const FIREBASE_AUTH_API_ORIGINS = ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"]

/** What the site's pages must be allowed to load, frame and call for Google sign-in: nothing when it is off. */
export function googleSignInPageSources(firebase: AppConfig["firebase"]): { script: string[]; frame: string[]; connect: string[] } {
  const web = firebaseWebConfig(firebase)
  if (!web.config) return { script: [], frame: [], connect: [] }
  // Firebase's popup flow runs Google's iframe loader, then a helper frame of the auth domain (the emulator's in
  // tests) that carries the popup's answer; its REST calls go to the Auth API (or the emulator).
  return {
    script: [GOOGLE_SCRIPT_ORIGIN],
    frame: [web.emulatorUrl ?? `https://${web.config.authDomain}`],
    connect: web.emulatorUrl ? [web.emulatorUrl] : FIREBASE_AUTH_API_ORIGINS
  }
}

