/**
 * The monthly quota's counters: a person's own month (usage_counters) and an organisation's pool with each member's
 * share of it (organization_usage, organization_member_usage). Which one a request draws from, and what is said when
 * it is used up, is quota-service.ts.
 */
import { sql, type Kysely } from "kysely"

import { monthKey } from "~core/time"

import type { DatabaseSchema } from "../db/schema"
import type { Db as AnyDb } from "../db/transaction"

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

export interface Reservation {
  month: string
  /** The count including this request. */
  used: number
}

/**
 * Takes one request of the person's own month, or answers null when the limit is reached. One conditional upsert,
 * so parallel requests at the limit cannot both pass: the row lock makes the second wait and then see the first
 * one's count.
 */
export async function takeOwnRequest(db: Db, userId: string, limit: number | null, now: number): Promise<Reservation | null> {
  if (limit !== null && limit <= 0) return null
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
  return row ? { month, used: row.used } : null
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
export async function giveOwnRequestBack(db: Db, userId: string, reservation: Reservation): Promise<void> {
  await db
    .updateTable("usage_counters")
    .set({ used: sql<number>`greatest(used - 1, 0)` })
    .where("user_id", "=", userId)
    .where("month", "=", reservation.month)
    .execute()
}

export async function poolUsed(db: AnyDb, organizationId: string, month: string): Promise<number> {
  const row = await db.selectFrom("organization_usage").select("used").where("organization_id", "=", organizationId).where("month", "=", month).executeTakeFirst()
  return row?.used ?? 0
}

/**
 * One request of the pool's month, taken only while it stays within `limit` (null: unlimited), in one statement, so
 * that members asking at once on any instance never pass it together. Returns the count after, or null when full.
 */
export async function takePoolRequest(db: AnyDb, organizationId: string, month: string, limit: number | null): Promise<number | null> {
  if (limit !== null && limit <= 0) return null
  const row = await db
    .insertInto("organization_usage")
    .values({ organization_id: organizationId, month, used: 1 })
    .onConflict((conflict) => {
      const update = conflict.columns(["organization_id", "month"]).doUpdateSet({ used: sql<number>`organization_usage.used + 1` })
      return limit === null ? update : update.where("organization_usage.used", "<", limit)
    })
    .returning("used")
    .executeTakeFirst()
  return row?.used ?? null
}

/** A member's share of the pool's month, one more (no limit of its own: the pool's holds). */
export async function countMemberShare(db: AnyDb, organizationId: string, userId: string, month: string): Promise<void> {
  await db
    .insertInto("organization_member_usage")
    .values({ organization_id: organizationId, user_id: userId, month, used: 1 })
    .onConflict((conflict) => conflict.columns(["organization_id", "user_id", "month"]).doUpdateSet({ used: sql<number>`organization_member_usage.used + 1` }))
    .execute()
}

/** Gives a pool request back (the provider billed nothing): to the pool and to the member's share. */
export async function givePoolRequestBack(db: AnyDb, organizationId: string, userId: string, month: string): Promise<void> {
  await db.updateTable("organization_usage").set({ used: sql<number>`greatest(used - 1, 0)` }).where("organization_id", "=", organizationId).where("month", "=", month).execute()
  await db
    .updateTable("organization_member_usage")
    .set({ used: sql<number>`greatest(used - 1, 0)` })
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .where("month", "=", month)
    .execute()
}

/**
 * On every request that draws from a quota: the caller's organisation's pool with its subscriber's plan columns, in
 * one query (the subscriber's Enterprise plan keeps the pool open) and whether it asks for a second factor, or
 * undefined for someone in none.
 */
export function findPoolOf(db: AnyDb, userId: string) {
  return db
    .selectFrom("organization_members")
    .innerJoin("organizations", "organizations.id", "organization_members.organization_id")
    .innerJoin("users as subscriber", "subscriber.id", "organizations.subscriber_id")
    .select(["organizations.id", "organizations.name", "organizations.request_limit", "organizations.require_mfa", "subscriber.plan_id", "subscriber.subscription_status"])
    .where("organization_members.user_id", "=", userId)
    // A member their organisation suspended (SCIM) draws nothing from its pool.
    .where((eb) => eb.not(eb.exists(eb.selectFrom("scim_members").select("scim_members.user_id").whereRef("scim_members.user_id", "=", "organization_members.user_id").where("scim_members.suspended_at", "is not", null))))
    .executeTakeFirst()
}
