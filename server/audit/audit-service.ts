/**
 * The audit log as the admin panel reads it: the filters resolved (an actor by id or address, whole UTC days), pages
 * of 50 newest first, and the CSV export streamed batch by batch. Reading only: nothing here, nor anywhere in the
 * API, changes or deletes an entry, and the database refuses it anyway (migration 016).
 */
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { AUDIT_PAGE_SIZE, type AuditEntry, type AuditFilter, type AuditPage, type AuditQuery } from "~core/admin/audit"

import { CSV_HEADER, csvLine } from "./audit-csv"
import * as store from "./audit-store"

/** Rows read per query of the export: its memory stays that of one batch, whatever the log's size. */
const CSV_BATCH = 500
const DAY_MS = 86_400_000

const isUuid = (text: string) => z.uuid().safeParse(text).success

/** The query's filters as the store takes them: `to` is a whole day, so the range ends at the next midnight (UTC). */
export function selectionOf(filter: AuditFilter): store.AuditSelection {
  const actor = filter.actor?.trim()
  return {
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(actor ? (isUuid(actor) ? { actorId: actor.toLowerCase() } : { actorEmailPart: actor }) : {}),
    ...(filter.from ? { since: new Date(`${filter.from}T00:00:00.000Z`) } : {}),
    ...(filter.to ? { before: new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + DAY_MS) } : {})
  }
}

function toEntry(row: store.AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.created_at.toISOString(),
    actor: row.actor_id || row.actor_email ? { id: row.actor_id, email: row.actor_email } : null,
    action: row.kind,
    // An entry written before the target was kept names its subject by id.
    target: row.target ?? row.subject_id,
    ip: row.ip,
    details: row.detail as AuditEntry["details"]
  }
}

export function auditService(app: FastifyInstance) {
  const db = app.database.db
  return {
    async page(query: AuditQuery): Promise<AuditPage> {
      const selection = selectionOf(query)
      const [total, rows] = await Promise.all([
        store.countEntries(db, selection),
        store.listEntries(db, selection, { offset: (query.page - 1) * AUDIT_PAGE_SIZE, limit: AUDIT_PAGE_SIZE })
      ])
      return { entries: rows.map(toEntry), total, page: query.page }
    },

    /** The CSV, header first, produced as it is read: a slow client holds one batch at a time. */
    async *csv(filter: AuditFilter): AsyncGenerator<string> {
      yield CSV_HEADER
      for await (const rows of store.entryBatches(db, selectionOf(filter), CSV_BATCH)) {
        yield rows.map((row) => csvLine(toEntry(row))).join("")
      }
    }
  }
}
