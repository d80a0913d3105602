/**
 * The security page's calls: a page of the audit log (checked against its schema at run time) and the CSV export,
 * fetched with the session's token (a plain link would carry none) and saved as a download.
 */
import { getApiClient } from "~site-session/site-client"
import { auditPageSchema, type AuditEventKind, type AuditPage } from "~core/admin/audit"
import { parseAnswer } from "~site-session/parse-answer"

/** The filters as the form holds them; an empty one is no filter. */
export interface AuditFilters {
  kind: AuditEventKind | ""
  actor: string
  from: string
  to: string
}

export const NO_FILTERS: AuditFilters = { kind: "", actor: "", from: "", to: "" }

export const auditKeys = {
  page: (filters: AuditFilters, page: number) => ["admin", "audit", filters, page] as const
}

/** Only the filters that are set, trimmed. */
function filterParams(filters: AuditFilters): Record<string, string> {
  const params: Record<string, string> = {}
  for (const [name, value] of Object.entries(filters)) {
    const trimmed = value.trim()
    if (trimmed) params[name] = trimmed
  }
  return params
}

export async function fetchAuditPage(filters: AuditFilters, page: number, signal?: AbortSignal): Promise<AuditPage> {
  return parseAnswer(auditPageSchema, await getApiClient().get("/api/admin/audit", { params: { ...filterParams(filters), page }, signal }))
}

export function fetchAuditCsv(filters: AuditFilters): Promise<Blob> {
  const query = new URLSearchParams(Object.entries(filterParams(filters)).sort(([a], [b]) => a.localeCompare(b))).toString()
  return getApiClient().getBlob(`/api/admin/audit.csv${query ? `?${query}` : ""}`)
}

/** Hands `blob` to the browser as a file download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement("a")
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // After the click has handed the file over: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
