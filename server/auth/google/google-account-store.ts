import type { FastifyInstance } from "fastify"
import type { Kysely, Transaction } from "kysely"

import { utcDayKey } from "~core/time"
import type { MfaRequiredAnswer } from "~core/two-step"

import { countEvent } from "../../admin/analytics/analytics-store"
import type { DatabaseSchema } from "../../db/schema"
import { ApiError } from "../../http/errors"
import { signIn } from "../account-service"
import { auditSessionsEnded, auditSignInMethod } from "../account-audit"
import { carryTraces } from "../account-traces"
import { beginSignIn } from "../mfa/mfa-service"
import { refuseWhereSsoIsRequired } from "../../organizations/sso/sso-enforcement"
import { queueMethodEmail } from "../sign-in-methods"
import { revokeUserSessions } from "../session-store"
import { findUserByEmail, type UserRow } from "../user-store"
import type { GoogleIdentity } from "./google-identity"

type Db = Kysely<DatabaseSchema>
type SessionAnswer = Awaited<ReturnType<typeof signIn>>

const emailNotVerified = () => new ApiError(403, "EMAIL_NOT_VERIFIED", "Email not verified. Please verify your email before signing in.")
const termsNotAccepted = () =>
  new ApiError(403, "TERMS_NOT_ACCEPTED", "Please accept the Terms of Service and Privacy Policy to create your account.")
const providerAlreadyLinked = () => new ApiError(409, "PROVIDER_ALREADY_LINKED", "This account is already linked to a Google account.")
const credentialAlreadyInUse = () => new ApiError(409, "CREDENTIAL_ALREADY_IN_USE", "This Google account is already linked to another account.")

/** Why a new Google user may not take the address: its account proved it, or already has a Google identity. */
function addressTaken(owner: UserRow): ApiError {
  return owner.google_uid
    ? new ApiError(409, "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL", "An account with this email already exists and signs in with a different Google account.")
    : new ApiError(
        409,
        "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL",
        "An account with this email already exists. Sign in with your password, then link Google from your dashboard."
      )
}

/** An account whose owner never proved the address: Google's proof outranks it. */
const isUnprovenPasswordAccount = (owner: UserRow) => !owner.google_uid && !owner.email_verified_at

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown }).code === "23505"
}

export function findUserByGoogleUid(db: Db, uid: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("google_uid", "=", uid).executeTakeFirst()
}

/** Creates the Google user, with what an earlier, deleted account of the uid or address left (its trial, its month's count). */
function insertGoogleUser(app: FastifyInstance, identity: GoogleIdentity, now: Date): Promise<UserRow | undefined> {
  return app.database.db.transaction().execute(async (trx) => {
    const created = await insertGoogleRow(trx, identity, now)
    if (created) {
      await carryTraces(app, trx, created)
      // A sign-up of the day, counted with the account (the admin's analytics).
      await countEvent(trx, "signUps", utcDayKey(now))
    }
    return created
  })
}

function insertGoogleRow(db: Transaction<DatabaseSchema>, identity: GoogleIdentity, now: Date): Promise<UserRow | undefined> {
  return db
    .insertInto("users")
    .values({
      email: identity.email,
      name: identity.name,
      google_uid: identity.uid,
      password_hash: null,
      email_verified_at: now,
      terms_accepted_at: now,
      created_at: now,
      updated_at: now
    })
    // A racing request took the uid or the address first: the caller decides again on what is stored.
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst()
}

/**
 * Makes an unverified e-mail account the Google user's: whoever registered it never proved the address, so its
 * password, password history, sessions and outstanding e-mail codes go. Undefined when the row changed meanwhile
 * (verified, or converted by a racing request). The audit log records the methods changed and the sessions ended.
 */
async function convertUnprovenAccount(app: FastifyInstance, userId: string, identity: GoogleIdentity, now: Date, ip: string | null): Promise<UserRow | undefined> {
  try {
    return await app.database.db.transaction().execute(async (trx) => {
      const converted = await trx
        .updateTable("users")
        .set({
          google_uid: identity.uid,
          password_hash: null,
          name: identity.name,
          email_verified_at: now,
          terms_accepted_at: now,
          updated_at: now
        })
        .where("id", "=", userId)
        .where("google_uid", "is", null)
        .where("email_verified_at", "is", null)
        .returningAll()
        .executeTakeFirst()
      if (!converted) return undefined
      await trx.deleteFrom("password_history").where("user_id", "=", userId).execute()
      await trx.updateTable("one_time_codes").set({ used_at: now }).where("user_id", "=", userId).where("used_at", "is", null).execute()
      const ended = await revokeUserSessions(trx, userId, now.getTime())
      await carryTraces(app, trx, converted)
      const change = { userId, ip, now }
      await auditSignInMethod(trx, change, "google", "added")
      await auditSignInMethod(trx, change, "email", "removed")
      await auditSessionsEnded(trx, change, ended, "google_took_over_address")
      return converted
    })
  } catch (error) {
    if (isUniqueViolation(error)) return undefined
    throw error
  }
}

