import { getApiBaseUrl } from "~site-session/site-client"
import { buttonStyles } from "~ui/styles"
import { InertSubscribeForm } from "~site/shared/page-parts/InertSubscribeForm"
import { PageTitle } from "~site/shared/PageTitle"

import { useServiceStatus } from "./status-requests"
import { StatusView } from "./StatusView"

export default function StatusPage() {
  const baseUrl = getApiBaseUrl()
  const status = useServiceStatus()

  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title="System Status" />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">System Status</h1>
          <p className="mt-2 text-gray-600">Live checks of the site, the API, the database, sign-in and payments.</p>
        </div>
        <button type="button" onClick={() => void status.refetch()} disabled={status.isFetching} className={buttonStyles.secondary}>
          {status.isFetching ? "Checking…" : "Check again"}
        </button>
      </div>
      <StatusView report={status.data ?? null} loading={status.isPending} />
      <InertSubscribeForm
        title="Get status updates"
        tone="light"
        className="mt-10"
        notice="E-mail updates are not available yet. This page and the JSON report below always show the current state."
      />
      <p className="mt-6 text-sm text-gray-600">
        Machine-readable status:{" "}
        <a href={`${baseUrl}/api/status`} className="font-medium text-blue-700 hover:underline">
          /api/status
        </a>
      </p>
    </div>
  )
}
