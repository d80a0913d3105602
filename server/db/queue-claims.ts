/**
 * What the outbox's and the webhooks' claims share (mail/outbox-store.ts, webhooks/webhook-store.ts): of the rows their
 * query found due, those not claimed (or whose claim ran out: its worker died), oldest first, locked.
 */
import { sql, type OperandValueExpression, type SelectQueryBuilder } from "kysely"

import type { DatabaseSchema } from "./schema"

/** The tables worked through by a claiming worker: each has next_attempt_at, seq and locked_until. */
type QueueTable = "email_outbox" | "webhook_deliveries"

/**
 * Up to `limit` of the rows `due` selects that no live claim holds, oldest first, locked for the claim's update.
 * SKIP LOCKED: workers of several instances claiming at once never get the same row.
 */
export function unclaimedOldestFirst<T extends QueueTable, O>(due: SelectQueryBuilder<DatabaseSchema, T, O>, now: Date, limit: number): SelectQueryBuilder<DatabaseSchema, T, O> {
  // Kysely cannot work out a column's type in a table left generic; both tables' locked_until is a timestamp.
  const claimOver = now as OperandValueExpression<DatabaseSchema, T, "locked_until">
  return due
    .where((row) => row.or([row("locked_until", "is", null), row("locked_until", "<=", claimOver)]))
    .orderBy("next_attempt_at")
    .orderBy("seq")
    .limit(limit)
    .forUpdate()
    .modifyEnd(sql`skip locked`)
}
