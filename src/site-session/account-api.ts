/** The site's auth and password-policy calls, through the app's one API client. */
import type { SignInMethod } from "~core/auth-schemas"
import type { PasswordPolicyConfig } from "~core/password-policy"
import type { User } from "~core/user"

import { getApiClient } from "./site-api"

export type AccountUser = User & { id: string; emailVerified: boolean; createdAt: string }

export interface RegisterInput {
  email: string
  password: string
  name: string
}

export function register(input: RegisterInput) {
  return getApiClient().post<{ user: AccountUser; verificationRequired: boolean; verificationToken?: string }>("/api/auth/register", {
    ...input,
    // Always both true: the form has already required the terms checkbox.
    termsAccepted: true,
    privacyPolicyAccepted: true
  })
}

/** Whether the address is verified yet; the server tells only the holder of the address's verification token. */
export const syncVerification = (email: string, verificationToken: string) =>
  getApiClient().post<{ verified: boolean }>("/api/auth/sync-verification", { email, verificationToken })
export const resendVerification = (email: string) => getApiClient().post<{ sent: boolean; message: string }>("/api/auth/resend-verification", { email })
export const forgotPassword = (email: string) => getApiClient().post<{ sent: boolean; message: string }>("/api/auth/forgot-password", { email })
export const verifyEmail = (oobCode: string) => getApiClient().post<{ email: string; verified: boolean }>("/api/auth/verify-email", { oobCode })
export const resetPassword = (oobCode: string, newPassword: string) => getApiClient().post<{ reset: boolean }>("/api/auth/reset-password", { oobCode, newPassword })
export const changePassword = (currentPassword: string, newPassword: string) =>
  getApiClient().post<{ changed: boolean }>("/api/auth/change-password", { currentPassword, newPassword })
export const linkEmail = (input: { email: string; password: string; name?: string }) => getApiClient().post<{ user: AccountUser }>("/api/auth/link-email", input)
/** The current password proves the deletion; an account without one (Google only) sends none and needs a fresh sign-in. */
export const deleteAccount = (password?: string) =>
  getApiClient().delete<{ deleted: boolean }>("/api/auth/account", password === undefined ? undefined : { password })
/** Ends every session of the account, this one and the extension's included; the caller then signs out here. */
export const logoutEverywhere = () => getApiClient().post<{ loggedOut: boolean }>("/api/auth/logout-all")
/** Where to send the browser to sign in with the organisation of the address's domain (SSO_NOT_CONFIGURED when none). */
export const startSsoSignIn = (email: string) => getApiClient().post<{ redirectUrl: string }>("/api/auth/sso/start", { email })
export const fetchProfile = () => getApiClient().get<{ user: AccountUser }>("/api/auth/profile")

/*
 * The calls that open or end a session. Their answers are `unknown`: the session store checks them at run time
 * (they come from the network) before it stores anything.
 */
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
export const fetchAuthStatus = () => getApiClient().get<{ hasEmailAuth: boolean; hasGoogleAuth: boolean; providers: string[] }>("/api/auth/auth-status")

/** The public view of the policy: what the password hint is built from. */
export type PublicPolicy = { config: Pick<PasswordPolicyConfig, "rules" | "customRules" | "strictMode"> }
export const fetchPasswordPolicy = () => getApiClient().get<PublicPolicy>("/api/password-policy/config")
/** Links the Google identity the Firebase ID token proves to the signed-in (e-mail) account; its current password proves the person. */
export const linkGoogle = (idToken: string, currentPassword: string) => getApiClient().post<{ user: AccountUser }>("/api/auth/link-google", { idToken, currentPassword })
/** Removes a way to sign in while another remains; the current password proves the person. Ends the account's other sessions. */
export const unlinkSignInMethod = (provider: SignInMethod, currentPassword: string) => getApiClient().post<{ user: AccountUser }>("/api/auth/unlink", { provider, currentPassword })
