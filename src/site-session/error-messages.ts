/** Which text a failed auth call shows, and where (a toast or the form). */
import { ACCOUNT_DISABLED_MESSAGE } from "~core/admin/admin-users"
import { DEFAULT_RETRY_AFTER_SECONDS } from "~core/api-answer"

/** What the forms need to know of a failed call (ApiRequestError has these fields). */
export interface FailedCall {
  status?: number
  code?: string
  message?: string
  details?: string[]
  retryAfter?: number
  remainingAttempts?: number
  nextAttemptDelay?: number
}

export const CONNECTION_ERROR_MESSAGE = "Connection error. Please check your internet connection and try again."
export const INVALID_SIGN_IN_MESSAGE = "Invalid email or password. Please try again."
const TOO_MANY_REQUESTS_MESSAGE = "Too many requests. Please wait a moment before trying again."

export interface LoginErrorView {
  message: string
  /** Sign-in protection answers are shown by the form, not as a toast. */
  where: "form" | "toast"
  showResendVerification?: boolean
  showResetLink?: boolean
}

function asFailedCall(error: unknown): FailedCall {
  if (typeof error === "object" && error !== null) return error as FailedCall
  return { message: typeof error === "string" ? error : undefined }
}

function isConnectionFailure(call: FailedCall): boolean {
  return call.code === "NETWORK_ERROR" || call.status === 0 || Boolean(call.message?.includes("Connection error"))
}

export function loginErrorView(error: unknown): LoginErrorView {
  const call = asFailedCall(error)
  switch (call.code) {
    case "EMAIL_NOT_VERIFIED":
      return {
        message: "Please verify your email before signing in. Check your inbox for a verification link.",
        where: "toast",
        showResendVerification: true
      }
    case "ACCOUNT_LOCKED": {
      const minutes = Math.max(1, Math.ceil((call.retryAfter ?? 0) / 60))
      return {
        message: `Account temporarily locked. Please try again in ${minutes} minutes or reset your password.`,
        where: "form",
        showResetLink: true
      }
    }
    case "PROGRESSIVE_DELAY":
      return { message: `Please wait ${call.retryAfter ?? call.nextAttemptDelay ?? 0} seconds before trying again.`, where: "form" }
    case "INVALID_CREDENTIALS": {
      if (call.remainingAttempts === 0) return { message: "Invalid email or password. Account temporarily locked.", where: "form", showResetLink: true }
      if (call.remainingAttempts === undefined) return { message: "Invalid email or password. Please try again.", where: "form" }
      const wait = call.nextAttemptDelay ? ` Please wait ${call.nextAttemptDelay} seconds before trying again.` : ""
      return { message: `Invalid email or password. ${call.remainingAttempts} login attempts remaining.${wait}`, where: "form" }
    }
    case "RATE_LIMIT_EXCEEDED":
      return { message: "Too many login attempts from this IP. Please try again later.", where: "toast" }
    // Stays in the form: it is no passing failure that trying again would cure.
    case "ACCOUNT_DISABLED":
      return { message: ACCOUNT_DISABLED_MESSAGE, where: "form" }
    // The server's words name the organisation and the way in.
    case "SSO_REQUIRED":
      return { message: call.message ?? "Your organisation signs you in through its identity provider. Use Sign in with SSO.", where: "form" }
  }
  if (isConnectionFailure(call)) return { message: CONNECTION_ERROR_MESSAGE, where: "toast" }
  if (call.status === 401) return { message: INVALID_SIGN_IN_MESSAGE, where: "toast" }
  if (call.message?.includes("Too many requests")) return { message: TOO_MANY_REQUESTS_MESSAGE, where: "toast" }
  return { message: call.message || "Login failed. Please check your credentials and try again.", where: "toast" }
}

export interface RegisterErrorView {
  message: string
  /** An existing account: the form shows the message with a sign-in link, no toast. */
  accountExists?: boolean
}

export function registerErrorView(error: unknown): RegisterErrorView {
  const call = asFailedCall(error)
  if (call.status === 409 || call.message?.includes("already exists")) {
    return { message: "An account with this email address already exists.", accountExists: true }
  }
  if (isConnectionFailure(call)) return { message: CONNECTION_ERROR_MESSAGE }
  if (call.status === 429) return { message: "Too many registration attempts. Please wait a moment before trying again." }
  if (call.status === 400) {
    if (call.details?.length) return { message: `Password requirements not met: ${call.details.join(", ")}` }
    return { message: call.message || "Please check your information and try again." }
  }
  return { message: "Registration failed. Please try again." }
}

