/**
 * The recorded events the admin's analytics read (tables of migration 017, and api_call_days of 013): each counter is
 * raised in the transaction of the thing it counts, so a count exists exactly when its event does.
 */
import { sql } from "kysely"

import type { DailyMetricsTable } from "../../db/schema"
import type { Db } from "../../db/transaction"

export type DailyMetric = DailyMetricsTable["metric"]


/**
 * Adds `by` (1, or -1 for a request given back) to a day's metric. One upsert: parallel requests on any instance
 * wait on the row and each adds its own, never overwriting another's count; a count never goes below zero.
 */
export async function countEvent(db: Db, metric: DailyMetric, day: string, by: 1 | -1 = 1): Promise<void> {
  await db
    .insertInto("daily_metrics")
    .values({ day, metric, count: Math.max(by, 0) })
    .onConflict((conflict) => conflict.columns(["day", "metric"]).doUpdateSet({ count: sql<number>`greatest(daily_metrics.count + ${by}, 0)` }))
    .execute()
}

/** Marks the account active on the day; a second mark of the same day changes nothing. */
export async function markActive(db: Db, userId: string, day: string): Promise<void> {
  await db
    .insertInto("active_user_days")
    .values({ day, user_id: userId })
    .onConflict((conflict) => conflict.columns(["day", "user_id"]).doNothing())
    .execute()
}

export interface DayFigures {
  day: string
  questions: number
  translations: number
  apiCalls: number
  signUps: number
  activeUsers: number
  feedback: number
}

/** The recorded figures of the days from `first` to `last` (inclusive) that have any; days without events are absent. */
export async function figuresBetween(db: Db, first: string, last: string): Promise<DayFigures[]> {
  const [metrics, calls, active] = await Promise.all([
    db.selectFrom("daily_metrics").select(["day", "metric", "count"]).where("day", ">=", first).where("day", "<=", last).execute(),
    db
      .selectFrom("api_call_days")
      .select(["day", (eb) => eb.fn.sum<string>("calls").as("calls")])
      .where("day", ">=", first)
      .where("day", "<=", last)
      .groupBy("day")
      .execute(),
    db
      .selectFrom("active_user_days")
      .select(["day", (eb) => eb.fn.countAll<string>().as("users")])
      .where("day", ">=", first)
      .where("day", "<=", last)
      .groupBy("day")
      .execute()
  ])
  const days = new Map<string, DayFigures>()
  const of = (day: string) => {
    let figures = days.get(day)
    if (!figures) days.set(day, (figures = { day, questions: 0, translations: 0, apiCalls: 0, signUps: 0, activeUsers: 0, feedback: 0 }))
    return figures
  }
  for (const row of metrics) of(row.day)[row.metric] = row.count
  // Sums and counts come back as text on PostgreSQL (bigint).
  for (const row of calls) of(row.day).apiCalls = Number(row.calls)
  for (const row of active) of(row.day).activeUsers = Number(row.users)
  return [...days.values()]
}
