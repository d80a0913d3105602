/**
 * The site's passkeys: the calls to /api/auth/passkeys (answers checked with zod) and the browser's side of each
 * ceremony through @simplewebauthn/browser, which turns the server's options into navigator.credentials calls and
 * the credential back into JSON. Failures of the browser's part are said in words like the server's.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser"
import { useQuery } from "@tanstack/react-query"

import { passkeyListSchema, passkeySchema, webauthnOptionsSchema } from "~core/passkeys"
import { getApiClient } from "~site-session/site-api"

import { parseAnswer } from "../parse-answer"
import { failureText } from "../shared/failure-text"

export const PASSKEYS_QUERY_KEY = ["auth", "passkeys"] as const

const api = () => getApiClient()

export const fetchPasskeys = async () => parseAnswer(passkeyListSchema, await api().get<unknown>("/api/auth/passkeys"))
export const usePasskeys = () => useQuery({ queryKey: PASSKEYS_QUERY_KEY, queryFn: fetchPasskeys })

const proof = (currentPassword?: string) => (currentPassword === undefined ? {} : { currentPassword })

/** Asks the browser for a new passkey for this account (after the proof of the person), then adds it under `name`. */
export async function addPasskey(name: string, currentPassword?: string) {
  const optionsJSON = parseAnswer(webauthnOptionsSchema, await api().post<unknown>("/api/auth/passkeys/registration-options", proof(currentPassword)))
  const response = await startRegistration({ optionsJSON: optionsJSON as unknown as Parameters<typeof startRegistration>[0]["optionsJSON"] })
  return parseAnswer(passkeySchema, await api().post<unknown>("/api/auth/passkeys", { name, response }))
}

export const removePasskey = async (id: string, currentPassword?: string) => api().delete<unknown>(`/api/auth/passkeys/${encodeURIComponent(id)}`, proof(currentPassword))

/** The browser's answer with one of its passkeys for this site, the person choosing which: the sign-in's proof. */
export async function passkeyAnswer(): Promise<unknown> {
  const optionsJSON = parseAnswer(webauthnOptionsSchema, await api().post<unknown>("/api/auth/passkeys/authentication-options", {}))
  return startAuthentication({ optionsJSON: optionsJSON as unknown as Parameters<typeof startAuthentication>[0]["optionsJSON"] })
}

export const passkeysSupported = () => browserSupportsWebAuthn()

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
