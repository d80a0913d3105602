/** The queries of personal API keys (table api_keys). */
import type { UserRow } from "../auth/user-store"
import type { Db } from "../db/transaction"

export interface ApiKeyRow {
  id: string
  user_id: string
  name: string
  prefix: string
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

const COLUMNS = ["id", "user_id", "name", "prefix", "created_at", "last_used_at", "revoked_at"] as const

/**
 * Locks the account's row until the transaction ends: keys are counted and added one request at a time per account,
 * on every instance, so a burst never passes the limit.
 */
export async function lockAccountForKeys(db: Db, userId: string): Promise<void> {
  await db.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute()
}

export async function countActiveKeys(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom("api_keys").select((eb) => eb.fn.countAll<string>().as("count")).where("user_id", "=", userId).where("revoked_at", "is", null).executeTakeFirstOrThrow()
  return Number(row.count)
}

export function insertKey(db: Db, key: { userId: string; name: string; prefix: string; keyHash: string; createdAt: Date }): Promise<ApiKeyRow> {
  return db
    .insertInto("api_keys")
    .values({ user_id: key.userId, name: key.name, prefix: key.prefix, key_hash: key.keyHash, created_at: key.createdAt })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

/** The account's keys that still work, newest first. */
export function activeKeysOf(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom("api_keys").select(COLUMNS).where("user_id", "=", userId).where("revoked_at", "is", null).orderBy("created_at", "desc").orderBy("id").execute()
}

/** Revokes one of the account's keys; undefined when it has no such key still active. */
export function revokeKey(db: Db, userId: string, id: string, now: Date): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable("api_keys")
    .set({ revoked_at: now })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .returning(COLUMNS)
    .executeTakeFirst()
}

/** The active key with this hash and its owner, in one query: every call of the public API asks it. */
export async function findActiveKeyWithOwner(db: Db, keyHash: string): Promise<{ key: ApiKeyRow; owner: UserRow } | undefined> {
  const row = await db
    .selectFrom("api_keys")
    .innerJoin("users", "users.id", "api_keys.user_id")
    .selectAll("users")
    .select([
      "api_keys.id as key_id",
      "api_keys.name as key_name",
      "api_keys.prefix as key_prefix",
      "api_keys.created_at as key_created_at",
      "api_keys.last_used_at as key_last_used_at",
      "api_keys.revoked_at as key_revoked_at"
    ])
    .where("api_keys.key_hash", "=", keyHash)
    .where("api_keys.revoked_at", "is", null)
    .executeTakeFirst()
  if (!row) return undefined
  const { key_id, key_name, key_prefix, key_created_at, key_last_used_at, key_revoked_at, ...owner } = row
  return {
    key: { id: key_id, user_id: owner.id, name: key_name, prefix: key_prefix, created_at: key_created_at, last_used_at: key_last_used_at, revoked_at: key_revoked_at },
    owner
  }
}

/** How stale a key's last use may be shown: a busy key is not written on every call. */
export const KEY_USE_RESOLUTION_MS = 60_000

/** Notes a key's use, at most once per KEY_USE_RESOLUTION_MS (another instance may have just noted it). */
export async function touchKey(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable("api_keys")
    .set({ last_used_at: now })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", new Date(now.getTime() - KEY_USE_RESOLUTION_MS))]))
    .execute()
}
