/** An analytics chart's figures as a table: one row a day, newest first, a column per figure, and the range's totals. */
import type { AnalyticsDay } from "~core/admin/admin-analytics"
import { DailyFiguresTable } from "~site/shared/DailyFiguresTable"

import { metricLabel, totalOf, type ChartGroup } from "./analytics-view"

export function AnalyticsTable({ days, group }: { days: readonly AnalyticsDay[]; group: ChartGroup }) {
  return (
    <DailyFiguresTable
      caption={group.title}
      days={days}
      dateOf={(day) => day.date}
      figures={group.metrics.map((metric) => ({ label: metricLabel(metric), of: (day: AnalyticsDay) => day[metric], total: totalOf(days, metric) }))}
      totalLabel={group.metrics.includes("activeUsers") ? "Total (active users: busiest day)" : "Total"}
    />
  )
}
