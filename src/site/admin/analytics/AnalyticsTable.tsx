/** An analytics chart's figures as a table: one row a day, newest first, a column per figure, and the range's totals. */
import { useId } from "react"

import type { AnalyticsDay } from "~core/admin/admin-analytics"

import { dayWithWeekday, figure, metricLabel, totalOf, type ChartGroup } from "./analytics-view"

const CELL = "px-2 py-2 sm:px-3"
/** The day column stays in view while a narrow screen scrolls the figures sideways. */
const DAY_CELL = `${CELL} sticky left-0 text-left`

export function AnalyticsTable({ days, group }: { days: readonly AnalyticsDay[]; group: ChartGroup }) {
  const captionId = useId()
  return (
    // Scrolls within its card (up to 90 rows), so it takes the keyboard's focus to be scrolled.
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="max-h-96 overflow-auto rounded-xl border border-gray-200 focus-ring">
      <table className="w-full text-right text-xs tabular-nums sm:text-sm">
        <caption id={captionId} className="sr-only">
          {group.title}, newest day first
        </caption>
        <thead className="sticky top-0 z-10 bg-gray-50 text-gray-600">
          <tr>
            <th scope="col" className={`${DAY_CELL} bg-gray-50 font-medium`}>
              Day
            </th>
            {group.metrics.map((metric) => (
              <th key={metric} scope="col" className={`${CELL} font-medium`}>
                {metricLabel(metric)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {[...days].reverse().map((day) => (
            <tr key={day.date}>
              <th scope="row" className={`${DAY_CELL} whitespace-nowrap bg-white font-normal`}>
                {dayWithWeekday(day.date)}
              </th>
              {group.metrics.map((metric) => (
                <td key={metric} className={`${CELL} ${day[metric] ? "text-gray-900" : "text-gray-500"}`}>
                  {figure(day[metric])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
          <tr>
            <th scope="row" className={`${DAY_CELL} bg-gray-50`}>
              {group.metrics.includes("activeUsers") ? "Total (active users: busiest day)" : "Total"}
            </th>
            {group.metrics.map((metric) => (
              <td key={metric} className={CELL}>
                {figure(totalOf(days, metric))}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  )
}
