/**
 * /admin/analytics: the business's recorded events over the last 30 or 90 days (UTC days, today last): questions,
 * translations and API calls; sign-ups and active users; feedback received. Each chart (lazy: recharts is its own
 * chunk) has a "Show as table" view of the same figures. Loading and failures are said in words.
 */
import { Toggle } from "radix-ui"
import { lazy, Suspense, useId, useState } from "react"
import { Link } from "react-router"

import { ANALYTICS_RANGES, type AnalyticsDay } from "~core/admin/admin-analytics"
import { QueryStatus } from "~site/shared/LoadFailure"
import { PressedButtons } from "~ui/PressedButtons"
import { buttonStyles } from "~ui/styles"
import { PageTitle } from "~site/shared/PageTitle"

import { useAnalytics } from "./analytics-requests"
import { AnalyticsTable } from "./AnalyticsTable"
import { CHART_GROUPS, type ChartGroup } from "./analytics-view"

/** A chart chunk that cannot be fetched (a deployment replaced it, the network dropped) leaves the table, not a broken page. */
const AnalyticsChart = lazy(() =>
  import("./AnalyticsChart").catch(() => ({
    default: () => <p className="text-gray-600">The chart could not be loaded. Press “Show as table” to see the figures, or reload the page.</p>
  }))
)

const TOGGLE = "rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700 transition hover:bg-gray-50 focus-ring data-[state=on]:border-blue-600 data-[state=on]:bg-blue-600 data-[state=on]:text-white"

type Range = `${(typeof ANALYTICS_RANGES)[number]}`
const RANGES = ANALYTICS_RANGES.map(String) as Range[]

function ChartCard({ days, group }: { days: readonly AnalyticsDay[]; group: ChartGroup }) {
  const [asTable, setAsTable] = useState(false)
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-semibold text-gray-900">
          {group.title}
        </h2>
        <Toggle.Root pressed={asTable} onPressedChange={setAsTable} className={TOGGLE}>
          Show as table
        </Toggle.Root>
      </div>
      {asTable ? (
        <AnalyticsTable days={days} group={group} />
      ) : (
        <Suspense
          fallback={
            <p role="status" className="flex h-64 items-center justify-center text-gray-600">
              Loading the chart…
            </p>
          }
        >
          <AnalyticsChart days={days} group={group} labelledBy={headingId} />
        </Suspense>
      )}
    </section>
  )
}

export default function AnalyticsPage() {
  const [range, setRange] = useState<Range>("30")
  const analytics = useAnalytics(Number(range))
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Analytics" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <Link to="/admin" className={`${buttonStyles.link} text-sm`}>
            ← Admin
          </Link>
          <h1 className="mt-1 text-3xl font-bold tracking-tight">Analytics</h1>
          <p className="mt-1 text-gray-600">Counted as each event happened. Days run from midnight to midnight UTC; today is the last day.</p>
        </div>
        <PressedButtons label="Range" options={RANGES} value={range} onChange={setRange}>
          {(option) => `Last ${option} days`}
        </PressedButtons>
      </header>
      <QueryStatus subject="the figures" query={analytics} />
      {analytics.data && (
        <div className="grid gap-6 lg:grid-cols-2">
          {CHART_GROUPS.map((group) => (
            <ChartCard key={group.id} days={analytics.data.days} group={group} />
          ))}
        </div>
      )}
    </div>
  )
}
