import { useQuery } from "@tanstack/react-query"
import { useId, useState, type FormEvent } from "react"

import { fetchServiceStatus } from "~api/status"
import { getApiBaseUrl, getApiClient } from "~auth/api-client"
import { buttonStyles } from "~ui/styles"

import { PageTitle } from "../PageTitle"
import { StatusView } from "./StatusView"

const REFRESH_INTERVAL_MS = 60_000

/** The subscribe box is inert: it sends nothing and says so. */
function SubscribeBox() {
  const id = useId()
  const [note, setNote] = useState("")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setNote("E-mail updates are not available yet. This page and the JSON report below always show the current state.")
  }
  return (
    <form onSubmit={submit} className="mt-10 rounded-2xl border border-gray-200 bg-gray-50 p-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Get status updates
      </h2>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          E-mail address
        </label>
        <input
          id={id}
          type="email"
          placeholder="you@example.com"
          className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
        />
        <button type="submit" className={buttonStyles.secondary}>
          Subscribe
        </button>
      </div>
      <p role="status" className="mt-2 text-sm text-gray-700">
        {note}
      </p>
    </form>
  )
}

export default function StatusPage() {
  const baseUrl = getApiBaseUrl()
  const status = useQuery({
    queryKey: ["service-status"],
    queryFn: ({ signal }) => fetchServiceStatus(getApiClient(), signal),
    refetchInterval: REFRESH_INTERVAL_MS,
    staleTime: 0
  })

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
      <SubscribeBox />
      <p className="mt-6 text-sm text-gray-600">
        Machine-readable status:{" "}
        <a href={`${baseUrl}/api/status`} className="font-medium text-blue-700 hover:underline">
          /api/status
        </a>
      </p>
    </div>
  )
}
