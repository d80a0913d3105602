import type { FastifyInstance, FastifyRequest } from "fastify"

import { ok } from "~core/api"
import {
  changePasswordRequestSchema,
  emailOnlyRequestSchema,
  linkEmailRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  profileUpdateSchema,
  refreshRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  verifyEmailRequestSchema
} from "~core/auth-schemas"
import { RESEND_COOLDOWN_SECONDS } from "~core/limits"

import { Cooldown } from "../http/cooldown"
import { ApiError, parseInput } from "../http/errors"
import { enforcePasswordPolicy, loadPasswordPolicy } from "../policy/policy-service"
import {
  sendPasswordResetEmail,
  sendVerificationEmail,
  sendWelcomeEmail,
  setPassword,
  signIn
} from "./account-service"
import { authenticate, requireUser } from "./authenticate"
import { consumeCode, findUsableCode } from "./one-time-codes"
import { hashPassword, spendVerificationTime, verifyPassword } from "./passwords"
import { revokeSession, revokeUserSessions, rotateRefreshToken } from "./sessions"
import { checkSignInGate, clearSignInFailures, recordSignInFailure } from "./sign-in-protection"
import { signAccessToken } from "./tokens"
import { findUserByEmail, findUserById, normaliseEmail, toPublicUser } from "./users"

/** Per-IP limits of the calls that can be used to guess or to flood. */
export const AUTH_RATE_LIMITS = {
  login: { max: 30, timeWindow: 15 * 60_000, message: "Too many login attempts from this IP. Please try again later." },
  register: { max: 10, timeWindow: 60 * 60_000, message: "Too many registration attempts. Please wait a moment before trying again." },
  emailLookup: { max: 30, timeWindow: 15 * 60_000, message: "Too many requests. Please wait a moment before trying again." }
} as const

function rateLimit(limit: (typeof AUTH_RATE_LIMITS)[keyof typeof AUTH_RATE_LIMITS]) {
  return {
    rateLimit: {
      max: limit.max,
      timeWindow: limit.timeWindow,
      errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
        new ApiError(429, "RATE_LIMIT_EXCEEDED", limit.message, { retryAfter: Math.ceil(context.ttl / 1000) })
    }
  }
}

const sessionExpired = () => new ApiError(401, "SESSION_EXPIRED", "Your session has expired. Please sign in again.")

