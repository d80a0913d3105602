import type { Kysely, Selectable, Transaction } from "kysely"

import { getPlan } from "~core/billing/plans"
import type { SignInMethod } from "~core/auth-schemas"
import type { PublicUser, Role } from "~core/user"

import { planOf } from "../billing/plan"
import type { DatabaseSchema, UsersTable } from "../db/schema"
import { inTransaction, type Db as AnyDb } from "../db/transaction"

export type UserRow = Selectable<UsersTable>
type Db = Kysely<DatabaseSchema>

/** E-mail addresses compare without surrounding spaces and without case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function findUserByEmail(db: AnyDb, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst()
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
}

export interface NewUser {
  email: string
  name: string
  passwordHash: string
  role?: Role
  /** Set for an account whose address needs no verification mail (the admin from ADMIN_EMAIL). */
  emailVerifiedAt?: Date
}

/**
 * Creates a user who signs in with a password, and the first entry of its password history, in
 * one transaction, with whatever `within` adds to it (the verification e-mail). Undefined when the address is taken
 * (also by a registration racing this one).
 */
export async function insertUser(
  db: Db,
  user: NewUser,
  now: Date,
  within?: (trx: Transaction<DatabaseSchema>, created: UserRow) => Promise<void>
): Promise<UserRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto("users")
      .values({
        email: normaliseEmail(user.email),
        name: user.name,
        role: user.role,
        password_hash: user.passwordHash,
        email_verified_at: user.emailVerifiedAt ?? null,
        terms_accepted_at: now,
        created_at: now,
        updated_at: now
      })
      .onConflict((conflict) => conflict.column("email").doNothing())
      .returningAll()
      .executeTakeFirst()
    if (created) {
      await trx.insertInto("password_history").values({ user_id: created.id, password_hash: user.passwordHash, created_at: now }).execute()
      await within?.(trx, created)
    }
    return created
  })
}

/**
 * Creates an account its organisation's identity provider vouches for (single sign-on, provisioning): the address
 * proved by the provider, no password; the organisation agreed to the terms for its people. Undefined when the
 * address is taken (also by a racing sign-in).
 */
export function insertProvisionedUser(db: AnyDb, user: { email: string; name: string }, now: Date): Promise<UserRow | undefined> {
  return db
    .insertInto("users")
    .values({ email: normaliseEmail(user.email), name: user.name, password_hash: null, email_verified_at: now, terms_accepted_at: now, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column("email").doNothing())
    .returningAll()
    .executeTakeFirst()
}

/**
 * Replaces the password hash and keeps it in the history the recent-password rule reads; with `onlyIfNone`, only on an
 * account without a password. Answers the updated user, undefined when nothing was changed.
 */
export async function replacePasswordHash(db: AnyDb, userId: string, passwordHash: string, now: Date, { onlyIfNone = false } = {}): Promise<UserRow | undefined> {
  return inTransaction(db, async (trx) => {
    let update = trx.updateTable("users").set({ password_hash: passwordHash, updated_at: now }).where("id", "=", userId)
    if (onlyIfNone) update = update.where("password_hash", "is", null)
    const updated = await update.returningAll().executeTakeFirst()
    if (updated) await trx.insertInto("password_history").values({ user_id: userId, password_hash: passwordHash, created_at: now }).execute()
    return updated
  })
}

/** Records that the user proved the address; an address verified before keeps its first date. */
/** Takes Google or the password ("email") away from an account that keeps the other: none when that would leave no way in. */
export function removeSignInMethodRow(db: AnyDb, userId: string, method: SignInMethod, now: Date): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set(method === "google" ? { google_uid: null, updated_at: now } : { password_hash: null, updated_at: now })
    .where("id", "=", userId)
    .where("google_uid", "is not", null)
    .where("password_hash", "is not", null)
    .returningAll()
    .executeTakeFirst()
}

export function markEmailVerified(db: AnyDb, userId: string, now: Date): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set((eb) => ({ email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(now)), updated_at: now }))
    .where("id", "=", userId)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Records a sign-in of an enabled account and holds its row until the caller's transaction (the one opening the
 * session) ends; undefined for a disabled account. An admin disabling it at the same time waits for the session to be
 * made, then ends it; or goes first, and this finds the account disabled.
 */
export function markSignedIn(db: AnyDb, userId: string, now: Date): Promise<{ id: string } | undefined> {
  return db.updateTable("users").set({ last_sign_in_at: now }).where("id", "=", userId).where("disabled_at", "is", null).returning("id").executeTakeFirst()
}

/** Makes the user an admin with a verified address (the account of ADMIN_EMAIL). */
export async function makeVerifiedAdmin(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ role: "admin", email_verified_at: eb.fn.coalesce("email_verified_at", eb.val(now)) }))
    .where("id", "=", userId)
    .execute()
}

export function renameUser(db: AnyDb, userId: string, name: string, now: Date): Promise<UserRow | undefined> {
  return db.updateTable("users").set({ name, updated_at: now }).where("id", "=", userId).returningAll().executeTakeFirst()
}

/** Deletes the user; sessions, codes and password history go with it (foreign keys cascade). */
export async function deleteUser(db: AnyDb, userId: string): Promise<void> {
  await db.deleteFrom("users").where("id", "=", userId).execute()
}

export interface UserCounts {
  total: number
  admins: number
  verified: number
  /** Accounts created at or after `since`. */
  createdSince: number
}

export async function countUsers(db: Db, since: Date): Promise<UserCounts> {
  const row = await db
    .selectFrom("users")
    .select((eb) => [
      eb.fn.countAll<string>().as("total"),
      eb.fn.count<string>("id").filterWhere("role", "=", "admin").as("admins"),
      eb.fn.count<string>("id").filterWhere("email_verified_at", "is not", null).as("verified"),
      eb.fn.count<string>("id").filterWhere("created_at", ">=", since).as("recent")
    ])
    .executeTakeFirstOrThrow()
  return { total: Number(row.total), admins: Number(row.admins), verified: Number(row.verified), createdSince: Number(row.recent) }
}

/** The user as the API returns it: the shared user record plus id, verification state and creation time, never the password hash. */
export function toPublicUser(row: UserRow): PublicUser {
  const plan = getPlan(planOf(row))
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    provider: row.password_hash ? "email" : "google",
    ...(row.google_uid ? { providerId: row.google_uid } : {}),
    subscription: { plan: { id: plan.id, name: plan.name }, status: row.subscription_status },
    emailVerified: row.email_verified_at !== null,
    createdAt: row.created_at.toISOString()
  }
}