/** A known account's sign-in with Google, unless its organisation signs its people in through its own provider. */
async function beginGoogleSignIn(app: FastifyInstance, user: UserRow): Promise<SessionAnswer | MfaRequiredAnswer> {
  await refuseWhereSsoIsRequired(app.database.db, user.email, user.id)
  return beginSignIn(app, user)
}

/**
 * POST /api/auth/google: a known Google user signs in. Anyone else has not accepted the terms yet, unless the
 * address belongs to an account that proved it, which is refused at once (accepting the terms would not help).
 */
export async function signInWithGoogle(app: FastifyInstance, identity: GoogleIdentity): Promise<SessionAnswer | MfaRequiredAnswer> {
  if (!identity.emailVerified) throw emailNotVerified()
  const db = app.database.db
  // An account with a second factor asks for it after Google as after a password.
  const known = await findUserByGoogleUid(db, identity.uid)
  if (known) return beginGoogleSignIn(app, known)
  const owner = await findUserByEmail(db, identity.email)
  if (owner?.google_uid === identity.uid) return beginGoogleSignIn(app, owner)
  if (owner && !isUnprovenPasswordAccount(owner)) throw addressTaken(owner)
  await refuseWhereSsoIsRequired(db, identity.email, null)
  throw termsNotAccepted()
}

/** Rounds of look-up and write a request may need when racing others for the same uid or address. */
const MAX_ACCEPT_ROUNDS = 3

/**
 * POST /api/auth/google/accept-terms: creates the Google account (or takes over an unproven e-mail account with the
 * address) and signs in. A uid already known just signs in. Parallel calls for one uid create one account: the
 * unique google_uid and e-mail columns decide the race, and the losers sign in to the winner's account.
 */
export async function acceptTermsWithGoogle(app: FastifyInstance, identity: GoogleIdentity, ip: string | null): Promise<{ created: boolean; session: SessionAnswer | MfaRequiredAnswer }> {
  if (!identity.emailVerified) throw emailNotVerified()
  const db = app.database.db
  for (let round = 0; round < MAX_ACCEPT_ROUNDS; round++) {
    const known = await findUserByGoogleUid(db, identity.uid)
    if (known) return { created: false, session: await beginGoogleSignIn(app, known) }
    const now = new Date(app.clock())
    const owner = await findUserByEmail(db, identity.email)
    // A racing request made or converted the account between the two look-ups: it is this Google user's.
    if (owner?.google_uid === identity.uid) return { created: false, session: await beginGoogleSignIn(app, owner) }
    if (owner && !isUnprovenPasswordAccount(owner)) throw addressTaken(owner)
    await refuseWhereSsoIsRequired(db, identity.email, null)
    const created = owner ? await convertUnprovenAccount(app, owner.id, identity, now, ip) : await insertGoogleUser(app, identity, now)
    if (created) return { created: true, session: await signIn(app, created) }
  }
  throw new ApiError(503, "SERVICE_UNAVAILABLE", "Google sign-in could not be completed. Please try again.")
}

/**
 * POST /api/auth/link-google: the signed-in account gains the Google identity the token proves (its address may
 * differ); the caller has proved the person (sign-in-methods.ts), and the owner is told by e-mail. Audited.
 */
export async function linkGoogleIdentity(app: FastifyInstance, user: UserRow, identity: GoogleIdentity, ip: string | null): Promise<UserRow> {
  if (user.google_uid) throw providerAlreadyLinked()
  const db = app.database.db
  if (await findUserByGoogleUid(db, identity.uid)) throw credentialAlreadyInUse()
  let linked: UserRow | undefined
  try {
    linked = await db.transaction().execute(async (trx) => {
      const now = new Date(app.clock())
      const updated = await trx
        .updateTable("users")
        .set({ google_uid: identity.uid, updated_at: now })
        .where("id", "=", user.id)
        .where("google_uid", "is", null)
        .returningAll()
        .executeTakeFirst()
      if (updated) {
        // A deleted account of this Google identity left its trial and its month's count: they come with the identity.
        await carryTraces(app, trx, updated)
        await queueMethodEmail(app, trx, updated, "google", "added")
        await auditSignInMethod(trx, { userId: user.id, ip, now }, "google", "added")
      }
      return updated
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw credentialAlreadyInUse()
    throw error
  }
  if (!linked) throw providerAlreadyLinked()
  return linked
}
