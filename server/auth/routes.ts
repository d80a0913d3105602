import type { FastifyInstance } from "fastify"

import { ok } from "~core/api"
import {
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  emailOnlyRequestSchema,
  linkEmailRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  profileUpdateSchema,
  refreshRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  unlinkRequestSchema,
  verificationCheckRequestSchema,
  verifyEmailRequestSchema
} from "~core/auth-schemas"

import { ApiError, parseInput } from "../http/errors"
import { clientAddressKey } from "../http/client-address"
import { perIpRateLimit } from "../http/rate-limit"
import { codeEmailRequests } from "./account-emails"
import { changePassword, deleteAccount, registerAccount, resetPassword, signIn, verifyEmail } from "./account-service"
import { addPasswordSignIn, removeSignInMethod } from "./sign-in-methods"
import { authenticate, requireUser } from "./authenticate"
import { revokeSession, revokeUserSessions, rotateRefreshToken } from "./sessions"
import { checkPasswordSignIn } from "./sign-in-protection"
import { allowsVerificationCheck, signAccessToken, signVerificationCheckToken } from "./tokens"
import { findUserByEmail, findUserById, normaliseEmail, renameUser, toPublicUser } from "./users"

/** Per-IP limits of the calls that can be used to guess or to flood. */
export const AUTH_RATE_LIMITS = {
  login: perIpRateLimit({ max: 30, timeWindow: 15 * 60_000, message: "Too many login attempts from this IP. Please try again later." }),
  register: perIpRateLimit({ max: 10, timeWindow: 60 * 60_000, message: "Too many registration attempts. Please wait a moment before trying again." }),
  emailLookup: perIpRateLimit({ max: 30, timeWindow: 15 * 60_000 })
}

const sessionExpired = () => new ApiError(401, "SESSION_EXPIRED", "Your session has expired. Please sign in again.")

