/** Request bodies of the auth calls, checked by the server and usable by the forms, and the answers of those calls. */
import * as z from "zod"

import { confirmationSchema } from "./api-answer"
import { PASSWORD_POLICY_LENGTH_CAP } from "./password-policy"
import { publicUserSchema } from "./user"

export const MAX_EMAIL_LENGTH = 254
export const MAX_NAME_LENGTH = 100
/** As long as any policy allows, so the policy answers with its own message; bounds the hashing cost. */
export const MAX_PASSWORD_INPUT_LENGTH = PASSWORD_POLICY_LENGTH_CAP

export const emailField = z.string().trim().max(MAX_EMAIL_LENGTH).pipe(z.email({ message: "Please enter a valid email address" }))

/** Whether the server would take `value` as an account's e-mail address: the rule every form checks before sending. */
export const isEmailAddress = (value: string): boolean => emailField.safeParse(value).success
const passwordField = z.string().min(1, "Password is required").max(MAX_PASSWORD_INPUT_LENGTH)
const nameField = z.string().trim().min(1, "Name is required").max(MAX_NAME_LENGTH)
const codeField = z.string().trim().min(1, "The link has no code").max(200)

export const registerRequestSchema = z.strictObject({
  email: emailField,
  password: passwordField,
  name: nameField,
  termsAccepted: z.literal(true, { message: "You must accept the Terms of Service" }),
  privacyPolicyAccepted: z.literal(true, { message: "You must accept the Privacy Policy" })
})

export const loginRequestSchema = z.strictObject({ email: emailField, password: passwordField })
export const emailOnlyRequestSchema = z.strictObject({ email: emailField })
/** check-verification and sync-verification: the token comes from the register answer or from login's EMAIL_NOT_VERIFIED. */
export const verificationCheckRequestSchema = z.strictObject({ email: emailField, verificationToken: z.string().min(1).max(2000).optional() })
export const refreshRequestSchema = z.strictObject({ refreshToken: z.string().min(1).max(200) })
export const logoutRequestSchema = z.strictObject({ refreshToken: z.string().min(1).max(200).optional() }).optional()
export const verifyEmailRequestSchema = z.strictObject({ oobCode: codeField })
export const resetPasswordRequestSchema = z.strictObject({ oobCode: codeField, newPassword: passwordField })
export const changePasswordRequestSchema = z.strictObject({
  currentPassword: z.string().min(1, "Current password is required").max(MAX_PASSWORD_INPUT_LENGTH),
  newPassword: z.string().min(1, "New password is required").max(MAX_PASSWORD_INPUT_LENGTH)
})
/** DELETE /api/auth/account: the current password; an account without one (Google only) sends no body. */
export const deleteAccountRequestSchema = z
  .strictObject({ password: z.string().min(1, "Current password is required").max(MAX_PASSWORD_INPUT_LENGTH).optional() })
  .optional()
/** The current password that proves the person, where the account has one (adding or removing a sign-in method). */
const currentPasswordField = z.string().min(1, "Current password is required").max(MAX_PASSWORD_INPUT_LENGTH)
export const linkEmailRequestSchema = z.strictObject({ email: emailField, password: passwordField, name: nameField.optional() })
/** Only the name can change through the profile; role, e-mail and plan cannot. */
export const profileUpdateSchema = z.strictObject({ name: nameField })

/** A Firebase ID token: Google's are about 1 KB; the bound keeps a hostile body from reaching the verifier. */
const idTokenField = z.string().trim().min(1, "The Google sign-in token is missing").max(8000)
/** POST /api/auth/google. */
export const googleTokenRequestSchema = z.strictObject({ idToken: idTokenField })
/** POST /api/auth/link-google: the Google identity to add, and the account's current password. */
export const linkGoogleRequestSchema = z.strictObject({ idToken: idTokenField, currentPassword: currentPasswordField.optional() })
export const SIGN_IN_METHODS = ["google", "email"] as const
export type SignInMethod = (typeof SIGN_IN_METHODS)[number]
/** POST /api/auth/unlink: the sign-in method to remove while another remains. */
export const unlinkRequestSchema = z.strictObject({ provider: z.enum(SIGN_IN_METHODS, { message: "provider must be google or email" }), currentPassword: currentPasswordField.optional() })
/** POST /api/auth/google/accept-terms: the new Google user's consent, as registration asks it. */
export const googleAcceptTermsRequestSchema = z.strictObject({
  idToken: idTokenField,
  termsAccepted: z.literal(true, { message: "You must accept the Terms of Service" }),
  privacyPolicyAccepted: z.literal(true, { message: "You must accept the Privacy Policy" })
})

/** GET /api/auth/firebase-config: the web client's public Firebase settings, read at run time. */
export const firebaseWebConfigSchema = z.object({
  enabled: z.boolean(),
  config: z.object({ apiKey: z.string(), authDomain: z.string(), projectId: z.string() }).nullable(),
  /** http://host:port of the Auth emulator (tests only), else null. */
  emulatorUrl: z.string().nullable()
})
export type FirebaseWebConfig = z.infer<typeof firebaseWebConfigSchema>

/** A signed-in session: login, Google sign-in, the extension's session. expiresAt: the access token's end, in Unix seconds. */
export const sessionAnswerSchema = z.object({ user: publicUserSchema, token: z.string(), refreshToken: z.string(), expiresAt: z.number().int() })
/** POST /api/auth/register: the account, signed in only once its address is verified. */
export const registrationAnswerSchema = z.object({
  user: publicUserSchema,
  token: z.null(),
  refreshToken: z.null(),
  verificationRequired: z.literal(true),
  /** For check-verification and sync-verification from this browser. */
  verificationToken: z.string()
})
/** POST /api/auth/refresh: the new access token and the next refresh token (the one sent is used up). */
export const tokenRefreshAnswerSchema = z.object({ token: z.string(), refreshToken: z.string(), expiresAt: z.number().int() })
/** The answers that carry the account: the profile, a changed name, an added or removed sign-in method. */
export const userAnswerSchema = z.object({ user: publicUserSchema })
/** resend-verification and forgot-password: the same answer whether or not the address has an account. */
export const emailLinkAnswerSchema = z.object({ sent: z.literal(true), message: z.string() })
export const emailVerifiedAnswerSchema = z.object({ email: z.string(), verified: z.literal(true) })
/** check-verification and sync-verification: false unless this browser holds the address's verification token. */
export const verificationStateSchema = z.object({ verified: z.boolean() })
export const authStatusSchema = z.object({ hasEmailAuth: z.boolean(), hasGoogleAuth: z.boolean(), providers: z.array(z.enum(SIGN_IN_METHODS)) })
export const loggedOutAnswerSchema = confirmationSchema("loggedOut")
export const accountDeletedAnswerSchema = confirmationSchema("deleted")
export const passwordResetAnswerSchema = confirmationSchema("reset")
export const passwordChangedAnswerSchema = confirmationSchema("changed")
