/** The public API's answered calls (table api_calls): counted per key, UTC month and endpoint. */
import { sql } from "kysely"

import type { PublicApiEndpoint } from "~core/api-keys"

import type { Db } from "../db/transaction"

export async function countCall(db: Db, call: { keyId: string; userId: string; month: string; endpoint: PublicApiEndpoint }): Promise<void> {
  await db
    .insertInto("api_calls")
    .values({ key_id: call.keyId, user_id: call.userId, month: call.month, endpoint: call.endpoint, calls: 1 })
    .onConflict((conflict) => conflict.columns(["key_id", "month", "endpoint"]).doUpdateSet({ calls: sql`api_calls.calls + 1` }))
    .execute()
}

/** The account's calls of the month, per key and endpoint; keys since revoked included. */
export function callsOfMonth(db: Db, userId: string, month: string) {
  return db
    .selectFrom("api_calls")
    .innerJoin("api_keys", "api_keys.id", "api_calls.key_id")
    .select(["api_calls.key_id", "api_keys.prefix", "api_keys.name", "api_calls.endpoint", "api_calls.calls"])
    .where("api_calls.user_id", "=", userId)
    .where("api_calls.month", "=", month)
    .orderBy("api_keys.created_at")
    .execute()
}
