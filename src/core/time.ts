/**
 * Time, named once for the whole code base: the units durations are written in (milliseconds unless a name says
 * seconds), and the clock that code which reads the time takes, so that tests can move it.
 */

export const SECOND_MS = 1000
export const MINUTE_MS = 60 * SECOND_MS
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS

/** The current time in milliseconds since the epoch: Date.now, or a test's. */
export type Clock = () => number

/** The UTC day of an instant as the database keeps days: "2026-11-27" (API calls per day, the daily figures). */
export const utcDayKey = (at: number | Date): string => new Date(at).toISOString().slice(0, 10)

/** The last `days` UTC days up to the one of `now`, oldest first, as utcDayKey writes them. */
export const lastUtcDays = (now: number, days: number): string[] => Array.from({ length: days }, (_, index) => utcDayKey(now - (days - 1 - index) * DAY_MS))

/** The UTC calendar month of an instant, as stored: "2026-11". */
export function monthKey(now: number): string {
  const date = new Date(now)
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`
}

/** The first instant of the next UTC month, when the count starts again. */
export function nextMonthStart(now: number): number {
  const date = new Date(now)
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
}
