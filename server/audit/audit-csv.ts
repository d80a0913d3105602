/**
 * The audit log as CSV (RFC 4180: CRLF lines, fields quoted when they hold a quote, comma or line break, quotes
 * doubled). A spreadsheet runs a cell that starts with = + - @ (or a tab or CR that hides one) as a formula, and the
 * log holds text others chose (names, addresses, key names): such a cell gets a leading apostrophe, shown as text.
 */
import { AUDIT_CSV_COLUMNS, type AuditEntry } from "~core/admin/audit"

const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string | null): string {
  if (value === null) return ""
  const neutral = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(neutral) ? `"${neutral.replace(/"/g, '""')}"` : neutral
}

export const CSV_HEADER = `${AUDIT_CSV_COLUMNS.join(",")}\r\n`

/** One entry as a CSV line: the actor by address (their id when none was known, empty for the system). */
export function csvLine(entry: AuditEntry): string {
  const actor = entry.actor ? (entry.actor.email ?? entry.actor.id) : null
  const cells = [entry.at, actor, entry.action, entry.target, entry.ip, JSON.stringify(entry.details)]
  return `${cells.map(csvCell).join(",")}\r\n`
}
