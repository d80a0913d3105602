/** The queries of the audit log's reader (table audit_events, migrations 012 and 016): filtered, newest first. */
import { sql, type SelectQueryBuilder } from "kysely"

import type { AuditEventKind } from "~core/admin/audit"

import type { DatabaseSchema } from "../db/schema"
import type { Db } from "../db/transaction"

/** The filters, resolved: an actor by id or by part of their address, and a half-open range of instants. */
export interface AuditSelection {
  kind?: AuditEventKind
  actorId?: string
  actorEmailPart?: string
  since?: Date
  before?: Date
}

export interface AuditRow {
  id: string
  kind: string
  actor_id: string | null
  actor_email: string | null
  subject_id: string | null
  target: string | null
  detail: Record<string, unknown>
  ip: string | null
  created_at: Date
}

/** LIKE's wildcards taken literally: an address with `_` matches only itself. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`)

function selected(db: Db, selection: AuditSelection): SelectQueryBuilder<DatabaseSchema, "audit_events", object> {
  let query = db.selectFrom("audit_events")
  if (selection.kind) query = query.where("kind", "=", selection.kind)
  if (selection.actorId) query = query.where("actor_id", "=", selection.actorId)
  if (selection.actorEmailPart) query = query.where("actor_email", "ilike", `%${likeLiteral(selection.actorEmailPart)}%`)
  if (selection.since) query = query.where("created_at", ">=", selection.since)
  if (selection.before) query = query.where("created_at", "<", selection.before)
  return query
}

const COLUMNS = ["id", "kind", "actor_id", "actor_email", "subject_id", "target", "detail", "ip", "created_at"] as const

export async function countEntries(db: Db, selection: AuditSelection): Promise<number> {
  const row = await selected(db, selection)
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** One page, newest first; the id orders entries of the same instant as they were written. */
export async function listEntries(db: Db, selection: AuditSelection, page: { offset: number; limit: number }): Promise<AuditRow[]> {
  const rows = await selected(db, selection).select(COLUMNS).orderBy("created_at", "desc").orderBy("id", "desc").offset(page.offset).limit(page.limit).execute()
  return rows as AuditRow[]
}

/**
 * Every selected entry, newest first, `size` at a time: each batch continues after the last one read (keyset, not
 * offset), so a log of millions is read in constant memory and time per batch.
 */
export async function* entryBatches(db: Db, selection: AuditSelection, size: number): AsyncGenerator<AuditRow[]> {
  let after: AuditRow | undefined
  for (;;) {
    let query = selected(db, selection).select(COLUMNS).orderBy("created_at", "desc").orderBy("id", "desc").limit(size)
    if (after) query = query.where(sql<boolean>`(created_at, id) < (${after.created_at}::timestamptz, ${after.id}::bigint)`)
    const rows = (await query.execute()) as AuditRow[]
    if (rows.length > 0) yield rows
    if (rows.length < size) return
    after = rows[rows.length - 1]
  }
}
