import type { OneTimeCodePurpose } from "../db/schema"
import { inTransaction, type Db } from "../db/transaction"
import { hashToken, randomToken } from "./tokens"

/**
 * How many unused codes of one purpose stay valid at once. More than one, so someone asking for
 * links to another person's address cannot void the link that person is about to follow; every
 * link goes to the address's own inbox, so the newest ones are always in the owner's hands.
 */
export const VALID_CODES_PER_PURPOSE = 3

/** Issues a code for one use; of the earlier unused codes of the same purpose only the newest stay valid. */
export async function issueCode(db: Db, userId: string, purpose: OneTimeCodePurpose, lifetimeMs: number, now: number): Promise<string> {
  const code = randomToken()
  const codeHash = hashToken(code)
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("one_time_codes")
      .values({ code_hash: codeHash, user_id: userId, purpose, created_at: new Date(now), expires_at: new Date(now + lifetimeMs) })
      .execute()
    const kept = await trx
      .selectFrom("one_time_codes")
      .select("code_hash")
      .where("user_id", "=", userId)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .where("code_hash", "!=", codeHash)
      .orderBy("created_at", "desc")
      .limit(VALID_CODES_PER_PURPOSE - 1)
      .execute()
    await trx
      .updateTable("one_time_codes")
      .set({ used_at: new Date(now) })
      .where("user_id", "=", userId)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .where("code_hash", "not in", [codeHash, ...kept.map((row) => row.code_hash)])
      .execute()
  })
  return code
}

/** The user of a code that is still usable, without spending it (to check input before consuming). */
export async function findUsableCode(db: Db, code: string, purpose: OneTimeCodePurpose, now: number): Promise<string | null> {
  const row = await db
    .selectFrom("one_time_codes")
    .select(["user_id", "used_at", "expires_at"])
    .where("code_hash", "=", hashToken(code))
    .where("purpose", "=", purpose)
    .executeTakeFirst()
  return row && !row.used_at && row.expires_at.getTime() > now ? row.user_id : null
}

export type ConsumedCode = { ok: true; userId: string } | { ok: false; reason: "unknown" | "used" | "expired" }

/** Marks a code and its unused siblings of the same purpose used and returns its user; a code works once and only before it expires. */
export async function consumeCode(db: Db, code: string, purpose: OneTimeCodePurpose, now: number): Promise<ConsumedCode> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("one_time_codes")
      .selectAll()
      .where("code_hash", "=", hashToken(code))
      .where("purpose", "=", purpose)
      .forUpdate()
      .executeTakeFirst()
    if (!row) return { ok: false as const, reason: "unknown" as const }
    if (row.used_at) return { ok: false as const, reason: "used" as const }
    if (row.expires_at.getTime() <= now) return { ok: false as const, reason: "expired" as const }
    // The code used ends its siblings: after a reset no other reset link of the account works.
    await trx
      .updateTable("one_time_codes")
      .set({ used_at: new Date(now) })
      .where("user_id", "=", row.user_id)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .execute()
    return { ok: true as const, userId: row.user_id }
  })
}
