/** The queries of two-step sign-in: the authenticator app, the recovery codes, the sign-ins waiting for a code. */
import { sql } from "kysely"

import type { Db } from "../../db/transaction"

export function findAuthenticator(db: Db, userId: string) {
  return db.selectFrom("totp_factors").selectAll().where("user_id", "=", userId).executeTakeFirst()
}

export async function hasEnabledAuthenticator(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("totp_factors").select("user_id").where("user_id", "=", userId).where("enabled_at", "is not", null).executeTakeFirst()
  return row !== undefined
}

/** An enabled authenticator app, or a passkey (user verification required: both factors on its own). */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("id", "=", userId)
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom("totp_factors").select("user_id").where("user_id", "=", userId).where("enabled_at", "is not", null)),
        eb.exists(eb.selectFrom("passkeys").select("user_id").where("user_id", "=", userId))
      ])
    )
    .executeTakeFirst()
  return row !== undefined
}

/** A new secret awaiting its first code; false when the account's app is already enabled (nothing changed). */
export async function saveUnconfirmedSecret(db: Db, userId: string, secretSealed: string, now: Date): Promise<boolean> {
  const row = await db
    .insertInto("totp_factors")
    .values({ user_id: userId, secret_sealed: secretSealed, enabled_at: null, created_at: now })
    .onConflict((conflict) =>
      conflict
        .column("user_id")
        .doUpdateSet({ secret_sealed: secretSealed, created_at: now, last_step: null })
        .where("totp_factors.enabled_at", "is", null)
    )
    .returning("user_id")
    .executeTakeFirst()
  return row !== undefined
}

/** Enables the app with the step of its first code; false when it was enabled meanwhile. */
export async function enableAuthenticator(db: Db, userId: string, step: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("totp_factors")
    .set({ enabled_at: now, last_step: step })
    .where("user_id", "=", userId)
    .where("enabled_at", "is", null)
    .returning("user_id")
    .executeTakeFirst()
  return row !== undefined
}

/** Takes the step of a code for the enabled app, once: a step already used, or an earlier one, is refused. */
export async function acceptStep(db: Db, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable("totp_factors")
    .set({ last_step: step })
    .where("user_id", "=", userId)
    .where("enabled_at", "is not", null)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
    .returning("user_id")
    .executeTakeFirst()
  return row !== undefined
}

export async function removeSecondFactor(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute()
  await db.deleteFrom("totp_factors").where("user_id", "=", userId).execute()
}

export async function replaceRecoveryCodes(db: Db, userId: string, hashes: readonly string[]): Promise<void> {
  await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute()
  await db
    .insertInto("recovery_codes")
    .values(hashes.map((code_hash) => ({ code_hash, user_id: userId })))
    .execute()
}

/** Uses a recovery code once (`hashes`: the code's under each key); false when it is not the account's or was used. */
export async function useRecoveryCode(db: Db, userId: string, hashes: readonly string[], now: Date): Promise<boolean> {
  const row = await db
    .updateTable("recovery_codes")
    .set({ used_at: now })
    .where("code_hash", "in", hashes)
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .returning("code_hash")
    .executeTakeFirst()
  return row !== undefined
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string | number>().as("left"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow()
  return Number(row.left)
}

/** A sign-in waiting for its second step; those that expired unanswered go at the same time. */
export async function createChallenge(db: Db, tokenHash: string, userId: string, expiresAt: Date, now: Date): Promise<void> {
  await db.deleteFrom("mfa_challenges").where("expires_at", "<=", now).execute()
  await db.insertInto("mfa_challenges").values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt }).execute()
}

/** The sign-in waiting for its second step, while it lives. */
export function findChallenge(db: Db, tokenHash: string, now: Date) {
  return db.selectFrom("mfa_challenges").selectAll().where("token_hash", "=", tokenHash).where("expires_at", ">", now).executeTakeFirst()
}

/** Counts a wrong code; the one that reaches `max` ends the sign-in. Answers the count, or null when it had ended. */
export async function countWrongCode(db: Db, tokenHash: string, max: number): Promise<number | null> {
  const row = await db
    .updateTable("mfa_challenges")
    .set({ wrong_codes: sql<number>`wrong_codes + 1` })
    .where("token_hash", "=", tokenHash)
    .returning("wrong_codes")
    .executeTakeFirst()
  if (row && row.wrong_codes >= max) await db.deleteFrom("mfa_challenges").where("token_hash", "=", tokenHash).execute()
  return row?.wrong_codes ?? null
}

/** Ends the sign-in's second step once: false when another request ended it first. */
export async function consumeChallenge(db: Db, tokenHash: string): Promise<boolean> {
  const row = await db.deleteFrom("mfa_challenges").where("token_hash", "=", tokenHash).returning("token_hash").executeTakeFirst()
  return row !== undefined
}