export async function authRoutes(app: FastifyInstance) {
  const db = app.database.db
  const verificationEmails = codeEmailRequests(app, "verify_email")
  const passwordResetEmails = codeEmailRequests(app, "reset_password")

  app.post("/api/auth/register", { config: AUTH_RATE_LIMITS.register }, async (request, reply) => {
    const input = parseInput(registerRequestSchema, request.body)
    // The account and its verification e-mail are made together: an acknowledged registration always gets its link.
    const user = await registerAccount(app, input, (trx, created) => verificationEmails.queueFor(trx, created))
    await verificationEmails.countSent(user, clientAddressKey(request.ip))
    // An account signs in only once its address is verified, so no session is opened yet.
    const verificationToken = await signVerificationCheckToken(user.email, app.tokenSecret, app.clock())
    return reply.status(201).send(ok({ user: toPublicUser(user), token: null, refreshToken: null, verificationRequired: true, verificationToken }))
  })

  app.post("/api/auth/verify-email", { config: AUTH_RATE_LIMITS.emailLookup }, async (request) => {
    const { oobCode } = parseInput(verifyEmailRequestSchema, request.body)
    const user = await verifyEmail(app, oobCode)
    return ok({ email: user.email, verified: true })
  })

  app.post("/api/auth/resend-verification", { config: AUTH_RATE_LIMITS.emailLookup }, async (request) => {
    const { email } = parseInput(emailOnlyRequestSchema, request.body)
    return ok(await verificationEmails.request(email, clientAddressKey(request.ip)))
  })

  /** Only a browser holding the address's verification-check token learns its state; to anyone else every address is unverified. */
  const verificationState = async ({ email, verificationToken }: { email: string; verificationToken?: string }) => {
    const address = normaliseEmail(email)
    const allowed = verificationToken !== undefined && (await allowsVerificationCheck(verificationToken, address, app.tokenSecret, app.clock()))
    const user = allowed ? await findUserByEmail(db, address) : undefined
    return ok({ verified: Boolean(user?.email_verified_at) })
  }

  app.get("/api/auth/check-verification", { config: AUTH_RATE_LIMITS.emailLookup }, async (request) => {
    return verificationState(parseInput(verificationCheckRequestSchema, request.query))
  })

  app.post("/api/auth/sync-verification", { config: AUTH_RATE_LIMITS.emailLookup }, async (request) => {
    return verificationState(parseInput(verificationCheckRequestSchema, request.body))
  })

  app.post("/api/auth/login", { config: AUTH_RATE_LIMITS.login }, async (request) => {
    const { email, password } = parseInput(loginRequestSchema, request.body)
    const user = await checkPasswordSignIn(app, email, password)
    if (!user.email_verified_at) {
      // Only after the right password: whoever knows it may follow the verification.
      const verificationToken = await signVerificationCheckToken(user.email, app.tokenSecret, app.clock())
      throw new ApiError(403, "EMAIL_NOT_VERIFIED", "Please verify your email before signing in. Check your inbox for a verification link.", {
        verificationToken
      })
    }
    return ok(await signIn(app, user))
  })

  app.post("/api/auth/refresh", async (request) => {
    const { refreshToken } = parseInput(refreshRequestSchema, request.body)
    const now = app.clock()
    const rotation = await rotateRefreshToken(db, refreshToken, now)
    if (rotation.outcome !== "rotated") {
      if (rotation.outcome === "reused") request.log.warn("a rotated refresh token was presented again; its session is revoked")
      throw sessionExpired()
    }
    const user = await findUserById(db, rotation.userId)
    if (!user) throw sessionExpired()
    const { token, expiresAt } = await signAccessToken({ userId: user.id, role: user.role, sessionId: rotation.sessionId }, app.tokenSecret, now)
    return ok({ token, refreshToken: rotation.refreshToken, expiresAt })
  })

  app.post("/api/auth/logout", async (request) => {
    const body = parseInput(logoutRequestSchema, request.body ?? undefined)
    const now = app.clock()
    const auth = await authenticate(app, request)
    if (auth) await revokeSession(db, auth.sessionId, now)
    if (body?.refreshToken) {
      const rotation = await rotateRefreshToken(db, body.refreshToken, now)
      if (rotation.outcome === "rotated") await revokeSession(db, rotation.sessionId, now)
    }
    return ok({ loggedOut: true })
  })

  // "Sign out everywhere": every session of the account ends, this one and the extension's included.
  app.post("/api/auth/logout-all", { preHandler: requireUser }, async (request) => {
    await revokeUserSessions(db, request.auth!.user.id, app.clock())
    return ok({ loggedOut: true })
  })

  for (const path of ["/api/auth/profile", "/api/users/profile"]) {
    app.get(path, { preHandler: requireUser }, async (request) => ok({ user: toPublicUser(request.auth!.user) }))
    app.put(path, { preHandler: requireUser }, async (request) => {
      const { name } = parseInput(profileUpdateSchema, request.body)
      const user = await renameUser(db, request.auth!.user.id, name, new Date(app.clock()))
      return ok({ user: toPublicUser(user!) })
    })
  }

  app.delete("/api/auth/account", { preHandler: requireUser }, async (request) => {
    const body = parseInput(deleteAccountRequestSchema, request.body ?? undefined)
    await deleteAccount(app, request.auth!, body?.password)
    return ok({ deleted: true })
  })

  app.post("/api/auth/forgot-password", { config: AUTH_RATE_LIMITS.emailLookup }, async (request) => {
    const { email } = parseInput(emailOnlyRequestSchema, request.body)
    return ok(await passwordResetEmails.request(email, clientAddressKey(request.ip)))
  })

  app.post("/api/auth/reset-password", { config: AUTH_RATE_LIMITS.emailLookup }, async (request) => {
    const { oobCode, newPassword } = parseInput(resetPasswordRequestSchema, request.body)
    await resetPassword(app, oobCode, newPassword)
    return ok({ reset: true })
  })

  app.post("/api/auth/change-password", { preHandler: requireUser }, async (request) => {
    const { currentPassword, newPassword } = parseInput(changePasswordRequestSchema, request.body)
    await changePassword(app, request.auth!, currentPassword, newPassword)
    return ok({ changed: true })
  })

  app.post("/api/auth/link-email", { preHandler: requireUser }, async (request) => {
    const input = parseInput(linkEmailRequestSchema, request.body)
    return ok({ user: toPublicUser(await addPasswordSignIn(app, request.auth!, input)) })
  })

  app.post("/api/auth/unlink", { preHandler: requireUser }, async (request) => {
    const { provider, currentPassword } = parseInput(unlinkRequestSchema, request.body)
    return ok({ user: toPublicUser(await removeSignInMethod(app, request.auth!, provider, currentPassword)) })
  })

  app.get("/api/auth/auth-status", { preHandler: requireUser }, async (request) => {
    const { user } = request.auth!
    const providers = [...(user.password_hash ? ["email"] : []), ...(user.google_uid ? ["google"] : [])]
    return ok({ hasEmailAuth: Boolean(user.password_hash), hasGoogleAuth: Boolean(user.google_uid), providers })
  })
}
