/** The usage chart's figures as a table: one row a day, newest first, a column per endpoint and their sum, and the totals. */
import { PUBLIC_API_ENDPOINTS, type ApiKeyUsage, type EndpointCalls } from "~core/api-keys"
import { DailyFiguresTable, type DailyFigure } from "~site/shared/DailyFiguresTable"

import { callsIn, ENDPOINT_LABELS } from "./usage-view"

type UsageDay = ApiKeyUsage["days"][number]

export function ApiUsageTable({ usage }: { usage: ApiKeyUsage }) {
  const figures: DailyFigure<UsageDay>[] = [
    ...PUBLIC_API_ENDPOINTS.map((endpoint) => ({ label: ENDPOINT_LABELS[endpoint], of: (day: EndpointCalls) => day[endpoint], total: usage.totals[endpoint] })),
    { label: "Total", of: callsIn, total: callsIn(usage.totals), isSum: true }
  ]
  return (
    <div className="space-y-1">
      <p className="text-xs text-gray-600 sm:hidden">Scroll the table sideways to see every endpoint.</p>
      <DailyFiguresTable caption="API calls per day and endpoint" days={usage.days} dateOf={(day) => day.day} figures={figures} />
    </div>
  )
}
