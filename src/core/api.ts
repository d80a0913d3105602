/** The backend response wrapper (success, data, error) and the catalogue of error codes. */

import type { ServiceStatusEntry } from "./service-status"

export const RESEND_COOLDOWN_SECONDS = 60

export const DEFAULT_RETRY_AFTER_SECONDS = RESEND_COOLDOWN_SECONDS

/** The code a password policy refusal carries, one per built-in rule. */
export const PASSWORD_POLICY_ERROR_CODES = [
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "PASSWORD_NO_UPPERCASE",
  "PASSWORD_NO_LOWERCASE",
  "PASSWORD_NO_NUMBER",
  "PASSWORD_NO_SPECIAL_CHAR",
  "PASSWORD_TOO_COMMON",
  "PASSWORD_SEQUENTIAL_CHARS",
  "PASSWORD_REPEATED_CHARS",
  "PASSWORD_CONTAINS_USER_INFO",
  "PASSWORD_RECENTLY_USED"
] as const

export const ERROR_CODES = [
  // generic
  "BAD_REQUEST",
  "VALIDATION_FAILED",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "TOO_MANY_REQUESTS",
  "SERVICE_UNAVAILABLE",
  "REQUEST_TIMEOUT",
  "INSUFFICIENT_STORAGE",
  "INTERNAL_ERROR",
  // sign-in, accounts and sessions
  "EMAIL_NOT_VERIFIED",
  "ACCOUNT_LOCKED",
  "PROGRESSIVE_DELAY",
  "INVALID_CREDENTIALS",
  "RATE_LIMIT_EXCEEDED",
  "TERMS_NOT_ACCEPTED",
  "PASSWORD_UPDATE_FAILED",
  "NETWORK_ERROR",
  "EMAIL_ALREADY_EXISTS",
  "INVALID_OR_EXPIRED_CODE",
  "SESSION_EXPIRED",
  "REAUTHENTICATION_REQUIRED",
  "LAST_SIGN_IN_METHOD",
  "NOT_LINKED",
  // Google sign-in
  "GOOGLE_NOT_CONFIGURED",
  "INVALID_TOKEN",
  "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL",
  "CREDENTIAL_ALREADY_IN_USE",
  "PROVIDER_ALREADY_LINKED",
  // questions to the vision model
  "QUOTA_EXCEEDED",
  "VQA_NOT_CONFIGURED",
  "PROVIDER_ERROR",
  "MODEL_NOT_ALLOWED",
  "INVALID_IMAGE",
  "IMAGE_TOO_LARGE",
  "IMAGE_FETCH_FAILED",
  "URL_NOT_ALLOWED",
  "CARD_DECLINED",
  "TEST_CARD_REQUIRED",
  "ALREADY_SUBSCRIBED",
  "NO_SUBSCRIPTION",
  "TRIAL_ALREADY_USED",
  "WRONG_BILLING_MODE",
  "INVALID_SIGNATURE",
  "BILLING_PROVIDER_ERROR",
  "SUBSCRIPTION_ON_HOLD",
  "TEST_MODE_SUBSCRIPTION",
  "PAYMENT_FAILED",
  // API keys and the public API
  "PLAN_REQUIRED",
  "KEY_LIMIT_REACHED",
  "INVALID_API_KEY",
  ...PASSWORD_POLICY_ERROR_CODES
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** A catalogue code, or the code of an admin-defined custom password rule. */
export type ApiErrorCode = ErrorCode | (string & Record<never, never>)

export interface ApiErrorBody {
  code: ApiErrorCode
  message: string
  details?: string[]
  retryAfter?: number
  remainingAttempts?: number
  nextAttemptDelay?: number
  /** EMAIL_NOT_VERIFIED: lets this browser ask check-verification whether the address is verified now. */
  verificationToken?: string
}

export interface ApiSuccess<T> {
  success: true
  data: T
}

export interface ApiFailure {
  success: false
  error: ApiErrorBody
}

export function ok<T>(data: T): ApiSuccess<T> {
  return { success: true, data }
}

export function fail(code: ApiErrorCode, message: string, extra: Omit<ApiErrorBody, "code" | "message"> = {}): ApiFailure {
  return { success: false, error: { code, message, ...extra } }
}

export type HealthState = "ok" | "error"

/** GET /api/status */
export interface StatusReport {
  name: string
  version: string
  uptimeSeconds: number
  checks: {
    database: { status: HealthState; latencyMs?: number; message?: string }
  }
  /** One real check per service of the status page, rather than every service shown as operational. */
  services?: ServiceStatusEntry[]
  /** ISO time the checks ran. */
  checkedAt?: string
}
