/** The backend response wrapper (success, data, error) and the catalogue of error codes. */

import * as z from "zod"

import { serviceStatusEntrySchema } from "./service-status"

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
  // two-step sign-in asked of admins (ADMIN_MFA) and of an organisation's members (requireMfa)
  "MFA_ENROLLMENT_REQUIRED",
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
  // organisations
  "INVITATION_NOT_FOR_YOU",
  "CANCEL_SUBSCRIPTION_FIRST",
  "ALREADY_IN_ORGANIZATION",
  "ORGANIZATION_FULL",
  "SUBSCRIBER_FUNDS_POOL",
  // the admin panel's accounts
  "LAST_ADMIN",
  "ACCOUNT_DISABLED",
  "ALREADY_VERIFIED",
  // the blog
  "SLUG_TAKEN",
  ...PASSWORD_POLICY_ERROR_CODES
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** A catalogue code, or the code of an admin-defined custom password rule. */
export type ApiErrorCode = ErrorCode | (string & Record<never, never>)

/** The error of a refused call; the zod schema is what the API reference documents (server/openapi). */
export const apiErrorBodySchema = z.object({
  code: z.string().meta({ description: "One of ERROR_CODES, or the code of an admin-defined password rule" }),
  message: z.string(),
  /** VALIDATION_FAILED: each problem of the input, as "field: what is wrong". */
  details: z.array(z.string()).optional(),
  retryAfter: z.number().optional(),
  remainingAttempts: z.number().optional(),
  nextAttemptDelay: z.number().optional(),
  /** EMAIL_NOT_VERIFIED: lets this browser ask check-verification whether the address is verified now. */
  verificationToken: z.string().optional()
})

export type ApiErrorBody = Omit<z.infer<typeof apiErrorBodySchema>, "code"> & { code: ApiErrorCode }

export const apiFailureSchema = z.object({ success: z.literal(false), error: apiErrorBodySchema })

export interface ApiSuccess<T> {
  success: true
  data: T
}

export interface ApiFailure {
  success: false
  error: ApiErrorBody
}

/** The success wrapper around a call's data, as `ok` makes it. */
export const apiSuccessSchema = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data })

/** The answer of a call that only confirms what it did: `{ loggedOut: true }`, `{ deleted: true }`. */
export const confirmationSchema = <K extends string>(field: K) => z.object({ [field]: z.literal(true) } as Record<K, z.ZodLiteral<true>>)

export function ok<T>(data: T): ApiSuccess<T> {
  return { success: true, data }
}

export function fail(code: ApiErrorCode, message: string, extra: Omit<ApiErrorBody, "code" | "message"> = {}): ApiFailure {
  return { success: false, error: { code, message, ...extra } }
}

export const HEALTH_STATES = ["ok", "error"] as const
export type HealthState = (typeof HEALTH_STATES)[number]

/** GET /api/status */
export const statusReportSchema = z.object({
  name: z.string(),
  version: z.string(),
  uptimeSeconds: z.number().int(),
  checks: z.object({
    database: z.object({ status: z.enum(HEALTH_STATES), latencyMs: z.number().optional(), message: z.string().optional() })
  }),
  /** One real check per service of the status page, rather than every service shown as operational. */
  services: z.array(serviceStatusEntrySchema).optional(),
  /** ISO time the checks ran. */
  checkedAt: z.string().optional()
})
export type StatusReport = z.infer<typeof statusReportSchema>

/** GET /api/status when a critical service is down: 503 SERVICE_UNAVAILABLE, with the report all the same. */
export const statusUnavailableAnswerSchema = apiFailureSchema.extend({ data: statusReportSchema })