export async function authRoutes(app: FastifyInstance) {
  const db = app.database.db
  const resendCooldown = new Cooldown(RESEND_COOLDOWN_SECONDS * 1000, app.clock)
  const forgotCooldown = new Cooldown(RESEND_COOLDOWN_SECONDS * 1000, app.clock)

  const cooldownError = (seconds: number) =>
    new ApiError(429, "TOO_MANY_REQUESTS", `Too many attempts. Please wait ${seconds} seconds before trying again.`, { retryAfter: seconds })

  app.post("/api/auth/register", { config: rateLimit(AUTH_RATE_LIMITS.register) }, async (request, reply) => {
    const input = parseInput(registerRequestSchema, request.body)
    const email = normaliseEmail(input.email)
    if (await findUserByEmail(db, email)) {
      throw new ApiError(409, "EMAIL_ALREADY_EXISTS", "An account with this email address already exists.")
    }
    await enforcePasswordPolicy(app, input.password, { email, name: input.name }, "register")
    const passwordHash = await hashPassword(input.password)
    const now = new Date(app.clock())
    const user = await db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto("users")
        .values({ email, name: input.name, password_hash: passwordHash, terms_accepted_at: now, created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.column("email").doNothing())
        .returningAll()
        .executeTakeFirst()
      if (!created) throw new ApiError(409, "EMAIL_ALREADY_EXISTS", "An account with this email address already exists.")
      await trx.insertInto("password_history").values({ user_id: created.id, password_hash: passwordHash, created_at: now }).execute()
      return created
    })
    resendCooldown.take(email)
    await sendVerificationEmail(app, user)
    // An account signs in only once its address is verified, so no session is opened yet.
    return reply.status(201).send(ok({ user: toPublicUser(user), token: null, refreshToken: null, verificationRequired: true }))
  })

  app.post("/api/auth/verify-email", { config: rateLimit(AUTH_RATE_LIMITS.emailLookup) }, async (request) => {
    const { oobCode } = parseInput(verifyEmailRequestSchema, request.body)
    const consumed = await consumeCode(db, oobCode, "verify_email", app.clock())
    if (!consumed.ok) throw new ApiError(400, "INVALID_OR_EXPIRED_CODE", "This verification link is invalid or has expired.")
    const user = await db
      .updateTable("users")
      .set({ email_verified_at: new Date(app.clock()), updated_at: new Date(app.clock()) })
      .where("id", "=", consumed.userId)
      .returningAll()
      .executeTakeFirstOrThrow()
    await sendWelcomeEmail(app, user)
    return ok({ email: user.email, verified: true })
  })

  app.post("/api/auth/resend-verification", { config: rateLimit(AUTH_RATE_LIMITS.emailLookup) }, async (request) => {
    const { email } = parseInput(emailOnlyRequestSchema, request.body)
    const key = normaliseEmail(email)
    const wait = resendCooldown.take(key)
    if (wait > 0) throw cooldownError(wait)
    const user = await findUserByEmail(db, key)
    if (user && !user.email_verified_at) await sendVerificationEmail(app, user)
    return ok({ sent: true, message: "If an unverified account exists for this address, a new verification email is on its way." })
  })

  const verificationState = async (email: string) => {
    const user = await findUserByEmail(db, email)
    // Unknown and unverified addresses get the same answer.
    return ok({ verified: Boolean(user?.email_verified_at) })
  }

  app.get("/api/auth/check-verification", { config: rateLimit(AUTH_RATE_LIMITS.emailLookup) }, async (request) => {
    const { email } = parseInput(emailOnlyRequestSchema, request.query)
    return verificationState(email)
  })

  app.post("/api/auth/sync-verification", { config: rateLimit(AUTH_RATE_LIMITS.emailLookup) }, async (request) => {
    const { email } = parseInput(emailOnlyRequestSchema, request.body)
    return verificationState(email)
  })

  app.post("/api/auth/login", { config: rateLimit(AUTH_RATE_LIMITS.login) }, async (request) => {
    const { email, password } = parseInput(loginRequestSchema, request.body)
    const now = app.clock()
    const gate = await checkSignInGate(db, email, now)
    if (!gate.allowed) {
      if (gate.reason === "locked") {
        const minutes = Math.ceil(gate.retryAfterSeconds / 60)
        throw new ApiError(423, "ACCOUNT_LOCKED", `Account temporarily locked. Please try again in ${minutes} minutes or reset your password.`, {
          retryAfter: gate.retryAfterSeconds
        })
      }
      throw new ApiError(429, "PROGRESSIVE_DELAY", `Please wait ${gate.retryAfterSeconds} seconds before trying again.`, {
        retryAfter: gate.retryAfterSeconds,
        nextAttemptDelay: gate.retryAfterSeconds
      })
    }

    const user = await findUserByEmail(db, email)
    const passwordMatches = user?.password_hash ? await verifyPassword(user.password_hash, password) : (await spendVerificationTime(password), false)
    if (!user || !passwordMatches) {
      const policy = await loadPasswordPolicy(app)
      const outcome = await recordSignInFailure(db, email, { attempts: policy.rateLimitAttempts, lockoutMs: policy.lockoutDuration }, now)
      throw new ApiError(
        401,
        "INVALID_CREDENTIALS",
        outcome.locked
          ? "Invalid email or password. Account temporarily locked."
          : `Invalid email or password. ${outcome.remainingAttempts} login attempts remaining.`,
        { remainingAttempts: outcome.remainingAttempts, nextAttemptDelay: outcome.nextAttemptDelay, ...(outcome.locked ? { retryAfter: outcome.retryAfterSeconds } : {}) }
      )
    }
    if (gate.failures > 0) await clearSignInFailures(db, email)
    if (!user.email_verified_at) {
      throw new ApiError(403, "EMAIL_NOT_VERIFIED", "Please verify your email before signing in. Check your inbox for a verification link.")
    }
    return ok(await signIn(app, user))
  })

  app.post("/api/auth/refresh", async (request) => {
    const { refreshToken } = parseInput(refreshRequestSchema, request.body)
    const now = app.clock()
    const rotation = await rotateRefreshToken(db, refreshToken, app.tokenSecret, now)
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
      const rotation = await rotateRefreshToken(db, body.refreshToken, app.tokenSecret, now)
      if (rotation.outcome === "rotated") await revokeSession(db, rotation.sessionId, now)
    }
    return ok({ loggedOut: true })
  })

  for (const path of ["/api/auth/profile", "/api/users/profile"]) {
    app.get(path, { preHandler: requireUser }, async (request) => ok({ user: toPublicUser(request.auth!.user) }))
    app.put(path, { preHandler: requireUser }, async (request) => {
      const { name } = parseInput(profileUpdateSchema, request.body)
      const user = await db
        .updateTable("users")
        .set({ name, updated_at: new Date(app.clock()) })
        .where("id", "=", request.auth!.user.id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return ok({ user: toPublicUser(user) })
    })
  }

  app.delete("/api/auth/account", { preHandler: requireUser }, async (request) => {
    // Sessions, codes and password history go with the user (foreign keys cascade).
    await db.deleteFrom("users").where("id", "=", request.auth!.user.id).execute()
    return ok({ deleted: true })
  })

  app.post("/api/auth/forgot-password", { config: rateLimit(AUTH_RATE_LIMITS.emailLookup) }, async (request) => {
    const { email } = parseInput(emailOnlyRequestSchema, request.body)
    const key = normaliseEmail(email)
    const wait = forgotCooldown.take(key)
    if (wait > 0) throw cooldownError(wait)
    const user = await findUserByEmail(db, key)
    if (user) await sendPasswordResetEmail(app, user)
    return ok({ sent: true, message: "If an account exists for this address, a password reset email is on its way." })
  })

  app.post("/api/auth/reset-password", { config: rateLimit(AUTH_RATE_LIMITS.emailLookup) }, async (request) => {
    const { oobCode, newPassword } = parseInput(resetPasswordRequestSchema, request.body)
    const invalidLink = () => new ApiError(400, "INVALID_OR_EXPIRED_CODE", "Invalid password reset link. Please request a new password reset.")
    const userId = await findUsableCode(db, oobCode, "reset_password", app.clock())
    const pending = userId ? await findUserById(db, userId) : undefined
    if (!pending) throw invalidLink()
    // The policy is checked before the code is spent, so a refused password leaves the link usable.
    await enforcePasswordPolicy(app, newPassword, { email: pending.email, name: pending.name, userId: pending.id }, "reset")
    const consumed = await consumeCode(db, oobCode, "reset_password", app.clock())
    if (!consumed.ok) throw invalidLink()
    await setPassword(app, consumed.userId, newPassword)
    const now = app.clock()
    // Following the link proves the address, and a reset unlocks the account.
    await db.updateTable("users").set({ email_verified_at: new Date(now) }).where("id", "=", consumed.userId).where("email_verified_at", "is", null).execute()
    await clearSignInFailures(db, pending.email)
    await revokeUserSessions(db, consumed.userId, now)
    return ok({ reset: true })
  })

  app.post("/api/auth/change-password", { preHandler: requireUser }, async (request) => {
    const { currentPassword, newPassword } = parseInput(changePasswordRequestSchema, request.body)
    const { user, sessionId } = request.auth!
    if (!user.password_hash || !(await verifyPassword(user.password_hash, currentPassword))) {
      throw new ApiError(400, "INVALID_CREDENTIALS", "Current password is incorrect")
    }
    if (currentPassword === newPassword) {
      throw new ApiError(400, "PASSWORD_RECENTLY_USED", "New password must be different from current password")
    }
    await enforcePasswordPolicy(app, newPassword, { email: user.email, name: user.name, userId: user.id }, "change")
    await setPassword(app, user.id, newPassword)
    await revokeUserSessions(db, user.id, app.clock(), { except: sessionId })
    return ok({ changed: true })
  })

  app.post("/api/auth/link-email", { preHandler: requireUser }, async (request) => {
    const input = parseInput(linkEmailRequestSchema, request.body)
    const { user } = request.auth!
    if (user.password_hash) throw new ApiError(409, "BAD_REQUEST", "This account already signs in with email and password.")
    if (normaliseEmail(input.email) !== user.email) {
      throw new ApiError(400, "VALIDATION_FAILED", "Validation failed", { details: ["email: must be the email address of this account"] })
    }
    await enforcePasswordPolicy(app, input.password, { email: user.email, name: input.name ?? user.name, userId: user.id }, "link")
    await setPassword(app, user.id, input.password)
    if (input.name) await db.updateTable("users").set({ name: input.name }).where("id", "=", user.id).execute()
    const updated = await findUserById(db, user.id)
    return ok({ user: toPublicUser(updated!) })
  })

  app.get("/api/auth/auth-status", { preHandler: requireUser }, async (request) => {
    const { user } = request.auth!
    const providers = [...(user.password_hash ? ["email"] : []), ...(user.google_uid ? ["google"] : [])]
    return ok({ hasEmailAuth: Boolean(user.password_hash), hasGoogleAuth: Boolean(user.google_uid), providers })
  })
}
