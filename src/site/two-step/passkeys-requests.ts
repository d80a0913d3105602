/**
 * The dashboard's passkeys: the calls to /api/auth/passkeys (answers checked with zod), and the browser's part of
 * adding one through @simplewebauthn/browser, which turns the server's options into navigator.credentials calls and
 * the credential back into JSON. What the sign-in shares with it is ~site/shared/passkey-ceremony.ts.
 */
import { startRegistration } from "@simplewebauthn/browser"
import { useQuery } from "@tanstack/react-query"

import { confirmationSchema } from "~core/api-answer"
import { passkeyListSchema, passkeySchema, webauthnOptionsSchema } from "~core/passkeys"
import { parseAnswer } from "~site-session/parse-answer"
import { getApiClient } from "~site-session/site-client"

export const passkeyKeys = {
  list: ["two-step", "passkeys"] as const
}

const api = () => getApiClient()

export const fetchPasskeys = async () => parseAnswer(passkeyListSchema, await api().get("/api/auth/passkeys"))
export const usePasskeys = () => useQuery({ queryKey: passkeyKeys.list, queryFn: fetchPasskeys })

const proof = (currentPassword?: string) => (currentPassword === undefined ? {} : { currentPassword })

/** Asks the browser for a new passkey for this account (after the proof of the person), then adds it under `name`. */
export async function addPasskey(name: string, currentPassword?: string) {
  const optionsJSON = parseAnswer(webauthnOptionsSchema, await api().post("/api/auth/passkeys/registration-options", proof(currentPassword)))
  const response = await startRegistration({ optionsJSON: optionsJSON as unknown as Parameters<typeof startRegistration>[0]["optionsJSON"] })
  return parseAnswer(passkeySchema, await api().post("/api/auth/passkeys", { name, response }))
}

export const removePasskey = async (id: string, currentPassword?: string) =>
  parseAnswer(confirmationSchema("removed"), await api().delete(`/api/auth/passkeys/${encodeURIComponent(id)}`, proof(currentPassword)))
