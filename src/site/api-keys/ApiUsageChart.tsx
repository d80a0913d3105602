/**
 * The usage chart: the account's API calls a day, stacked by endpoint, with a legend of the range's totals. Its own
 * chunk (React.lazy in ApiUsage.tsx): recharts is loaded when a Pro or Enterprise dashboard shows calls, never on the
 * dashboard's first paint.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts"

import { PUBLIC_API_ENDPOINTS, type ApiKeyUsage, type PublicApiEndpoint } from "~core/api-keys"
import { dayWithWeekday, figure, shortDay } from "~site/shared/daily-figures"

import { callsIn, ENDPOINT_COLOURS, ENDPOINT_LABELS } from "./usage-view"

/** Tailwind's gray-600 and gray-200, as the site writes small print and draws rules. */
const TEXT = "#4b5563"
const RULE = "#e5e7eb"

export default function ApiUsageChart({ usage, labelledBy }: { usage: ApiKeyUsage; labelledBy: string }) {
  const total = callsIn(usage.totals)
  const summary = `${figure(total)} ${total === 1 ? "call" : "calls"} from ${dayWithWeekday(usage.days[0]!.day)} to ${dayWithWeekday(usage.days.at(-1)!.day)}, ${PUBLIC_API_ENDPOINTS.map((endpoint) => `${ENDPOINT_LABELS[endpoint]} ${figure(usage.totals[endpoint])}`).join(", ")}.`
  return (
    <figure aria-labelledby={labelledBy} className="space-y-3">
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={usage.days} title="API calls per day, stacked by endpoint" desc={summary} margin={{ top: 8, right: 4, bottom: 0, left: 0 }} barCategoryGap="20%">
            <CartesianGrid vertical={false} stroke={RULE} />
            <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 12, fill: TEXT }} tickLine={false} axisLine={{ stroke: RULE }} interval="preserveStartEnd" minTickGap={24} />
            <YAxis allowDecimals={false} width="auto" tickFormatter={figure} tick={{ fontSize: 12, fill: TEXT }} tickLine={false} axisLine={false} />
            {/* The endpoints in the legend's order (recharts sorts them by name). */}
            <Tooltip
              labelFormatter={(day) => dayWithWeekday(String(day))}
              formatter={(value) => figure(Number(value))}
              itemSorter={(item) => PUBLIC_API_ENDPOINTS.indexOf(item.dataKey as PublicApiEndpoint)}
              separator=": "
              cursor={{ fill: "#f3f4f6" }}
              wrapperStyle={{ fontSize: 12 }}
            />
            {PUBLIC_API_ENDPOINTS.map((endpoint) => (
              // A white edge between the parts of a bar keeps neighbouring colours apart.
              <Bar key={endpoint} dataKey={endpoint} name={ENDPOINT_LABELS[endpoint]} stackId="calls" fill={ENDPOINT_COLOURS[endpoint]} stroke="#ffffff" strokeWidth={0.5} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ul aria-label="Legend: calls per endpoint in the range" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-700">
        {PUBLIC_API_ENDPOINTS.map((endpoint) => (
          <li key={endpoint} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="h-3 w-3 rounded-sm" style={{ backgroundColor: ENDPOINT_COLOURS[endpoint] }} />
            {ENDPOINT_LABELS[endpoint]}
            <span className="font-semibold tabular-nums text-gray-900">{figure(usage.totals[endpoint])}</span>
          </li>
        ))}
      </ul>
    </figure>
  )
}
