/**
 * One analytics chart: a line per figure over the range's days, with a legend of the range's totals. Its own chunk
 * (React.lazy in AnalyticsPage.tsx): recharts is loaded when an admin opens the page, never with the rest of the site.
 */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts"

import type { AnalyticsDay } from "~core/admin/admin-analytics"
import { dayWithWeekday, figure, shortDay } from "~site/shared/daily-figures"

import { METRIC_COLOURS, metricLabel, totalLabel, totalOf, type ChartGroup } from "./analytics-view"

/** Tailwind's gray-600 and gray-200, as the site writes small print and draws rules. */
const TEXT = "#4b5563"
const RULE = "#e5e7eb"

export default function AnalyticsChart({ days, group, labelledBy }: { days: readonly AnalyticsDay[]; group: ChartGroup; labelledBy: string }) {
  const summary = `From ${dayWithWeekday(days[0]!.date)} to ${dayWithWeekday(days.at(-1)!.date)}: ${group.metrics.map((metric) => `${totalLabel(metric)} ${figure(totalOf(days, metric))}`).join(", ")}.`
  return (
    <figure aria-labelledby={labelledBy} className="space-y-3">
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={[...days]} title={group.title} desc={summary} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke={RULE} />
            <XAxis dataKey="date" tickFormatter={shortDay} tick={{ fontSize: 12, fill: TEXT }} tickLine={false} axisLine={{ stroke: RULE }} interval="preserveStartEnd" minTickGap={24} />
            <YAxis allowDecimals={false} width="auto" tickFormatter={figure} tick={{ fontSize: 12, fill: TEXT }} tickLine={false} axisLine={false} />
            <Tooltip labelFormatter={(day) => dayWithWeekday(String(day))} formatter={(value) => figure(Number(value))} separator=": " wrapperStyle={{ fontSize: 12 }} />
            {group.metrics.map((metric) => (
              <Line key={metric} type="linear" dataKey={metric} name={metricLabel(metric)} stroke={METRIC_COLOURS[metric]} strokeWidth={2} dot={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul aria-label="Legend: totals in the range" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-700">
        {group.metrics.map((metric) => (
          <li key={metric} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="h-0.5 w-4 rounded" style={{ backgroundColor: METRIC_COLOURS[metric] }} />
            {totalLabel(metric)}
            <span className="font-semibold tabular-nums text-gray-900">{figure(totalOf(days, metric))}</span>
          </li>
        ))}
      </ul>
    </figure>
  )
}
