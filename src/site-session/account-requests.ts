/** The site's auth and password-policy calls, through the app's one API client, their answers checked at run time. */
import {
  accountDeletedAnswerSchema,
  authStatusSchema,
  emailLinkAnswerSchema,
  emailVerifiedAnswerSchema,
  loggedOutAnswerSchema,
  passwordChangedAnswerSchema,
  passwordResetAnswerSchema,
  registrationAnswerSchema,
  userAnswerSchema,
  verificationStateSchema,
  type SignInMethod
} from "~core/auth-schemas"
import { ssoStartAnswerSchema } from "~core/organization-sso"
import { publicPolicyViewSchema } from "~core/password-policy"
import type { PublicUser } from "~core/user"

import { parseAnswer } from "./parse-answer"
import { getApiClient } from "./site-client"

export type AccountUser = PublicUser

export interface RegisterInput {
  email: string
  password: string
  name: string
}

const PROFILE_PATH = "/api/auth/profile"
const POLICY_PATH = "/api/password-policy/config"

export async function register(input: RegisterInput) {
  const answer = await getApiClient().post("/api/auth/register", {
    ...input,
    // Always both true: the form has already required the terms checkbox.
    termsAccepted: true,
    privacyPolicyAccepted: true
  })
  return parseAnswer(registrationAnswerSchema, answer)
}

/** Whether the address is verified yet; the server tells only the holder of the address's verification token. */
export const syncVerification = async (email: string, verificationToken: string) =>
  parseAnswer(verificationStateSchema, await getApiClient().post("/api/auth/sync-verification", { email, verificationToken }))
export const resendVerification = async (email: string) => parseAnswer(emailLinkAnswerSchema, await getApiClient().post("/api/auth/resend-verification", { email }))
export const forgotPassword = async (email: string) => parseAnswer(emailLinkAnswerSchema, await getApiClient().post("/api/auth/forgot-password", { email }))
export const verifyEmail = async (oobCode: string) => parseAnswer(emailVerifiedAnswerSchema, await getApiClient().post("/api/auth/verify-email", { oobCode }))
export const resetPassword = async (oobCode: string, newPassword: string) =>
  parseAnswer(passwordResetAnswerSchema, await getApiClient().post("/api/auth/reset-password", { oobCode, newPassword }))
export const changePassword = async (currentPassword: string, newPassword: string) =>
  parseAnswer(passwordChangedAnswerSchema, await getApiClient().post("/api/auth/change-password", { currentPassword, newPassword }))
export const linkEmail = async (input: { email: string; password: string; name?: string }) => parseAnswer(userAnswerSchema, await getApiClient().post("/api/auth/link-email", input))
/** The current password proves the deletion; an account without one (Google only) sends none and needs a fresh sign-in. */
export const deleteAccount = async (password?: string) =>
  parseAnswer(accountDeletedAnswerSchema, await getApiClient().delete("/api/auth/account", password === undefined ? undefined : { password }))
/** Ends every session of the account, this one and the extension's included; the caller then signs out here. */
export const logoutEverywhere = async () => parseAnswer(loggedOutAnswerSchema, await getApiClient().post("/api/auth/logout-all"))
/** Where to send the browser to sign in with the organisation of the address's domain (SSO_NOT_CONFIGURED when none). */
export const startSsoSignIn = async (email: string) => parseAnswer(ssoStartAnswerSchema, await getApiClient().post("/api/auth/sso/start", { email }))
/** The account as the server has it now (the dashboard). */
export const fetchProfile = async () => parseAnswer(userAnswerSchema, await getApiClient().get(PROFILE_PATH))

/*
 * The calls that open or end a session, and the profile the store refreshes the stored user from. Their answers are
 * `unknown`: the session store checks them at run time (they come from the network) before it stores anything.
 */
export const fetchProfileForStore = () => getApiClient().get<unknown>(PROFILE_PATH)
export const signInWithPassword = (email: string, password: string) => getApiClient().post<unknown>("/api/auth/login", { email, password })
/** The second step of a sign-in that answered mfaRequired: a code of the authenticator app, or a recovery code. */
export const verifySecondStep = (mfaToken: string, proof: { code: string } | { recoveryCode: string }) =>
  getApiClient().post<unknown>("/api/auth/mfa/verify", { mfaToken, ...proof })
/** A passkey's answer to /api/auth/passkeys/authentication-options: both factors, or the second step of `mfaToken`'s sign-in. */
export const signInWithPasskey = (response: unknown, mfaToken?: string) =>
  getApiClient().post<unknown>("/api/auth/passkeys/sign-in", mfaToken === undefined ? { response } : { response, mfaToken })
/** The one-time code a finished sign-in through the organisation's identity provider left in /login/sso's fragment. */
export const completeSsoSignIn = (code: string) => getApiClient().post<unknown>("/api/auth/sso/complete", { code })
/** An existing Google account; a new one answers TERMS_NOT_ACCEPTED and goes through acceptGoogleTerms. */
export const signInWithGoogle = (idToken: string) => getApiClient().post<unknown>("/api/auth/google", { idToken })
/** Creates the account of a new Google user; the terms dialog has required both boxes. */
export const acceptGoogleTerms = (idToken: string) =>
  getApiClient().post<unknown>("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true })
/**
 * Ends the session on the server. The bearer is passed in (the store clears storage first); the refresh token lets
 * the server end the session even when the access token has already expired.
 */
export const endServerSession = (token: string | null, refreshToken: string | null) =>
  getApiClient().post("/api/auth/logout", refreshToken ? { refreshToken } : undefined, { auth: token ? { bearer: token } : "none" })
export const fetchAuthStatus = async () => parseAnswer(authStatusSchema, await getApiClient().get("/api/auth/auth-status"))

/** The public view of the policy: what the password hint is built from. */
export const fetchPasswordPolicy = async () => parseAnswer(publicPolicyViewSchema, await getApiClient().get(POLICY_PATH))
/** Links the Google identity the Firebase ID token proves to the signed-in (e-mail) account; its current password proves the person. */
export const linkGoogle = async (idToken: string, currentPassword: string) =>
  parseAnswer(userAnswerSchema, await getApiClient().post("/api/auth/link-google", { idToken, currentPassword }))
/** Removes a way to sign in while another remains; the current password proves the person. Ends the account's other sessions. */
export const unlinkSignInMethod = async (provider: SignInMethod, currentPassword: string) =>
  parseAnswer(userAnswerSchema, await getApiClient().post("/api/auth/unlink", { provider, currentPassword }))
