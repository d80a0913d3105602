/** The usage chart's figures as a table: one row a day, newest first, a column per endpoint, and the totals. */
import { useId } from "react"

import { PUBLIC_API_ENDPOINTS, type ApiKeyUsage } from "~core/api-keys"

import { callsIn, dayWithWeekday, ENDPOINT_LABELS, figure } from "./usage-view"

const CELL = "px-2 py-2 sm:px-3"
/** The day column stays in view while a narrow screen scrolls the endpoints sideways. */
const DAY_CELL = `${CELL} sticky left-0 text-left`

export function ApiUsageTable({ usage }: { usage: ApiKeyUsage }) {
  const captionId = useId()
  return (
    <div className="space-y-1">
      <p className="text-xs text-gray-600 sm:hidden">Scroll the table sideways to see every endpoint.</p>
      {/* Scrolls within the card (30 rows; 7 columns are wider than a phone), so it takes the keyboard's focus to be scrolled. */}
      <div role="region" aria-labelledby={captionId} tabIndex={0} className="max-h-96 overflow-auto rounded-xl border border-gray-200 focus-ring">
        <table className="w-full text-right text-xs tabular-nums sm:text-sm">
          <caption id={captionId} className="sr-only">
            API calls per day and endpoint, newest day first
          </caption>
          <thead className="sticky top-0 z-10 bg-gray-50 text-gray-600">
            <tr>
              <th scope="col" className={`${DAY_CELL} bg-gray-50 font-medium`}>
                Day
              </th>
              {PUBLIC_API_ENDPOINTS.map((endpoint) => (
                <th key={endpoint} scope="col" className={`${CELL} font-medium`}>
                  {ENDPOINT_LABELS[endpoint]}
                </th>
              ))}
              <th scope="col" className={`${CELL} font-medium`}>
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {[...usage.days].reverse().map((day) => (
              <tr key={day.day}>
                <th scope="row" className={`${DAY_CELL} whitespace-nowrap bg-white font-normal`}>
                  {dayWithWeekday(day.day)}
                </th>
                {PUBLIC_API_ENDPOINTS.map((endpoint) => (
                  <td key={endpoint} className={`${CELL} ${day[endpoint] ? "text-gray-900" : "text-gray-500"}`}>
                    {figure(day[endpoint])}
                  </td>
                ))}
                <td className={`${CELL} font-medium`}>{figure(callsIn(day))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
            <tr>
              <th scope="row" className={`${DAY_CELL} bg-gray-50`}>
                Total
              </th>
              {PUBLIC_API_ENDPOINTS.map((endpoint) => (
                <td key={endpoint} className={CELL}>
                  {figure(usage.totals[endpoint])}
                </td>
              ))}
              <td className={CELL}>{figure(callsIn(usage.totals))}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  )
}
