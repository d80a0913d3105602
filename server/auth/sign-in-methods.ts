/**
 * The ways an account signs in (a password, Google), added and removed. A bearer token alone proves only that someone
 * holds a session, perhaps a stolen one: adding a way in would make the theft permanent, and removing one could lock
 * the owner out. So both need proof of the person (the current password, or for an account without one a sign-in
 * within FRESH_SIGN_IN_MS), never from the extension's session, and each is e-mailed to the owner in the transaction
 * of the change. Removing a method ends every other session.
 */
import type { FastifyInstance } from "fastify"
import type { Transaction } from "kysely"

import type { SignInMethod } from "~core/auth-schemas"

import type { DatabaseSchema } from "../db/schema"
import { ApiError, validationFailed } from "../http/errors"
import { EMAIL_TEMPLATES } from "../mail/email-templates"
import { queueEmail } from "../mail/outbox"
import { enforcePasswordPolicy } from "../password-policy/password-policy-service"
import { auditSessionsEnded, auditSignInMethod } from "./account-audit"
import { FRESH_SIGN_IN_MS } from "./auth-timers"
import type { Authenticated } from "./authenticate"
import { hashPassword } from "./passwords"
import { revokeUserSessions, sessionSignedInAt } from "./session-store"
import { checkCurrentPassword } from "./sign-in-protection"
import { normaliseEmail, removeSignInMethodRow, renameUser, replacePasswordHash, type UserRow } from "./user-store"

const METHOD_NAMES = { google: "Google", email: "a password" } as const

/**
 * Proof that the person is the account's owner: the current password when the account has one, else a sign-in at most
 * FRESH_SIGN_IN_MS old. `field` names the body's password field in the refusal.
 */
export async function requireProofOfPerson(
  app: FastifyInstance,
  auth: Authenticated,
  password: string | undefined,
  { field, action, ip }: { field: string; action: string; ip: string | null }
): Promise<void> {
  if (auth.user.password_hash) {
    if (password === undefined) throw validationFailed([`${field}: Current password is required`])
    await checkCurrentPassword(app, auth.user, password, ip)
    return
  }
  const signedInAt = await sessionSignedInAt(app.database.db, auth.sessionId)
  if (!signedInAt || app.clock() - signedInAt.getTime() > FRESH_SIGN_IN_MS) {
    throw new ApiError(403, "REAUTHENTICATION_REQUIRED", `For your security, please sign in again, then ${action} within ${FRESH_SIGN_IN_MS / 60_000} minutes.`)
  }
}

/** The extension's session may use the account, never change how it signs in. */
export function refuseExtensionSession(auth: Authenticated): void {
  if (auth.client === "extension") {
    throw new ApiError(403, "FORBIDDEN", "Sign-in methods can only be changed on the website, not from the extension.")
  }
}

/** Queues the e-mail that tells the owner a method was added or removed, in the change's transaction. */
export function queueMethodEmail(app: FastifyInstance, trx: Transaction<DatabaseSchema>, user: UserRow, method: SignInMethod, change: "added" | "removed"): Promise<void> {
  const content = (change === "added" ? EMAIL_TEMPLATES.signInMethodAdded : EMAIL_TEMPLATES.signInMethodRemoved)({ name: user.name, method: METHOD_NAMES[method], securityUrl: `${app.config.publicUrl}/dashboard` })
  return queueEmail(app, trx, { to: user.email, what: `sign-in method ${change}`, content })
}

/** Adds e-mail and password sign-in to an account that signs in with Google only, for its own address; audited. */
export async function addPasswordSignIn(app: FastifyInstance, auth: Authenticated, input: { email: string; password: string; name?: string }, ip: string | null): Promise<UserRow> {
  refuseExtensionSession(auth)
  const { user } = auth
  if (user.password_hash) throw new ApiError(409, "BAD_REQUEST", "This account already signs in with email and password.")
  if (normaliseEmail(input.email) !== user.email) throw validationFailed(["email: must be the email address of this account"])
  await requireProofOfPerson(app, auth, undefined, { field: "currentPassword", action: "add a password", ip })
  await enforcePasswordPolicy(app, input.password, { email: user.email, name: input.name ?? user.name, userId: user.id }, "link")
  const passwordHash = await hashPassword(input.password)
  const now = new Date(app.clock())
  return app.database.db.transaction().execute(async (trx) => {
    const added = await replacePasswordHash(trx, user.id, passwordHash, now, { onlyIfNone: true })
    if (!added) throw new ApiError(409, "BAD_REQUEST", "This account already signs in with email and password.")
    const updated = input.name ? (await renameUser(trx, user.id, input.name, now))! : added
    await queueMethodEmail(app, trx, updated, "email", "added")
    await auditSignInMethod(trx, { userId: user.id, ip, now }, "email", "added")
    return updated
  })
}

/**
 * Removes a sign-in method while another remains, with proof of the person, and ends every other session. One
 * conditional update: of parallel removals of both methods, one succeeds and the other finds the last one. Audited,
 * with the sessions it ended.
 */
export async function removeSignInMethod(app: FastifyInstance, auth: Authenticated, method: SignInMethod, currentPassword: string | undefined, ip: string | null): Promise<UserRow> {
  refuseExtensionSession(auth)
  const { user } = auth
  const has = method === "google" ? Boolean(user.google_uid) : Boolean(user.password_hash)
  if (!has) throw new ApiError(409, "NOT_LINKED", method === "google" ? "This account does not sign in with Google." : "This account has no password to remove.")
  await requireProofOfPerson(app, auth, currentPassword, { field: "currentPassword", action: "remove a sign-in method", ip })
  const now = app.clock()
  return app.database.db.transaction().execute(async (trx) => {
    const removed = await removeSignInMethodRow(trx, user.id, method, new Date(now))
    if (!removed) throw new ApiError(409, "LAST_SIGN_IN_METHOD", "This is the only way left to sign in to your account, so it cannot be removed.")
    const ended = await revokeUserSessions(trx, user.id, now, { except: auth.sessionId })
    await queueMethodEmail(app, trx, removed, method, "removed")
    const change = { userId: user.id, ip, now: new Date(now) }
    await auditSignInMethod(trx, change, method, "removed")
    await auditSessionsEnded(trx, change, ended, "sign_in_method_removed")
    return removed
  })
}
