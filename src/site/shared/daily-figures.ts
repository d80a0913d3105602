/**
 * How the site writes days and figures wherever it shows counts per day (the dashboard's API usage, the admin's
 * analytics): shared by the charts (chunks of their own, with recharts) and the tables, so a table never pulls
 * recharts in.
 */

/** A UTC day ("2026-11-27") as an axis writes it: "27 Nov". Read in UTC, the server's days. */
export const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" })

/** A UTC day as a table and a tooltip write it: "Fri 27 Nov". */
export const dayWithWeekday = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" })

/** A count as the site writes figures: "12,480". */
export const figure = (count: number) => count.toLocaleString("en-GB")
