/** Counts and shares in words, the same on every page and in every message. */

/** "1 face", "3 faces". */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}

/**
 * "23 December 2026": a date as every page and e-mail writes it, read in UTC so that the site, the e-mails and the
 * quota's monthly reset name the same day.
 */
export function longDate(value: Date | string | number): string {
  return new Date(value).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })
}

/** A 0–1 score or fraction as a whole percentage: 0.923 → "92%". */
export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`
}
