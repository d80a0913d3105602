/**
 * /admin/security: the audit log, newest first, 50 a page: who did what, on whom, when and from which address.
 * Filters by kind, actor and days (UTC, as the server reads them), and the export of what they select as CSV. The
 * log is read only: nothing on this page changes an entry. Every text of an entry is rendered as text.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"

import { AUDIT_EVENT_KINDS, AUDIT_PAGE_SIZE, type AuditEntry } from "~core/admin/audit"
import { DataTable, type DataColumn } from "~site/shared/DataTable"
import { PageTitle } from "~site/shared/PageTitle"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { Pager } from "~ui/Pager"
import { CompactSelect, CompactTextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"

import { auditKeys, fetchAuditCsv, fetchAuditPage, NO_FILTERS, saveBlob, type AuditFilters } from "./audit-requests"
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

/** When; a narrow screen reads the other columns here, under the time. */
function WhenCell({ entry }: { entry: AuditEntry }) {
  const details = detailsText(entry.details)
  return (
    <>
      <time dateTime={entry.at} className="whitespace-nowrap text-gray-700">
        {formatAuditTime(entry.at)}
      </time>
      <span className="mt-1 block space-y-0.5 break-words md:hidden" data-narrow-only>
        <span className="block font-medium">{kindLabel(entry.action)}</span>
        <span className="block text-gray-600">by {actorText(entry.actor)}</span>
        {entry.target && <span className="block text-gray-600">on {entry.target}</span>}
        {entry.ip && <span className="block text-gray-500">from {entry.ip}</span>}
        {details && <span className="block text-gray-500">{details}</span>}
      </span>
    </>
  )
}

const ENTRY_COLUMNS: readonly DataColumn<AuditEntry>[] = [
  { header: "When", cell: (entry) => <WhenCell entry={entry} /> },
  { header: "Action", from: "md", cellClassName: "font-medium", cell: (entry) => kindLabel(entry.action) },
  { header: "Actor", from: "md", cellClassName: "break-all", cell: (entry) => actorText(entry.actor) },
  { header: "Target", from: "md", cellClassName: "break-all", cell: (entry) => entry.target ?? "—" },
  { header: "Address", from: "md", cellClassName: "text-gray-600", cell: (entry) => entry.ip ?? "—" },
  { header: "Details", from: "md", cellClassName: "break-words text-gray-600", cell: (entry) => detailsText(entry.details) || "—" }
]

function AuditLog() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS)
  const [page, setPage] = useState(1)
  const log = useQuery({ queryKey: auditKeys.page(filters, page), queryFn: ({ signal }) => fetchAuditPage(filters, page, signal), placeholderData: keepPreviousData })
  const exporting = useFormMutation({
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
          <button type="button" className={buttonStyles.secondary} disabled={exporting.isPending} onClick={() => !exporting.isRunning() && exporting.mutate()}>
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
        ) : (
          <DataTable
            caption="Audit log entries, newest first"
            columns={ENTRY_COLUMNS}
            rows={data!.entries}
            rowKey={(entry) => entry.id}
            empty={filtered ? SECURITY_TEXTS.empty : SECURITY_TEXTS.emptyLog}
          />
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
