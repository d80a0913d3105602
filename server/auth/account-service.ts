import type { FastifyInstance } from "fastify"
import type { Transaction } from "kysely"

import { LAST_ADMIN_MESSAGE } from "~core/admin/admin-users"
import { utcDayKey } from "~core/time"

import { countEvent } from "../admin/analytics/analytics-store"
import { lockActiveAdmins } from "../admin/users/admin-users-store"
import { recordAuditEvent } from "../audit/audit-log-store"
import { settleDueSubscription } from "../billing/subscription-changes"
import type { DatabaseSchema } from "../db/schema"
import { ApiError, signInRequired } from "../http/errors"
import { enforcePasswordPolicy } from "../password-policy/password-policy-service"
import { auditPassword, auditSessionsEnded } from "./account-audit"
import { queueWelcomeEmail } from "./account-emails"
import { carryTraces, keepTraces } from "./account-traces"
import { requireProofOfPerson } from "./sign-in-methods"
import { accountDisabled, refuseSuspended, type Authenticated } from "./authenticate"
import { consumeCode, findUsableCode } from "./one-time-code-store"
import { hashPassword } from "./passwords"
import { createSession, openExtensionSession, revokeUserSessions } from "./session-store"
import { clearSignInFailures } from "./sign-in-failure-store"
import { checkCurrentPassword } from "./sign-in-protection"
import { signAccessToken } from "./tokens"
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  markEmailVerified,
  markSignedIn,
  normaliseEmail,
  replacePasswordHash,
  toPublicUser,
  type NewUser,
  type UserRow
} from "./user-store"
import { membershipOf } from "../organizations/membership"

const emailAlreadyExists = () => new ApiError(409, "EMAIL_ALREADY_EXISTS", "An account with this email address already exists.")

async function sessionAnswer(app: FastifyInstance, user: UserRow, session: { sessionId: string; refreshToken: string }, now: number) {
  const { token, expiresAt } = await signAccessToken({ userId: user.id, role: user.role, sessionId: session.sessionId }, app.tokenSecret, now)
  const organization = await membershipOf(app.database.db, app.config.publicUrl, user.id)
  return { user: { ...toPublicUser(await settleDueSubscription(app, user)), organization }, token, refreshToken: session.refreshToken, expiresAt }
}

/**
 * Opens a site session and answers what login, refresh-free sign-ins and terms acceptance return: every sign-in
 * (password, Google) comes here, which records it as the account's last and refuses a disabled account (403
 * ACCOUNT_DISABLED), in the transaction that makes the session.
 */
export async function signIn(app: FastifyInstance, user: UserRow) {
  const now = app.clock()
  // A member their organisation suspended (SCIM) gets no session, whichever way they sign in.
  await refuseSuspended(app, user.id)
  const session = await app.database.db.transaction().execute(async (trx) => {
    if (!(await markSignedIn(trx, user.id, new Date(now)))) throw accountDisabled()
    return createSession(trx, user.id, now)
  })
  return sessionAnswer(app, user, session, now)
}

/**
 * The extension's session, opened from the site session the bearer token belongs to (never from another extension
 * session, so a copied extension token cannot renew itself into a new session). It replaces the extension session
 * that site session opened before, and ends with it.
 */
export async function signInExtension(app: FastifyInstance, { user, sessionId }: Authenticated) {
  const now = app.clock()
  const opened = await openExtensionSession(app.database.db, sessionId, now)
  if (opened.outcome === "not-site") {
    throw new ApiError(403, "FORBIDDEN", "The extension's session can only be opened from a website session. Please sign in on the website.")
  }
  if (opened.outcome === "inactive") throw signInRequired()
  return sessionAnswer(app, user, opened, now)
}

/**
 * Creates an account that signs in with this password, with what `within` adds in the same transaction (its
 * verification e-mail); undefined when the address is taken.
 */
export async function createPasswordAccount(
  app: FastifyInstance,
  account: Omit<NewUser, "passwordHash"> & { password: string },
  within?: (trx: Transaction<DatabaseSchema>, created: UserRow) => Promise<void>
): Promise<UserRow | undefined> {
  const { password, ...user } = account
  return insertUser(app.database.db, { ...user, passwordHash: await hashPassword(password) }, new Date(app.clock()), async (trx, created) => {
    // What an earlier, deleted account of the address left (its trial, its month's count) comes with the address.
    await carryTraces(app, trx, created)
    await within?.(trx, created)
  })
}

/**
 * Registration: a new, unverified account whose password meets the policy. A taken address is
 * refused before the password is judged (and again if another registration wins the race).
 */
export async function registerAccount(
  app: FastifyInstance,
  input: { email: string; name: string; password: string },
  within: (trx: Transaction<DatabaseSchema>, created: UserRow) => Promise<void>
): Promise<UserRow> {
  const email = normaliseEmail(input.email)
  if (await findUserByEmail(app.database.db, email)) throw emailAlreadyExists()
  await enforcePasswordPolicy(app, input.password, { email, name: input.name }, "register")
  const user = await createPasswordAccount(app, { email, name: input.name, password: input.password }, async (trx, created) => {
    // A sign-up of the day, counted with the account (the admin's analytics).
    await countEvent(trx, "signUps", utcDayKey(app.clock()))
    await within(trx, created)
  })
  if (!user) throw emailAlreadyExists()
  return user
}

/**
 * Sets the password ADMIN_PASSWORD gives the admin account at start, keeps it in the history the recent-password rule
 * reads, and writes the change to the audit log as the system's, in the same transaction.
 */
