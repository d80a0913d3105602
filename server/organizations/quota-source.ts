/**
 * Which monthly quota a request draws from: the member's organisation's pool while its subscriber's Enterprise plan
 * lasts, else the caller's own plan. Removing a member ends their draw on the pool with their next request: nothing
 * is cached. A pool request is counted twice in one transaction: against the pool (with its limit, atomically) and
 * in the member's share of it, which the organisation page shows. It never touches the member's own plan's counter:
 * a member who leaves finds their own quota as they left it.
 */
import { monthKey, utcDayKey } from "~core/time"

import type { UserRow } from "../auth/users"
import { quotaExceeded, releaseRequest, reserveRequest, usedThisMonth, type Reservation } from "../analyze/quota"
import { monthlyLimitOf, planOf } from "../billing/plan"
import { countEvent, type DailyMetric } from "../admin/analytics/analytics-store"
import { inTransaction, type Db } from "../db/transaction"
import { ApiError } from "../http/errors"
import { countMemberShare, findPoolOf, givePoolRequestBack, poolUsed, takePoolRequest } from "./organization-store"

export type QuotaSource = { kind: "own"; limit: number | null } | { kind: "pool"; organizationId: string; name: string; limit: number | null }

/** Whether the subscriber's plan funds the organisation's pool now: while it is Enterprise, as every quota reads plans. */
export const fundsPool = (subscriber: Pick<UserRow, "plan_id" | "subscription_status">) => planOf(subscriber) === "enterprise"

export async function quotaSourceOf(db: Db, user: UserRow): Promise<QuotaSource> {
  const pool = await findPoolOf(db, user.id)
  if (pool && fundsPool(pool)) return { kind: "pool", organizationId: pool.id, name: pool.name, limit: pool.request_limit }
  return { kind: "own", limit: monthlyLimitOf(user) }
}

/** This month's use of the source: the pool's, or the caller's own. */
export function usedOf(db: Db, userId: string, source: QuotaSource, now: number): Promise<number> {
  return source.kind === "pool" ? poolUsed(db, source.organizationId, monthKey(now)) : usedThisMonth(db, userId, now)
}

/** QUOTA_EXCEEDED in the source's words: the pool's names the organisation. */
export function quotaExhausted(source: QuotaSource, now: number): ApiError {
  const refused = quotaExceeded(source.limit ?? 0, now)
  if (source.kind === "own") return refused
  const resets = refused.message.slice(refused.message.lastIndexOf(". ") + 2)
  return new ApiError(429, "QUOTA_EXCEEDED", `${source.name} has used all ${source.limit ?? 0} AI requests of its plan this month. ${resets}`, refused.extra)
}

/** What a counted request is, for the admin's analytics: a question or a translation. */
export type CountedRequest = Extract<DailyMetric, "questions" | "translations">

/**
 * Takes one request of the source, or throws QUOTA_EXCEEDED; `used` is the source's count with it. The day's
 * question or translation is counted in the same transaction: the analytics show exactly what the quotas counted.
 */
export async function reserveFrom(db: Db, userId: string, source: QuotaSource, now: number, kind: CountedRequest): Promise<Reservation & { day: string }> {
  const day = utcDayKey(now)
  return inTransaction(db, async (trx) => {
    const reservation = source.kind === "own" ? await reserveRequest(trx, userId, source.limit, now) : await takeFromPool(trx, userId, source, now)
    await countEvent(trx, kind, day)
    return { ...reservation, day }
  })
}

async function takeFromPool(trx: Db, userId: string, source: QuotaSource & { kind: "pool" }, now: number): Promise<Reservation> {
  const month = monthKey(now)
  const used = await takePoolRequest(trx, source.organizationId, month, source.limit)
  if (used === null) throw quotaExhausted(source, now)
  await countMemberShare(trx, source.organizationId, userId, month)
  return { month, used }
}

/** Gives a reserved request back (the provider billed nothing for it), and takes it off the day it was counted on. */
export async function releaseTo(db: Db, userId: string, source: QuotaSource, reservation: Reservation & { day: string }, kind: CountedRequest): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (source.kind === "own") await releaseRequest(trx, userId, reservation)
    else await givePoolRequestBack(trx, source.organizationId, userId, reservation.month)
    await countEvent(trx, kind, reservation.day, -1)
  })
}
