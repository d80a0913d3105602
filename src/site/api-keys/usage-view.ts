/**
 * How the dashboard shows the API's endpoints and days: names, colours and dates shared by the chart (a chunk of its
 * own, with recharts) and the table (in the dashboard's chunk), so that the table never pulls recharts in.
 */
import type { EndpointCalls, PublicApiEndpoint } from "~core/api-keys"

export const ENDPOINT_LABELS: Record<PublicApiEndpoint, string> = { ocr: "OCR", faces: "Faces", objects: "Objects", ask: "Ask", translate: "Translate" }

/** Tailwind's 600 shades: at least 3:1 against white, as a chart's bars need, and apart from one another. */
export const ENDPOINT_COLOURS: Record<PublicApiEndpoint, string> = {
  ocr: "#2563eb",
  faces: "#d97706",
  objects: "#059669",
  ask: "#7c3aed",
  translate: "#db2777"
}

/** A UTC day ("2026-11-27") as the axis writes it: "27 Nov". Read in UTC, the server's days. */
export const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" })

/** A UTC day as the table and the tooltip write it: "Fri 27 Nov". */
export const dayWithWeekday = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" })

/** A count as the site writes figures: "12,480". */
export const figure = (count: number) => count.toLocaleString("en-GB")

export const callsIn = (counts: EndpointCalls) => counts.ocr + counts.faces + counts.objects + counts.ask + counts.translate
