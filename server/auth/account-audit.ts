/**
 * The audit log's entries about how an account signs in: methods added or removed, passwords changed or reset,
 * sessions ended, lockouts. Each is written with the transaction of its change (recordAuditEvent), so a change that
 * rolls back leaves no entry, and no entry exists without its change.
 */
import type { SignInMethod } from "~core/auth-schemas"

import { recordAuditEvent } from "../audit/audit-log-store"
import type { Db } from "../db/transaction"

/** Why sessions ended, as the log's details name it. */
export type SessionsEndedReason = "sign_out_everywhere" | "password_changed" | "password_reset" | "sign_in_method_removed" | "google_took_over_address"

/** The account's own change: it is both actor and subject. */
interface OwnChange {
  userId: string
  ip: string | null
  now: Date
}

const METHOD_DETAIL: Record<SignInMethod, string> = { email: "password", google: "google" }

export function auditSignInMethod(db: Db, change: OwnChange, method: SignInMethod, kind: "added" | "removed"): Promise<void> {
  return recordAuditEvent(db, { kind: `sign_in_method.${kind}`, actorId: change.userId, subjectId: change.userId, detail: { method: METHOD_DETAIL[method] }, ip: change.ip }, change.now)
}

export function auditPassword(db: Db, change: OwnChange, kind: "changed" | "reset"): Promise<void> {
  return recordAuditEvent(db, { kind: `password.${kind}`, actorId: change.userId, subjectId: change.userId, detail: {}, ip: change.ip }, change.now)
}

/** Records `count` sessions ended; none ended is no event. */
export async function auditSessionsEnded(db: Db, change: OwnChange, count: number, reason: SessionsEndedReason): Promise<void> {
  if (count === 0) return
  await recordAuditEvent(db, { kind: "sessions.ended", actorId: change.userId, subjectId: change.userId, detail: { reason, count }, ip: change.ip }, change.now)
}