/**
 * Resend of the verification e-mail: the text, and on a 429 or a 'Too many attempts' answer a cooldown of the
 * server's retryAfter seconds (60 when it gives none).
 */
export function resendErrorView(error: unknown): { message: string; cooldownSeconds?: number } {
  const call = asFailedCall(error)
  if (call.status === 429 || call.message?.includes("Too many attempts")) {
    const seconds = call.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS
    return { message: `Too many attempts. Please wait ${seconds} seconds before trying again.`, cooldownSeconds: seconds }
  }
  if (isConnectionFailure(call)) return { message: CONNECTION_ERROR_MESSAGE }
  return { message: call.message || "Failed to send the verification email. Please try again." }
}

/** A details list of the policy, as the change-password and reset forms show it. */
export function passwordRequirementsMessage(error: unknown, fallback: string): string {
  const call = asFailedCall(error)
  if (isConnectionFailure(call)) return CONNECTION_ERROR_MESSAGE
  if (call.details?.length) return `Password requirements not met: ${call.details.join(", ")}`
  return call.message || fallback
}

export type GoogleFlow = "login" | "register" | "acceptTerms" | "link"

const GOOGLE_FALLBACK: Record<GoogleFlow, string> = {
  login: "Google login failed. Please try again.",
  register: "Google registration failed. Please try again.",
  acceptTerms: "Failed to accept terms. Please try again.",
  link: "Failed to link your Google account. Please try again."
}

export const GOOGLE_NOT_CONFIGURED_MESSAGE = "Google sign-in is not configured on this server."
export const POPUP_BLOCKED_MESSAGE =
  "Your browser blocked the Google sign-in window. Allow pop-ups for this site (the blocked pop-up icon at the end of the address bar), then try again."

/**
 * A failed Google sign-in, sign-up, acceptance of the terms or link: the text to show, or null when nothing is to
 * be shown (the user closed the popup; TERMS_NOT_ACCEPTED, which opens the terms modal instead). Takes both
 * Firebase's `auth/...` errors and the server's answers.
 */
export function googleErrorView(error: unknown, flow: GoogleFlow): { message: string } | null {
  const call = asFailedCall(error)
  switch (call.code) {
    case "auth/popup-closed-by-user":
    case "auth/cancelled-popup-request":
    case "TERMS_NOT_ACCEPTED":
      return null
    case "auth/popup-blocked":
      return { message: POPUP_BLOCKED_MESSAGE }
    case "auth/network-request-failed":
      return { message: CONNECTION_ERROR_MESSAGE }
    case "auth/too-many-requests":
      return { message: TOO_MANY_REQUESTS_MESSAGE }
    case "EMAIL_NOT_VERIFIED":
      return { message: "Email not verified. Please verify your email before signing in." }
    case "RATE_LIMIT_EXCEEDED":
      return { message: "Too many authentication attempts. Please try again later." }
    case "GOOGLE_NOT_CONFIGURED":
      return { message: GOOGLE_NOT_CONFIGURED_MESSAGE }
    case "ACCOUNT_DISABLED":
      return { message: ACCOUNT_DISABLED_MESSAGE }
    case "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL":
      return {
        message:
          call.message ||
          "An account with this email address already exists. Sign in with your password, then link Google from your dashboard."
      }
  }
  if (call.code?.startsWith("auth/")) return { message: GOOGLE_FALLBACK[flow] }
  if (isConnectionFailure(call)) return { message: CONNECTION_ERROR_MESSAGE }
  if (call.status === 429 || call.message?.includes("Too many requests")) return { message: TOO_MANY_REQUESTS_MESSAGE }
  // The spec gives federated sign-in "the same 401 handling" as the e-mail sign-in, text included.
  if (call.status === 401 && (flow === "login" || flow === "register")) return { message: INVALID_SIGN_IN_MESSAGE }
  // Linking: the server's refusal says what is wrong (the Google account belongs to another user, one is linked already).
  if (flow === "link" && call.status === 409 && call.message) return { message: call.message }
  return { message: GOOGLE_FALLBACK[flow] }
}
