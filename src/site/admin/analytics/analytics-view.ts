/**
 * How the analytics page groups and draws its figures: the charts, their series' names and colours, shared by the
 * charts (a chunk of their own, with recharts) and the tables (in the page's chunk), so a table never pulls recharts in.
 */
import { ANALYTICS_METRIC_LABELS, type AnalyticsDay, type AnalyticsMetric } from "~core/admin/admin-analytics"

export interface ChartGroup {
  id: string
  title: string
  metrics: readonly AnalyticsMetric[]
}

/** The page's three charts: the product's use, the accounts, and what users write to us. */
export const CHART_GROUPS: readonly ChartGroup[] = [
  { id: "usage", title: "Questions, translations and API calls per day", metrics: ["questions", "translations", "apiCalls"] },
  { id: "accounts", title: "Sign-ups and active users per day", metrics: ["signUps", "activeUsers"] },
  { id: "feedback", title: "Feedback received per day", metrics: ["feedback"] }
]

export const metricLabel = (metric: AnalyticsMetric) => ANALYTICS_METRIC_LABELS[metric]

/** Tailwind's 600 shades: at least 3:1 against white, as a chart's lines need, and apart from one another. */
export const METRIC_COLOURS: Record<AnalyticsMetric, string> = {
  questions: "#2563eb",
  translations: "#db2777",
  apiCalls: "#059669",
  signUps: "#7c3aed",
  activeUsers: "#d97706",
  feedback: "#0891b2"
}

/**
 * A figure over the whole range: the sum of its days, but for active users their busiest day, since the same people
 * are active on many days and a sum would count them again each time.
 */
export const totalOf = (days: readonly AnalyticsDay[], metric: AnalyticsMetric) =>
  metric === "activeUsers" ? Math.max(0, ...days.map((day) => day.activeUsers)) : days.reduce((sum, day) => sum + day[metric], 0)

/** What totalOf is, in words, beside the figure's name. */
export const totalLabel = (metric: AnalyticsMetric) => (metric === "activeUsers" ? `${metricLabel(metric)} (busiest day)` : metricLabel(metric))
