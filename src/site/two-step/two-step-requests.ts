/** The site's calls to /api/auth/mfa: the account's second factors, set up, turned on and off; answers checked with zod. */
import { useQuery } from "@tanstack/react-query"

import { mfaDisabledAnswerSchema, mfaSetupAnswerSchema, mfaStatusSchema, recoveryCodesAnswerSchema } from "~core/two-step"
import { getApiClient } from "~site-session/site-client"
import { parseAnswer } from "~site-session/parse-answer"

export const twoStepKeys = {
  status: ["two-step", "status"] as const
}

const api = () => getApiClient()

export const fetchMfaStatus = async () => parseAnswer(mfaStatusSchema, await api().get("/api/auth/mfa"))
export const startAuthenticatorSetup = async (currentPassword?: string) =>
  parseAnswer(mfaSetupAnswerSchema, await api().post("/api/auth/mfa/totp/setup", currentPassword === undefined ? {} : { currentPassword }))
export const enableAuthenticator = async (code: string) => parseAnswer(recoveryCodesAnswerSchema, await api().post("/api/auth/mfa/totp/enable", { code }))
export const replaceRecoveryCodes = async (code: string) => parseAnswer(recoveryCodesAnswerSchema, await api().post("/api/auth/mfa/recovery-codes", { code }))
export const disableAuthenticator = async (input: { currentPassword?: string; code: string }) =>
  parseAnswer(mfaDisabledAnswerSchema, await api().post("/api/auth/mfa/totp/disable", input))

export const useMfaStatus = () => useQuery({ queryKey: twoStepKeys.status, queryFn: fetchMfaStatus })
