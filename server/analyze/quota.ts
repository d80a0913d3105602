import { sql, type Kysely } from "kysely"

import { longDate } from "~core/format"
import type { VqaUsage } from "~core/analysis/vqa"
import { monthKey, nextMonthStart } from "~core/time"

import type { DatabaseSchema } from "../db/schema"
import type { Db as AnyDb } from "../db/transaction"
import { ApiError } from "../http/errors"

type Db = Kysely<DatabaseSchema>

export async function usedThisMonth(db: AnyDb, userId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom("usage_counters")
    .select("used")
    .where("user_id", "=", userId)
    .where("month", "=", monthKey(now))
    .executeTakeFirst()
  return row?.used ?? 0
}

export function usageSummary(used: number, limit: number | null, now: number): VqaUsage {
  return { used, limit, resetsAt: new Date(nextMonthStart(now)).toISOString() }
}

export function quotaExceeded(limit: number, now: number): ApiError {
  const resetsAt = nextMonthStart(now)
  const day = longDate(resetsAt)
  const message =
    limit === 0
      ? `Your plan includes no AI requests. It resets on ${day} (UTC).`
      : `You have used all ${limit} AI requests of your plan this month. Your quota resets on ${day} (UTC).`
  return new ApiError(429, "QUOTA_EXCEEDED", message, { retryAfter: Math.max(1, Math.ceil((resetsAt - now) / 1000)) })
}

export interface Reservation {
  month: string
  /** The count including this request. */
  used: number
}

/**
 * Takes one request of this month's quota, or throws QUOTA_EXCEEDED. One conditional upsert, so
 * parallel requests at the limit cannot both pass: the row lock makes the second wait and then
 * see the first one's count.
 */
export async function reserveRequest(db: Db, userId: string, limit: number | null, now: number): Promise<Reservation> {
  if (limit !== null && limit <= 0) throw quotaExceeded(limit, now)
  const month = monthKey(now)
  const at = new Date(now)
  const row = await db
    .insertInto("usage_counters")
    .values({ user_id: userId, month, used: 1, updated_at: at })
    .onConflict((conflict) => {
      const update = conflict.columns(["user_id", "month"]).doUpdateSet({ used: sql<number>`usage_counters.used + 1`, updated_at: at })
      return limit === null ? update : update.where("usage_counters.used", "<", limit)
    })
    .returning("used")
    .executeTakeFirst()
  if (!row) throw quotaExceeded(limit ?? 0, now)
  return { month, used: row.used }
}

/** Makes the count of `month` at least `used` (a deleted account's count carried to its next one). */
export async function raiseUsage(db: AnyDb, userId: string, month: string, used: number, now: Date): Promise<void> {
  await db
    .insertInto("usage_counters")
    .values({ user_id: userId, month, used, updated_at: now })
    .onConflict((conflict) => conflict.columns(["user_id", "month"]).doUpdateSet({ used: sql<number>`greatest(usage_counters.used, excluded.used)`, updated_at: now }))
    .execute()
}

/** Gives a reserved request back (the provider failed): it does not count. */
export async function releaseRequest(db: Db, userId: string, reservation: Reservation): Promise<void> {
  await db
    .updateTable("usage_counters")
    .set({ used: sql<number>`greatest(used - 1, 0)` })
    .where("user_id", "=", userId)
    .where("month", "=", reservation.month)
    .execute()
}
