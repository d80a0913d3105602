import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import {
  accountDeletedAnswerSchema,
  authStatusSchema,
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  emailLinkAnswerSchema,
  emailOnlyRequestSchema,
  emailVerifiedAnswerSchema,
  linkEmailRequestSchema,
  loggedOutAnswerSchema,
  loginRequestSchema,
  logoutRequestSchema,
  passwordChangedAnswerSchema,
  passwordResetAnswerSchema,
  profileUpdateSchema,
  refreshRequestSchema,
  registerRequestSchema,
  registrationAnswerSchema,
  resetPasswordRequestSchema,
  tokenRefreshAnswerSchema,
  unlinkRequestSchema,
  userAnswerSchema,
  verificationCheckRequestSchema,
  verificationStateSchema,
  verifyEmailRequestSchema
} from "~core/auth-schemas"
import { signInAnswerSchema } from "~core/two-step"

import { ApiError } from "../http/errors"
import { clientAddressKey } from "../http/client-address"
import { perIpRateLimit } from "../http/rate-limit"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { codeEmailRequests, type CodeEmailRequests } from "./account-emails"
import { changePassword, deleteAccount, registerAccount, resetPassword, signOutEverywhere, verifyEmail } from "./account-service"
import { addPasswordSignIn, removeSignInMethod } from "./sign-in-methods"
import { accountDisabled, authenticate, requireUser } from "./authenticate"
import { refreshSession, signOut } from "./session-service"
import { checkPasswordSignIn } from "./sign-in-protection"
import { allowsVerificationCheck, signVerificationCheckToken } from "./tokens"
import { membershipOf } from "../organizations/membership"
import { refuseWhereSsoIsRequired } from "../organizations/sso/sso-enforcement"
import { beginSignIn } from "./mfa/mfa-service"
import { findUserByEmail, normaliseEmail, renameUser, toPublicUser } from "./user-store"

/** Per-IP limits of the calls that can be used to guess or to flood. */
export const AUTH_RATE_LIMITS = {
  login: perIpRateLimit({ max: 30, timeWindow: 15 * 60_000, message: "Too many login attempts from this IP. Please try again later." }),
  register: perIpRateLimit({ max: 10, timeWindow: 60 * 60_000, message: "Too many registration attempts. Please wait a moment before trying again." }),
  emailLookup: perIpRateLimit({ max: 30, timeWindow: 15 * 60_000 })
}

const accounts = docsTagged("Accounts")

/** What the link e-mail calls answer while the address's cooldown or hourly count runs. */
const EMAIL_COOLDOWN = { 429: "TOO_MANY_REQUESTS: a link was sent to this address a moment ago, or it had its links for the hour (retryAfter in seconds)." }
const BAD_CODE = { 400: "INVALID_OR_EXPIRED_CODE: the link's code is unknown, used or expired." }
const POLICY_REFUSAL = "A PASSWORD_* code: the new password breaks a rule of the password policy (details lists them)."
/** The current password, or a recent sign-in for an account without one (sign-in-methods.ts), counted like sign-in. */
export const PROOF_OF_PERSON = {
  400: "INVALID_CREDENTIALS: the current password is wrong.",
  403: "REAUTHENTICATION_REQUIRED: an account without a password signed in too long ago.",
  423: "ACCOUNT_LOCKED: too many wrong passwords (retryAfter in seconds).",
  429: "PROGRESSIVE_DELAY: wait before the next try (retryAfter in seconds)."
}

/** An "e-mail me a link" call (a new verification link, a password reset): the kinds differ only in their texts and their e-mail. */
function sendLinkRoute(app: FastifyInstance, path: string, doc: { summary: string; description: string }, emails: CodeEmailRequests) {
  const schema = accounts({ ...doc, body: emailOnlyRequestSchema, data: { 200: emailLinkAnswerSchema }, errors: EMAIL_COOLDOWN })
  app.post(path, { config: AUTH_RATE_LIMITS.emailLookup, schema }, async (request) => {
    const { email } = parseRequest(request, "body", emailOnlyRequestSchema)
    return ok(await emails.request(email, clientAddressKey(request.ip)))
  })
}

