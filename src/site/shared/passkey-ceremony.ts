/**
 * The browser's side of passkeys that the sign-in's passkey button and the dashboard's Passkeys card share, through
 * @simplewebauthn/browser: whether this browser can, the sign-in's answer with one of its passkeys, and a failed step
 * in words like the server's.
 */
import { browserSupportsWebAuthn, startAuthentication, WebAuthnError } from "@simplewebauthn/browser"

import { webauthnOptionsSchema } from "~core/passkeys"
import { parseAnswer } from "~site-session/parse-answer"
import { getApiClient } from "~site-session/site-client"

import { failureText } from "./failure-text"

export const passkeysSupported = () => browserSupportsWebAuthn()

/** The browser's answer with one of its passkeys for this site, the person choosing which: the sign-in's proof. */
export async function passkeyAnswer(): Promise<unknown> {
  const optionsJSON = parseAnswer(webauthnOptionsSchema, await getApiClient().post("/api/auth/passkeys/authentication-options", {}))
  return startAuthentication({ optionsJSON: optionsJSON as unknown as Parameters<typeof startAuthentication>[0]["optionsJSON"] })
}

/** A failed passkey step in words: the person cancelled, the device has one already, or what the server said. */
export function passkeyFailureText(failure: unknown): string {
  const name = failure instanceof Error ? (failure.cause instanceof Error ? failure.cause.name : failure.name) : ""
  if (name === "NotAllowedError" || (failure instanceof WebAuthnError && failure.code === "ERROR_CEREMONY_ABORTED")) {
    return "The passkey request was cancelled or timed out. Try again when you are ready."
  }
  if (failure instanceof WebAuthnError && failure.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "This device already holds a passkey for your account."
  if (failure instanceof WebAuthnError) return `Your browser could not use a passkey: ${failure.message}`
  return failureText(failure)
}
