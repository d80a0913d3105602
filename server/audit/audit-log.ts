/** Writes the audit log (table audit_events): one row per security-relevant change, in the change's own transaction. */
import { sql } from "kysely"

import type { AuditEventKind } from "~core/audit"

import type { Db } from "../db/transaction"

export interface AuditEvent {
  kind: AuditEventKind
  /** Who did it; null for the system. */
  actorId: string | null
  /** The account it is about. */
  subjectId: string | null
  /** What the admin panel shows of it: names and ids, never a secret. */
  detail: Record<string, string | number | boolean | null>
  /** The client's address, as the request saw it. */
  ip: string | null
}

export async function recordAuditEvent(db: Db, event: AuditEvent, now: Date): Promise<void> {
  await db
    .insertInto("audit_events")
    .values({ kind: event.kind, actor_id: event.actorId, subject_id: event.subjectId, detail: sql`${JSON.stringify(event.detail)}::jsonb`, ip: event.ip, created_at: now })
    .execute()
}
