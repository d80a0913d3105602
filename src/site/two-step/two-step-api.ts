/** The site's calls to /api/auth/mfa: the account's second factors, set up, turned on and off; answers checked with zod. */
import { useQuery } from "@tanstack/react-query"

import { mfaDisabledAnswerSchema, mfaSetupAnswerSchema, mfaStatusSchema, recoveryCodesAnswerSchema } from "~core/two-step"
import { getApiClient } from "~site-session/site-api"

import { parseAnswer } from "../parse-answer"

export const MFA_QUERY_KEY = ["auth", "mfa"] as const

const api = () => getApiClient()

export const fetchMfaStatus = async () => parseAnswer(mfaStatusSchema, await api().get<unknown>("/api/auth/mfa"))
export const startAuthenticatorSetup = async (currentPassword?: string) =>
  parseAnswer(mfaSetupAnswerSchema, await api().post<unknown>("/api/auth/mfa/totp/setup", currentPassword === undefined ? {} : { currentPassword }))
export const enableAuthenticator = async (code: string) => parseAnswer(recoveryCodesAnswerSchema, await api().post<unknown>("/api/auth/mfa/totp/enable", { code }))
export const replaceRecoveryCodes = async (code: string) => parseAnswer(recoveryCodesAnswerSchema, await api().post<unknown>("/api/auth/mfa/recovery-codes", { code }))
export const disableAuthenticator = async (input: { currentPassword?: string; code: string }) =>
  parseAnswer(mfaDisabledAnswerSchema, await api().post<unknown>("/api/auth/mfa/totp/disable", input))

export const useMfaStatus = () => useQuery({ queryKey: MFA_QUERY_KEY, queryFn: fetchMfaStatus })
