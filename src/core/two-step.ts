/**
 * Two-step sign-in: the requests and answers of /api/auth/mfa/*, and the rules the server and the site share (an
 * authenticator app's code, RFC 6238 with SHA-1, 6 digits, 30 s; single-use recovery codes; how long the second step
 * of a sign-in waits and how many wrong codes it takes).
 */
import * as z from "zod"

import { sessionAnswerSchema } from "./auth-schemas"

/** How many recovery codes an account gets, each used once. */
export const RECOVERY_CODE_COUNT = 10
/** A sign-in's second step: how long its token lives, and how many wrong codes end it. */
export const MFA_TOKEN_LIFETIME_MS = 5 * 60_000
export const MFA_MAX_WRONG_CODES = 5

export const TOTP_CODE_MESSAGE = "Enter the 6-digit code from your authenticator app"
const TOTP_CODE_PATTERN = /^\d{6}$/
const totpCode = z.string().trim().regex(TOTP_CODE_PATTERN, TOTP_CODE_MESSAGE)
/** A code as a person types it in the site's forms ("123 456"): the six digits, or null when it is not one. */
export function typedTotpCode(value: string): string | null {
  const code = value.replace(/\s/g, "")
  return TOTP_CODE_PATTERN.test(code) ? code : null
}
/** Ten letters or digits of base32, with or without the dash shown between the halves, in any case. */
export const recoveryCodeField = z
  .string()
  .trim()
  .transform((code) => code.replaceAll("-", "").replaceAll(" ", "").toLowerCase())
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, "A recovery code has 10 letters and digits, such as abcde-23456"))
const optionalPassword = z.string().max(1024).optional()
const mfaToken = z.string().trim().min(1, "The sign-in has no second step token").max(200)

export const mfaSetupRequestSchema = z.strictObject({ currentPassword: optionalPassword })
/** The secret to type by hand, the otpauth:// address the QR code holds, and the QR code drawn as SVG on our server. */
export const mfaSetupAnswerSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() })
export const mfaCodeRequestSchema = z.strictObject({ code: totpCode })
export const mfaDisableRequestSchema = z.strictObject({ currentPassword: optionalPassword, code: totpCode })
/** Shown once: the server keeps only their hashes. */
export const recoveryCodesAnswerSchema = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) })
export const mfaStatusSchema = z.object({ totp: z.boolean(), recoveryCodesLeft: z.number().int(), passkeys: z.number().int() })
export const mfaDisabledAnswerSchema = z.object({ totp: z.literal(false) })

/** The ways to take a sign-in's second step: the app's code, a recovery code, or a passkey of the account. */
export const MFA_METHODS = ["totp", "recovery_code", "passkey"] as const
export type MfaMethod = (typeof MFA_METHODS)[number]
/** POST /api/auth/login (and Google sign-in) for an account with a second factor: no session yet. */
export const mfaRequiredAnswerSchema = z.object({ mfaRequired: z.literal(true), mfaToken: z.string(), methods: z.array(z.enum(MFA_METHODS)) })
export type MfaRequiredAnswer = z.infer<typeof mfaRequiredAnswerSchema>

/** What a sign-in answers: the session, or the second step it waits for. */
export const signInAnswerSchema = z.union([sessionAnswerSchema, mfaRequiredAnswerSchema])

export const mfaVerifyRequestSchema = z.union(
  [z.strictObject({ mfaToken, code: totpCode }), z.strictObject({ mfaToken, recoveryCode: recoveryCodeField })],
  { message: "Send the mfaToken with a code from the authenticator app, or with a recovery code" }
)