export async function setPassword(app: FastifyInstance, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password)
  await app.database.db.transaction().execute(async (trx) => {
    const now = new Date(app.clock())
    await replacePasswordHash(trx, userId, passwordHash, now)
    await recordAuditEvent(trx, { kind: "password.changed", actorId: null, subjectId: userId, detail: { by: "ADMIN_PASSWORD" }, ip: null }, now)
  })
}

/** Spends a verification code: the address counts as proven and a welcome e-mail is queued, all in one transaction. */
export async function verifyEmail(app: FastifyInstance, code: string): Promise<UserRow> {
  const now = app.clock()
  const user = await app.database.db.transaction().execute(async (trx) => {
    const consumed = await consumeCode(trx, code, "verify_email", now)
    const verified = consumed.ok ? await markEmailVerified(trx, consumed.userId, new Date(now)) : undefined
    if (verified) await queueWelcomeEmail(app, trx, verified)
    return verified
  })
  if (!user) throw new ApiError(400, "INVALID_OR_EXPIRED_CODE", "This verification link is invalid or has expired.")
  return user
}

/**
 * Sets the password of a reset link. Following the link proves the address; the reset also lifts
 * a sign-in lock and ends every session. The policy is checked before the code is spent, so a
 * refused password leaves the link usable. The code, the password, the lock, the sessions and the
 * audit log's entries change in one transaction: all of them, or none.
 */
export async function resetPassword(app: FastifyInstance, code: string, newPassword: string, ip: string | null): Promise<void> {
  const db = app.database.db
  const invalidLink = () => new ApiError(400, "INVALID_OR_EXPIRED_CODE", "Invalid password reset link. Please request a new password reset.")
  const userId = await findUsableCode(db, code, "reset_password", app.clock())
  const user = userId ? await findUserById(db, userId) : undefined
  if (!user) throw invalidLink()
  await enforcePasswordPolicy(app, newPassword, { email: user.email, name: user.name, userId: user.id }, "reset")
  const passwordHash = await hashPassword(newPassword)
  await db.transaction().execute(async (trx) => {
    const now = app.clock()
    const consumed = await consumeCode(trx, code, "reset_password", now)
    if (!consumed.ok) throw invalidLink()
    await replacePasswordHash(trx, consumed.userId, passwordHash, new Date(now))
    await markEmailVerified(trx, consumed.userId, new Date(now))
    await clearSignInFailures(trx, user.email)
    const ended = await revokeUserSessions(trx, consumed.userId, now)
    const change = { userId: consumed.userId, ip, now: new Date(now) }
    await auditPassword(trx, change, "reset")
    await auditSessionsEnded(trx, change, ended, "password_reset")
  })
}

/**
 * A signed-in user's new password: the current one must be right. Every other session ends, the extension's
 * included, even the one opened from this site session: a password change is what a user does after a theft, and
 * which copy of a token was stolen cannot be told. The extension finds its session refused at its next call, and
 * the site's next page load opens it a new one from this session. The password, the sessions and the audit log's
 * entries change in one transaction.
 */
export async function changePassword(app: FastifyInstance, { user, sessionId }: Authenticated, currentPassword: string, newPassword: string, ip: string | null): Promise<void> {
  await checkCurrentPassword(app, user, currentPassword, ip)
  if (currentPassword === newPassword) {
    throw new ApiError(400, "PASSWORD_RECENTLY_USED", "New password must be different from current password")
  }
  await enforcePasswordPolicy(app, newPassword, { email: user.email, name: user.name, userId: user.id }, "change")
  const passwordHash = await hashPassword(newPassword)
  await app.database.db.transaction().execute(async (trx) => {
    const now = app.clock()
    await replacePasswordHash(trx, user.id, passwordHash, new Date(now))
    const ended = await revokeUserSessions(trx, user.id, now, { except: sessionId })
    const change = { userId: user.id, ip, now: new Date(now) }
    await auditPassword(trx, change, "changed")
    await auditSessionsEnded(trx, change, ended, "password_changed")
  })
}

/** "Sign out everywhere": every session of the account ends, the extension's included, with its audit entry. */
export async function signOutEverywhere(app: FastifyInstance, userId: string, ip: string | null): Promise<void> {
  await app.database.db.transaction().execute(async (trx) => {
    const now = app.clock()
    const ended = await revokeUserSessions(trx, userId, now)
    await auditSessionsEnded(trx, { userId, ip, now: new Date(now) }, ended, "sign_out_everywhere")
  })
}

/**
 * Deletes the account of the signed-in user once they prove again that it is theirs: the current password, or, for
 * an account without one (Google sign-in only), a sign-in at most FRESH_SIGN_IN_MS old. Sessions go with the account.
 */
export async function deleteAccount(app: FastifyInstance, auth: Authenticated, password: string | undefined, ip: string | null): Promise<void> {
  await requireProofOfPerson(app, auth, password, { field: "password", action: "delete your account", ip })
  // Sessions, codes, the record and the count go with the account; its traces are kept, in the same transaction.
  await app.database.db.transaction().execute(async (trx) => {
    // The rule of demotion and disabling, under its lock: of two admins deleting themselves at once, one stays.
    const activeAdmins = await lockActiveAdmins(trx)
    if (activeAdmins.length === 1 && activeAdmins[0] === auth.user.id) throw new ApiError(409, "LAST_ADMIN", LAST_ADMIN_MESSAGE)
    await keepTraces(app, trx, auth.user)
    await deleteUser(trx, auth.user.id)
  })
}
