/** The public API's answered calls (table api_call_days): counted per key, UTC day and endpoint. */
import { sql } from "kysely"

import type { PublicApiEndpoint } from "~core/api-keys"
import { utcDayKey } from "~core/time"

import type { Db } from "../db/transaction"

/** The UTC day of an instant, as the table keeps it: "2026-11-27". */

/**
 * Counts one answered call on the UTC day of `at`. One upsert, which PostgreSQL applies atomically: calls of one key
 * answered at once, on any instance, each add their one.
 */
export async function countCall(db: Db, call: { keyId: string; userId: string; at: number; endpoint: PublicApiEndpoint }): Promise<void> {
  await db
    .insertInto("api_call_days")
    .values({ key_id: call.keyId, user_id: call.userId, day: utcDayKey(call.at), endpoint: call.endpoint, calls: 1 })
    .onConflict((conflict) => conflict.columns(["key_id", "day", "endpoint"]).doUpdateSet({ calls: sql`api_call_days.calls + 1` }))
    .execute()
}

/** The account's calls of the month ("2026-11"), per key and endpoint; keys since revoked included. */
export function callsOfMonth(db: Db, userId: string, month: string) {
  return (
    db
      .selectFrom("api_call_days")
      .innerJoin("api_keys", "api_keys.id", "api_call_days.key_id")
      .select(["api_call_days.key_id", "api_keys.prefix", "api_keys.name", "api_call_days.endpoint"])
      // sum() of integers is a bigint, which the driver gives as a string; a month of one key fits an integer.
      .select(sql<number>`sum(api_call_days.calls)::integer`.as("calls"))
      .where("api_call_days.user_id", "=", userId)
      // Days are fixed-width text: the month's days sort between its first and a day 31.
      .where("api_call_days.day", ">=", `${month}-01`)
      .where("api_call_days.day", "<=", `${month}-31`)
      .groupBy(["api_call_days.key_id", "api_keys.prefix", "api_keys.name", "api_keys.created_at", "api_call_days.endpoint"])
      .orderBy("api_keys.created_at")
      .orderBy("api_call_days.key_id")
      .execute()
  )
}

/** The account's calls per day and endpoint from `firstDay` to `lastDay` included, all its keys together; days without calls are absent. */
export function callsPerDay(db: Db, userId: string, firstDay: string, lastDay: string) {
  return db
    .selectFrom("api_call_days")
    .select(["day", "endpoint"])
    .select(sql<number>`sum(calls)::integer`.as("calls"))
    .where("user_id", "=", userId)
    .where("day", ">=", firstDay)
    .where("day", "<=", lastDay)
    .groupBy(["day", "endpoint"])
    .orderBy("day")
    .execute()
}
