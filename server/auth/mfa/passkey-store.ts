/** The queries of passkeys: an account's WebAuthn credentials and the challenges handed out for them. */
import { sql } from "kysely"

import type { Db } from "../../db/transaction"

export type ChallengePurpose = "registration" | "authentication"

export function listPasskeys(db: Db, userId: string) {
  return db.selectFrom("passkeys").selectAll().where("user_id", "=", userId).orderBy("created_at").execute()
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("passkeys")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export function findPasskeyByCredential(db: Db, credentialId: string) {
  return db.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst()
}

export interface NewPasskey {
  userId: string
  credentialId: string
  publicKey: string
  counter: number
  transports: readonly string[]
  name: string
}

/** Saves a credential; null when the same credential is registered already (to this account or another). */
export async function insertPasskey(db: Db, passkey: NewPasskey, now: Date) {
  const row = await db
    .insertInto("passkeys")
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: sql<string[]>`${passkey.transports}::text[]`,
      name: passkey.name,
      created_at: now
    })
    .onConflict((conflict) => conflict.column("credential_id").doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

/** Removes one of the account's passkeys; its row, or undefined when the account has no such passkey. */
export function deletePasskey(db: Db, userId: string, id: string) {
  return db.deleteFrom("passkeys").where("id", "=", id).where("user_id", "=", userId).returning(["id", "name"]).executeTakeFirst()
}

/**
 * Records a sign-in with the counter the authenticator signed: only over the counter read before it, so that of two
 * answers signed with the same counter one wins. False when another sign-in moved the counter first.
 */
export async function recordPasskeyUse(db: Db, id: string, readCounter: number, newCounter: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable("passkeys")
    .set({ counter: newCounter, last_used_at: now })
    .where("id", "=", id)
    .where("counter", "=", readCounter)
    .returning("id")
    .executeTakeFirst()
  return row !== undefined
}

/** A challenge to answer within its lifetime; those that expired unanswered go at the same time. */
export async function saveChallenge(db: Db, challenge: string, purpose: ChallengePurpose, userId: string | null, expiresAt: Date, now: Date): Promise<void> {
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<=", now).execute()
  await db.insertInto("webauthn_challenges").values({ challenge, purpose, user_id: userId, expires_at: expiresAt }).execute()
}

/** Takes a live challenge once: the row, or undefined when it is unknown, expired, for another use, or was taken. */
export function takeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, now: Date) {
  return db
    .deleteFrom("webauthn_challenges")
    .where("challenge", "=", challenge)
    .where("purpose", "=", purpose)
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst()
}