export async function authRoutes(app: FastifyInstance) {
  const db = app.database.db
  const verificationEmails = codeEmailRequests(app, "verify_email")
  const passwordResetEmails = codeEmailRequests(app, "reset_password")

  const register = accounts({
    summary: "Create an account with a password",
    description: "Sends the address a verification link; the account signs in once the address is verified, so no session is opened yet.",
    body: registerRequestSchema,
    data: { 201: registrationAnswerSchema },
    errors: { 400: POLICY_REFUSAL, 409: "EMAIL_ALREADY_EXISTS." }
  })
  app.post("/api/auth/register", { config: AUTH_RATE_LIMITS.register, schema: register }, async (request, reply) => {
    const input = parseRequest(request, "body", registerRequestSchema)
    // The account and its verification e-mail are made together: an acknowledged registration always gets its link.
    const user = await registerAccount(app, input, (trx, created) => verificationEmails.queueFor(trx, created))
    await verificationEmails.countSent(user, clientAddressKey(request.ip))
    // An account signs in only once its address is verified, so no session is opened yet.
    const verificationToken = await signVerificationCheckToken(user.email, app.tokenSecret, app.clock())
    return reply.status(201).send(ok({ user: toPublicUser(user), token: null, refreshToken: null, verificationRequired: true, verificationToken }))
  })

  const verify = accounts({ summary: "Verify an address with the code of its link", body: verifyEmailRequestSchema, data: { 200: emailVerifiedAnswerSchema }, errors: BAD_CODE })
  app.post("/api/auth/verify-email", { config: AUTH_RATE_LIMITS.emailLookup, schema: verify }, async (request) => {
    const { oobCode } = parseRequest(request, "body", verifyEmailRequestSchema)
    const user = await verifyEmail(app, oobCode)
    return ok({ email: user.email, verified: true })
  })

  const resend = { summary: "Send a new verification link", description: "Answers the same whether or not the address has an account to verify." }
  sendLinkRoute(app, "/api/auth/resend-verification", resend, verificationEmails)

  /** Only a browser holding the address's verification-check token learns its state; to anyone else every address is unverified. */
  const verificationState = async ({ email, verificationToken }: { email: string; verificationToken?: string }) => {
    const address = normaliseEmail(email)
    const allowed = verificationToken !== undefined && (await allowsVerificationCheck(verificationToken, address, app.tokenSecret, app.clock()))
    const user = allowed ? await findUserByEmail(db, address) : undefined
    return ok({ verified: Boolean(user?.email_verified_at) })
  }

  const verificationStateDoc = {
    summary: "Whether an address is verified yet",
    description: "Only the browser holding the address's verificationToken (from registration or from login's EMAIL_NOT_VERIFIED) learns it; to anyone else every address is unverified.",
    data: { 200: verificationStateSchema }
  }
  app.get("/api/auth/check-verification", { config: AUTH_RATE_LIMITS.emailLookup, schema: accounts({ ...verificationStateDoc, querystring: verificationCheckRequestSchema }) }, async (request) => {
    return verificationState(parseRequest(request, "querystring", verificationCheckRequestSchema))
  })

  app.post("/api/auth/sync-verification", { config: AUTH_RATE_LIMITS.emailLookup, schema: accounts({ ...verificationStateDoc, body: verificationCheckRequestSchema }) }, async (request) => {
    return verificationState(parseRequest(request, "body", verificationCheckRequestSchema))
  })

  const login = accounts({
    summary: "Sign in with an address and a password",
    body: loginRequestSchema,
    data: { 200: signInAnswerSchema },
    errors: {
      401: "INVALID_CREDENTIALS, with remainingAttempts and nextAttemptDelay.",
      403: "EMAIL_NOT_VERIFIED, with a verificationToken for check-verification; ACCOUNT_DISABLED: an admin disabled the account (told only after the right password); SSO_REQUIRED: the address's organisation signs its people in through its identity provider.",
      423: "ACCOUNT_LOCKED: too many wrong passwords (retryAfter in seconds).",
      429: "PROGRESSIVE_DELAY: wait before the next try (retryAfter in seconds)."
    }
  })
  app.post("/api/auth/login", { config: AUTH_RATE_LIMITS.login, schema: login }, async (request) => {
    const { email, password } = parseRequest(request, "body", loginRequestSchema)
    const user = await checkPasswordSignIn(app, email, password, request.ip)
    // Only after the right password, so a disabled account's address reveals nothing to whoever does not know it.
    if (user.disabled_at) throw accountDisabled()
    if (!user.email_verified_at) {
      // Only after the right password: whoever knows it may follow the verification.
      const verificationToken = await signVerificationCheckToken(user.email, app.tokenSecret, app.clock())
      throw new ApiError(403, "EMAIL_NOT_VERIFIED", "Please verify your email before signing in. Check your inbox for a verification link.", {
        verificationToken
      })
    }
    await refuseWhereSsoIsRequired(db, user.email, user.id)
    // An account with a second factor gets no session yet: the answer names the step (POST /api/auth/mfa/verify).
    return ok(await beginSignIn(app, user))
  })

  const refresh = accounts({
    summary: "Renew the access token",
    description: "The refresh token sent is used up: the answer carries the next one. A used one presented again ends its session.",
    body: refreshRequestSchema,
    data: { 200: tokenRefreshAnswerSchema },
    errors: { 401: "SESSION_EXPIRED: the refresh token is unknown, used or expired.", 403: "ACCOUNT_DISABLED: an admin disabled the account." }
  })
  app.post("/api/auth/refresh", { schema: refresh }, async (request) => {
    const { refreshToken } = parseRequest(request, "body", refreshRequestSchema)
    return ok(await refreshSession(app, refreshToken, request.log))
  })

  const logout = accounts({
    summary: "Sign out",
    description: "Ends the session of the bearer token, and that of the refresh token when one is sent. Answers the same without either.",
    body: logoutRequestSchema,
    data: { 200: loggedOutAnswerSchema },
    optionalSession: true
  })
  app.post("/api/auth/logout", { schema: logout }, async (request) => {
    const body = parseRequest(request, "body", logoutRequestSchema, request.body ?? undefined)
    await signOut(app, await authenticate(app, request), body?.refreshToken)
    return ok({ loggedOut: true })
  })

  // "Sign out everywhere": every session of the account ends, this one and the extension's included.
  const logoutAll = accounts({ summary: "Sign out everywhere", description: "Ends every session of the account, the extension's included.", data: { 200: loggedOutAnswerSchema } })
  app.post("/api/auth/logout-all", { preHandler: requireUser, schema: logoutAll }, async (request) => {
    await signOutEverywhere(app, request.auth!.user.id, request.ip)
    return ok({ loggedOut: true })
  })

  for (const path of ["/api/auth/profile", "/api/users/profile"]) {
    const readProfile = accounts({ summary: "The signed-in account", data: { 200: userAnswerSchema } })
    app.get(path, { preHandler: requireUser, schema: readProfile }, async (request) => {
      const { user } = request.auth!
      return ok({ user: { ...toPublicUser(user), organization: await membershipOf(db, app.config.publicUrl, user.id) } })
    })
    const rename = accounts({ summary: "Change the account's name", description: "Only the name can change here: role, address and plan cannot.", body: profileUpdateSchema, data: { 200: userAnswerSchema } })
    app.put(path, { preHandler: requireUser, schema: rename }, async (request) => {
      const { name } = parseRequest(request, "body", profileUpdateSchema)
      const user = await renameUser(db, request.auth!.user.id, name, new Date(app.clock()))
      return ok({ user: toPublicUser(user!) })
    })
  }

  const deletion = accounts({
    summary: "Delete the account",
    description: "With the current password; an account without one (Google only) sends no body and must have signed in recently.",
    body: deleteAccountRequestSchema,
    data: { 200: accountDeletedAnswerSchema },
    errors: { ...PROOF_OF_PERSON, 409: "LAST_ADMIN: the last active admin cannot delete their account; make another account an admin first." }
  })
  app.delete("/api/auth/account", { preHandler: requireUser, schema: deletion }, async (request) => {
    const body = parseRequest(request, "body", deleteAccountRequestSchema, request.body ?? undefined)
    await deleteAccount(app, request.auth!, body?.password, request.ip)
    return ok({ deleted: true })
  })

  const forgot = { summary: "Send a password reset link", description: "Answers the same whether or not the address has an account." }
  sendLinkRoute(app, "/api/auth/forgot-password", forgot, passwordResetEmails)

  const reset = accounts({
    summary: "Set a new password with the code of a reset link",
    description: "Ends every session of the account.",
    body: resetPasswordRequestSchema,
    data: { 200: passwordResetAnswerSchema },
    errors: { 400: `${BAD_CODE[400]} ${POLICY_REFUSAL}` }
  })
  app.post("/api/auth/reset-password", { config: AUTH_RATE_LIMITS.emailLookup, schema: reset }, async (request) => {
    const { oobCode, newPassword } = parseRequest(request, "body", resetPasswordRequestSchema)
    await resetPassword(app, oobCode, newPassword, request.ip)
    return ok({ reset: true })
  })

  const change = accounts({
    summary: "Change the password",
    description: "Ends the account's other sessions.",
    body: changePasswordRequestSchema,
    data: { 200: passwordChangedAnswerSchema },
    errors: { ...PROOF_OF_PERSON, 400: `${PROOF_OF_PERSON[400]} ${POLICY_REFUSAL}` }
  })
  app.post("/api/auth/change-password", { preHandler: requireUser, schema: change }, async (request) => {
    const { currentPassword, newPassword } = parseRequest(request, "body", changePasswordRequestSchema)
    await changePassword(app, request.auth!, currentPassword, newPassword, request.ip)
    return ok({ changed: true })
  })

  const linkEmail = accounts({
    summary: "Add a password sign-in to a Google account",
    body: linkEmailRequestSchema,
    data: { 200: userAnswerSchema },
    errors: {
      400: `VALIDATION_FAILED: the address is not the account's. ${POLICY_REFUSAL}`,
      403: "FORBIDDEN from the extension's session; REAUTHENTICATION_REQUIRED when the sign-in is too old.",
      409: "BAD_REQUEST: the account has a password already."
    }
  })
  app.post("/api/auth/link-email", { preHandler: requireUser, schema: linkEmail }, async (request) => {
    const input = parseRequest(request, "body", linkEmailRequestSchema)
    return ok({ user: toPublicUser(await addPasswordSignIn(app, request.auth!, input, request.ip)) })
  })

  const unlink = accounts({
    summary: "Remove a sign-in method while another remains",
    body: unlinkRequestSchema,
    data: { 200: userAnswerSchema },
    errors: { ...PROOF_OF_PERSON, 403: `FORBIDDEN from the extension's session. ${PROOF_OF_PERSON[403]}`, 409: "NOT_LINKED: the account has no such method; LAST_SIGN_IN_METHOD: it is the only one left." }
  })
  app.post("/api/auth/unlink", { preHandler: requireUser, schema: unlink }, async (request) => {
    const { provider, currentPassword } = parseRequest(request, "body", unlinkRequestSchema)
    return ok({ user: toPublicUser(await removeSignInMethod(app, request.auth!, provider, currentPassword, request.ip)) })
  })

  const authStatus = accounts({ summary: "The account's sign-in methods", data: { 200: authStatusSchema } })
  app.get("/api/auth/auth-status", { preHandler: requireUser, schema: authStatus }, async (request) => {
    const { user } = request.auth!
    const providers = [...(user.password_hash ? ["email"] : []), ...(user.google_uid ? ["google"] : [])]
    return ok({ hasEmailAuth: Boolean(user.password_hash), hasGoogleAuth: Boolean(user.google_uid), providers })
  })
}
