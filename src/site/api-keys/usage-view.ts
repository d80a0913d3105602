/**
 * How the dashboard shows the API's endpoints: names and colours shared by the chart (a chunk of its own, with
 * recharts) and the table (in the dashboard's chunk), so that the table never pulls recharts in. Days and figures are
 * written as everywhere on the site (~site/shared/daily-figures).
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

/** An endpoint's calls together: a day's, or the range's. */
export const callsIn = (counts: EndpointCalls) => counts.ocr + counts.faces + counts.objects + counts.ask + counts.translate
