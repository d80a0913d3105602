/**
 * The API keys card's usage: the account's calls of the last 30 days by endpoint, as a chart (lazy: recharts is not
 * part of the dashboard's first paint) or, pressed "Show as table", as a table of the same figures. Loading, a
 * failure and a month without calls are said in words.
 */
import { Toggle } from "radix-ui"
import { lazy, Suspense, useId, useState } from "react"

import { API_KEY_USAGE_DEFAULT_DAYS } from "~core/api-keys"
import { QueryStatus } from "~site/shared/LoadFailure"

import { useApiKeyUsage } from "./api-keys-requests"
import { ApiUsageTable } from "./ApiUsageTable"
import { callsIn } from "./usage-view"

const DAYS = API_KEY_USAGE_DEFAULT_DAYS

/** A chart chunk that cannot be fetched (a deployment replaced it, the network dropped) leaves the table, not a broken page. */
const ApiUsageChart = lazy(() =>
  import("./ApiUsageChart").catch(() => ({
    default: () => <p className="text-gray-600">The chart could not be loaded. Press “Show as table” to see the figures, or reload the page.</p>
  }))
)

const TOGGLE = "rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700 transition hover:bg-gray-50 focus-ring data-[state=on]:border-blue-600 data-[state=on]:bg-blue-600 data-[state=on]:text-white"

export function ApiUsage() {
  const usage = useApiKeyUsage(DAYS)
  const [asTable, setAsTable] = useState(false)
  const headingId = useId()
  const hasCalls = usage.data !== undefined && callsIn(usage.data.totals) > 0

  return (
    <section aria-labelledby={headingId} className="space-y-3 border-t border-gray-100 pt-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id={headingId} className="font-semibold text-gray-900">
            API calls in the last {DAYS} days
          </h3>
          <p className="text-xs text-gray-600">All your keys, revoked ones included. Days run from midnight to midnight UTC.</p>
        </div>
        {hasCalls && (
          <Toggle.Root pressed={asTable} onPressedChange={setAsTable} className={TOGGLE}>
            Show as table
          </Toggle.Root>
        )}
      </div>
      <QueryStatus subject="your API calls" query={usage} />
      {usage.data && !hasCalls && <p className="text-gray-600">No API calls in the last {DAYS} days.</p>}
      {usage.data && hasCalls && asTable && <ApiUsageTable usage={usage.data} />}
      {usage.data && hasCalls && !asTable && (
        <Suspense
          fallback={
            <p role="status" className="flex h-64 items-center justify-center text-gray-600">
              Loading the chart…
            </p>
          }
        >
          <ApiUsageChart usage={usage.data} labelledBy={headingId} />
        </Suspense>
      )}
    </section>
  )
}
