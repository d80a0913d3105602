import { Link } from "react-router"

import type { StatusReport } from "~core/api-answer"
import {
  NO_INCIDENTS_TEXT,
  OVERALL_STATUS_LABELS,
  overallStatus,
  type ServiceState,
  type ServiceStatusEntry
} from "~core/service-status"
import { CircleAlert, CircleCheck, CircleX, Wrench } from "~ui/icons"
import { PageSection } from "~site/shared/page-parts/PageSection"

const STATE_VIEW: Record<ServiceState, { label: string; className: string; Icon: typeof CircleCheck }> = {
  operational: { label: "Operational", className: "text-emerald-800", Icon: CircleCheck },
  degraded: { label: "Degraded performance", className: "text-amber-800", Icon: CircleAlert },
  outage: { label: "Outage", className: "text-red-700", Icon: CircleX },
  maintenance: { label: "Under maintenance", className: "text-blue-800", Icon: Wrench }
}

const BANNER_STYLES = {
  operational: "border-emerald-200 bg-emerald-50 text-emerald-900",
  partial: "border-amber-200 bg-amber-50 text-amber-900",
  major: "border-red-200 bg-red-50 text-red-900"
} as const

const formatTime = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" })

function formatUptime(seconds: number) {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  if (days > 0) return `${days} d ${hours} h`
  if (hours > 0) return `${hours} h ${minutes} min`
  return `${minutes} min`
}

export interface StatusViewProps {
  /** The server's report; null when it could not be reached or answered nothing usable. */
  report: StatusReport | null
  loading: boolean
}

/** Banner, services and incidents of the status page, drawn from one GET /api/status report. */
export function StatusView({ report, loading }: StatusViewProps) {
  if (loading) {
    return (
      <p role="status" className="mt-8 rounded-2xl border border-gray-200 bg-white p-6 text-gray-700">
        Checking every service…
      </p>
    )
  }
  const services: ServiceStatusEntry[] = report?.services ?? []
  if (!report || services.length === 0) {
    return (
      <div role="alert" className={`mt-8 rounded-2xl border p-6 ${BANNER_STYLES.major}`}>
        <p className="text-xl font-semibold">{OVERALL_STATUS_LABELS.major}</p>
        <p className="mt-1 text-sm">The status service could not be reached, so the API is not answering right now.</p>
      </div>
    )
  }
  const overall = overallStatus(services.map((service) => service.status))
  const failing = services.filter((service) => service.status === "outage" || service.status === "degraded")

  return (
    <>
      <div role="status" className={`mt-8 rounded-2xl border p-6 ${BANNER_STYLES[overall]}`}>
        <p className="text-xl font-semibold">{OVERALL_STATUS_LABELS[overall]}</p>
        <p className="mt-1 text-sm">
          {report.checkedAt ? `Checked ${formatTime(report.checkedAt)}` : "Checked just now"} · version {report.version} · server up{" "}
          {formatUptime(report.uptimeSeconds)}
        </p>
      </div>

      <PageSection headingId="services-heading" title="Services" look="list" className="mt-10">
        <ul className="mt-4 divide-y divide-gray-200 rounded-2xl border border-gray-200 bg-white">
          {services.map((service) => {
            const view = STATE_VIEW[service.status]
            return (
              <li key={service.id} className="flex flex-col gap-1 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
                <div>
                  <h3 className="font-medium">{service.name}</h3>
                  <p className="text-sm text-gray-600">
                    {service.message}
                    {service.latencyMs !== undefined && ` (${service.latencyMs} ms)`}
                  </p>
                  {service.lastIncident && (
                    <p className="text-xs text-gray-600">Last failed check: {formatTime(service.lastIncident)}</p>
                  )}
                </div>
                <p className={`flex shrink-0 items-center gap-2 text-sm font-semibold ${view.className}`}>
                  <view.Icon aria-hidden="true" className="h-5 w-5" />
                  {view.label}
                </p>
              </li>
            )
          })}
        </ul>
      </PageSection>

      <PageSection headingId="incidents-heading" title="Incidents" look="list" className="mt-10">
        {failing.length === 0 ? (
          <div className="mt-4 rounded-2xl border border-gray-200 bg-white p-6 text-center">
            <p className="font-medium">{NO_INCIDENTS_TEXT}</p>
            <p className="mt-1 text-sm text-gray-600">Every check passed when this page loaded.</p>
          </div>
        ) : (
          <ul className="mt-4 space-y-3">
            {failing.map((service) => (
              <li key={service.id} className="rounded-2xl border border-red-200 bg-white p-5">
                <h3 className="font-semibold">
                  {service.name}: {STATE_VIEW[service.status].label.toLowerCase()}
                </h3>
                <p className="mt-1 text-sm text-gray-700">{service.message}</p>
              </li>
            ))}
          </ul>
        )}
      </PageSection>

      <p className="mt-6 text-sm text-gray-600">
        Need help? Visit the{" "}
        <Link to="/help" className="font-medium text-blue-700 hover:underline">
          Help Center
        </Link>
        .
      </p>
    </>
  )
}
