/**
 * /admin/security: the audit log, newest first, 50 a page: who did what, on whom, when and from which address.
 * Filters by kind, actor and days (UTC, as the server reads them), and the export of what they select as CSV. The
 * log is read only: nothing on this page changes an entry. Every text of an entry is rendered as text.
 */
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"

import { AUDIT_EVENT_KINDS, AUDIT_PAGE_SIZE, type AuditEntry } from "~core/admin/audit"
import { Pager } from "~ui/Pager"
import { CompactSelect, CompactTextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"

import { PageTitle } from "../../PageTitle"
import { auditKeys, fetchAuditCsv, fetchAuditPage, NO_FILTERS, saveBlob, type AuditFilters } from "./audit-api"
import { actorText, detailsText, formatAuditTime, kindLabel } from "./audit-labels"

export const SECURITY_TEXTS = {
  loadFailed: "The audit log could not be loaded. Please try again.",
  exportFailed: "The CSV file could not be downloaded. Please try again.",
  datesOutOfOrder: "The “from” date must not be after the “to” date.",
  empty: "No entries match these filters.",
  emptyLog: "The audit log has no entries yet."
}

function FilterForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const [draft, setDraft] = useState(applied)
  const outOfOrder = Boolean(draft.from && draft.to && draft.from > draft.to)
  const set = (name: keyof AuditFilters) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!outOfOrder) onApply({ ...draft, actor: draft.actor.trim() })
  }

  return (
    <form aria-label="Filter the audit log" onSubmit={submit} className="grid gap-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]">
      <CompactSelect label="Kind" value={draft.kind} onChange={set("kind")}>
        <option value="">All kinds</option>
        {AUDIT_EVENT_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {kindLabel(kind)}
          </option>
        ))}
      </CompactSelect>
      <CompactTextField label="Actor" placeholder="E-mail or account id" value={draft.actor} maxLength={320} onChange={set("actor")} />
      <CompactTextField label="From (UTC)" type="date" value={draft.from} onChange={set("from")} aria-invalid={outOfOrder} />
      <CompactTextField label="To (UTC)" type="date" value={draft.to} onChange={set("to")} aria-invalid={outOfOrder} />
      <div className="flex items-end gap-2">
        <button type="submit" className={buttonStyles.primary} disabled={outOfOrder}>
          Apply
        </button>
        <button
          type="button"
          className={buttonStyles.ghost}
          onClick={() => {
            setDraft(NO_FILTERS)
            onApply(NO_FILTERS)
          }}
        >
          Clear
        </button>
      </div>
      {outOfOrder && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2 lg:col-span-5">
          {SECURITY_TEXTS.datesOutOfOrder}
        </p>
      )}
    </form>
  )
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  const details = detailsText(entry.details)
  return (
    <tr className="border-t border-gray-100 align-top">
      <td className="px-3 py-2 text-sm">
        <time dateTime={entry.at} className="whitespace-nowrap text-gray-700">
          {formatAuditTime(entry.at)}
        </time>
        {/* A narrow screen reads the other columns here, under the time. */}
        <span className="mt-1 block space-y-0.5 break-words md:hidden" data-narrow-only>
          <span className="block font-medium">{kindLabel(entry.action)}</span>
          <span className="block text-gray-600">by {actorText(entry.actor)}</span>
          {entry.target && <span className="block text-gray-600">on {entry.target}</span>}
          {entry.ip && <span className="block text-gray-500">from {entry.ip}</span>}
          {details && <span className="block text-gray-500">{details}</span>}
        </span>
      </td>
      <td className="hidden px-3 py-2 text-sm font-medium md:table-cell">{kindLabel(entry.action)}</td>
      <td className="hidden break-all px-3 py-2 text-sm md:table-cell">{actorText(entry.actor)}</td>
      <td className="hidden break-all px-3 py-2 text-sm md:table-cell">{entry.target ?? "—"}</td>
      <td className="hidden px-3 py-2 text-sm text-gray-600 md:table-cell">{entry.ip ?? "—"}</td>
      <td className="hidden break-words px-3 py-2 text-sm text-gray-600 md:table-cell">{details || "—"}</td>
    </tr>
  )
}

function AuditLog() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS)
  const [page, setPage] = useState(1)
  const log = useQuery({ queryKey: auditKeys.page(filters, page), queryFn: ({ signal }) => fetchAuditPage(filters, page, signal), placeholderData: keepPreviousData })
  const exporting = useMutation({
    mutationFn: () => fetchAuditCsv(filters),
    onSuccess: (blob) => saveBlob(blob, `audit-log-${new Date().toISOString().slice(0, 10)}.csv`)
  })

  const data = log.data
  const pages = data ? Math.max(1, Math.ceil(data.total / AUDIT_PAGE_SIZE)) : 1
  const filtered = Object.values(filters).some(Boolean)

  return (
    <>
      <FilterForm
        applied={filters}
        onApply={(next) => {
          setFilters(next)
          setPage(1)
        }}
      />
      <section aria-labelledby="audit-heading" className="rounded-2xl border border-gray-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 p-3">
          <h2 id="audit-heading" className="text-sm font-semibold text-gray-700">
            Entries ({data ? data.total.toLocaleString("en-GB") : "…"})
          </h2>
          <button type="button" className={buttonStyles.secondary} disabled={exporting.isPending} onClick={() => exporting.mutate()}>
            {exporting.isPending ? "Exporting…" : "Export CSV"}
          </button>
        </div>
        {exporting.isError && (
          <div className="p-3">
            <Notice>{SECURITY_TEXTS.exportFailed}</Notice>
          </div>
        )}
        {log.isPending ? (
          <Spinner label="Loading the audit log" />
        ) : log.isError ? (
          <div className="p-4">
            <Notice>{SECURITY_TEXTS.loadFailed}</Notice>
          </div>
        ) : data!.entries.length === 0 ? (
          <p className="p-6 text-center text-sm text-gray-500">{filtered ? SECURITY_TEXTS.empty : SECURITY_TEXTS.emptyLog}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left">
              <caption className="sr-only">Audit log entries, newest first</caption>
              <thead className="bg-gray-50 text-xs uppercase tracking-wide text-gray-500">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    When
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Action
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Actor
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Target
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Address
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Details
                  </th>
                </tr>
              </thead>
              <tbody>
                {data!.entries.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pages={pages} onPage={setPage} look="inCard" />
      </section>
    </>
  )
}

export default function SecurityPage() {
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Security" />
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Security</h1>
        <p className="mt-1 text-gray-600">The audit log: who did what, on whom, when and from which address. Entries cannot be changed or deleted.</p>
      </header>
      <AuditLog />
    </div>
  )
}
