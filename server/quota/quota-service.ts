/**
 * Which monthly quota a request draws from: the member's organisation's pool while its subscriber's Enterprise plan
 * lasts, else the caller's own plan. Removing a member ends their draw on the pool with their next request: nothing
 * is cached. A pool request is counted twice in one transaction: against the pool (with its limit, atomically) and
 * in the member's share of it, which the organisation page shows. It never touches the member's own plan's counter:
 * a member who leaves finds their own quota as they left it. An organisation whose owner requires two-step sign-in
 * gives nothing of its pool to a member without a second factor: such a request is refused before anything is counted.
 */
import type { VqaUsage } from "~core/analysis/vqa"
import { longDate } from "~core/format"
import { monthKey, nextMonthStart, utcDayKey } from "~core/time"

import { countEvent, type DailyMetric } from "../admin/analytics/analytics-store"
import { hasSecondFactor } from "../auth/mfa/mfa-service"
import type { UserRow } from "../auth/user-store"
import { fundsPool, monthlyLimitOf } from "../billing/plan"
import { inTransaction, type Db } from "../db/transaction"
import { ApiError } from "../http/errors"
import { queueUsageThresholds, type WebhookQueue } from "../webhooks/webhook-events"
import { countMemberShare, findPoolOf, giveOwnRequestBack, givePoolRequestBack, poolUsed, takeOwnRequest, takePoolRequest, usedThisMonth, type Reservation } from "./quota-store"

export type QuotaSource =
  | { kind: "own"; limit: number | null }
  /** requireMfa: the owner requires a second factor of every member, themself included, to draw from it. */
  | { kind: "pool"; organizationId: string; name: string; limit: number | null; requireMfa: boolean }

export async function quotaSourceOf(db: Db, user: UserRow): Promise<QuotaSource> {
  const pool = await findPoolOf(db, user.id)
  if (pool && fundsPool(pool)) return { kind: "pool", organizationId: pool.id, name: pool.name, limit: pool.request_limit, requireMfa: pool.require_mfa }
  return { kind: "own", limit: monthlyLimitOf(user) }
}

/** This month's use of an organisation's pool, whoever asks (its page, the admin's). */
export function poolUsedThisMonth(db: Db, organizationId: string, now: number): Promise<number> {
  return poolUsed(db, organizationId, monthKey(now))
}

/** This month's use of the source: the pool's, or the caller's own. */
export function usedOf(db: Db, userId: string, source: QuotaSource, now: number): Promise<number> {
  return source.kind === "pool" ? poolUsedThisMonth(db, source.organizationId, now) : usedThisMonth(db, userId, now)
}

/** The month's use and limit as the usage endpoints answer them, with when the count starts again. */
export function usageSummary(used: number, limit: number | null, now: number): VqaUsage {
  return { used, limit, resetsAt: new Date(nextMonthStart(now)).toISOString() }
}

/** QUOTA_EXCEEDED in the source's words (a pool's names the organisation), with when the quota resets. */
export function quotaExhausted(source: QuotaSource, now: number): ApiError {
  const resetsAt = nextMonthStart(now)
  const limit = source.limit ?? 0
  const spent =
    source.kind === "pool"
      ? `${source.name} has used all ${limit} AI requests of its plan this month.`
      : limit === 0
        ? "Your plan includes no AI requests."
        : `You have used all ${limit} AI requests of your plan this month.`
  const resets = source.kind === "own" && limit === 0 ? "It resets" : "Your quota resets"
  const message = `${spent} ${resets} on ${longDate(resetsAt)} (UTC).`
  return new ApiError(429, "QUOTA_EXCEEDED", message, { retryAfter: Math.max(1, Math.ceil((resetsAt - now) / 1000)) })
}

/** What a member without a second factor is told by an organisation that requires one: its name, and what to do. */
export const poolMfaRequiredMessage = (organizationName: string) => `${organizationName} requires two-step sign-in. Turn it on in your dashboard to use the team's plan.`

/**
 * 403 MFA_ENROLLMENT_REQUIRED when the source is a pool that requires two-step sign-in and `userId` has no second
 * factor. A member is not sent to their own plan instead: the team's plan is what they asked with, and the owner's
 * rule is that it is used with a second factor.
 */
export async function refuseWithoutRequiredFactor(db: Db, userId: string, source: QuotaSource): Promise<void> {
  if (source.kind !== "pool" || !source.requireMfa) return
  if (await hasSecondFactor(db, userId)) return
  throw new ApiError(403, "MFA_ENROLLMENT_REQUIRED", poolMfaRequiredMessage(source.name))
}

/** What a counted request is, for the admin's analytics: a question or a translation. */
export type CountedRequest = Extract<DailyMetric, "questions" | "translations">

/**
 * Takes one request of the source, or throws QUOTA_EXCEEDED (or MFA_ENROLLMENT_REQUIRED: every draw on a pool passes
 * here, so none escapes the organisation's rule); `used` is the source's count with it. The day's question or
 * translation is counted in the same transaction: the analytics show exactly what the quotas counted, and so is the
 * usage.threshold webhook of the request that reaches 80 % or 100 % of the month's limit.
 */
export async function reserveFrom(db: Db, userId: string, source: QuotaSource, now: number, kind: CountedRequest, webhooks: WebhookQueue): Promise<Reservation & { day: string }> {
  await refuseWithoutRequiredFactor(db, userId, source)
  const day = utcDayKey(now)
  return inTransaction(db, async (trx) => {
    const reservation = source.kind === "own" ? await takeOwn(trx, userId, source, now) : await takeFromPool(trx, userId, source, now)
    await countEvent(trx, kind, day)
    const owner = source.kind === "own" ? { kind: "user" as const, id: userId } : { kind: "organization" as const, id: source.organizationId }
    await queueUsageThresholds(webhooks, trx, owner, { used: reservation.used, limit: source.limit, month: reservation.month })
    return { ...reservation, day }
  })
}

async function takeOwn(trx: Db, userId: string, source: QuotaSource & { kind: "own" }, now: number): Promise<Reservation> {
  const reservation = await takeOwnRequest(trx, userId, source.limit, now)
  if (!reservation) throw quotaExhausted(source, now)
  return reservation
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
    if (source.kind === "own") await giveOwnRequestBack(trx, userId, reservation)
    else await givePoolRequestBack(trx, source.organizationId, userId, reservation.month)
    await countEvent(trx, kind, reservation.day, -1)
  })
}
