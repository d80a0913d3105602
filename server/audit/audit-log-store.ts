/** Writes the audit log (table audit_events): one row per security-relevant change, in the change's own transaction. */
import { sql } from "kysely"

import type { AuditEventKind } from "~core/admin/audit"

import type { Db } from "../db/transaction"

export interface AuditEvent {
  kind: AuditEventKind
  /** Who did it; null for the system. */
  actorId: string | null
  /** The account it is about. */
  subjectId: string | null
  /** On whom or what, as a person reads it; by default the subject's address. */
  target?: string | null
  /** What the admin panel shows of it: names and ids, never a secret. */
  detail: Record<string, string | number | boolean | null>
  /** The client's address, as the request saw it. */
  ip: string | null
}

/** An account's address, read in the writing transaction: the entry keeps it after the account is deleted. */
const emailOf = (userId: string | null) => (userId ? sql<string | null>`(select email from users where id = ${userId})` : null)

export async function recordAuditEvent(db: Db, event: AuditEvent, now: Date): Promise<void> {
  await db
    .insertInto("audit_events")
    .values({
      kind: event.kind,
      actor_id: event.actorId,
      actor_email: emailOf(event.actorId),
      subject_id: event.subjectId,
      target: event.target ?? emailOf(event.subjectId),
      detail: sql`${JSON.stringify(event.detail)}::jsonb`,
      ip: event.ip,
      created_at: now
    })
    .execute()
}
