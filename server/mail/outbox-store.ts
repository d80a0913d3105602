/** The e-mail outbox's queries (table email_outbox); what they are for is server/mail/outbox.ts. */
import type { Selectable } from "kysely"

import { unclaimedOldestFirst } from "../db/queue-claims"
import type { EmailOutboxTable } from "../db/schema"
import type { Db } from "../db/transaction"

export type OutboxRow = Selectable<EmailOutboxTable>

export async function insertMessage(db: Db, message: { to: string; what: string; subject: string; text: string }, now: Date): Promise<void> {
  await db
    .insertInto("email_outbox")
    .values({ kind: "message", recipient: message.to, what: message.what, subject: message.subject, body: message.text, created_at: now, next_attempt_at: now })
    .execute()
}

/** A request for an e-mail the worker decides on (`what` names the kind of request). */
export async function insertRequest(db: Db, request: { address: string; what: string }, now: Date): Promise<void> {
  await db.insertInto("email_outbox").values({ kind: "request", recipient: request.address, what: request.what, created_at: now, next_attempt_at: now }).execute()
}

/**
 * Claims up to `limit` rows that are due and not claimed (or whose claim has run out: its worker died), for `leaseMs`.
 * SKIP LOCKED (queue-claims.ts): workers of several instances claiming at once never get the same row.
 */
export function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]> {
  return db
    .updateTable("email_outbox")
    .set((eb) => ({ locked_until: new Date(now.getTime() + leaseMs), attempts: eb("attempts", "+", 1) }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("email_outbox")
        .select("id")
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("next_attempt_at", "<=", now)
        .$call((due) => unclaimedOldestFirst(due, now, limit))
    )
    .returningAll()
    .execute()
    .then((rows) => rows.sort((a, b) => Number(a.seq) - Number(b.seq)))
}

/** Keeps claims alive while their worker is still sending. */
export async function extendClaims(db: Db, ids: string[], until: Date): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable("email_outbox").set({ locked_until: until }).where("id", "in", ids).where("sent_at", "is", null).where("failed_at", "is", null).execute()
}

/** Done: sent (or a request that called for nothing). The body, which may hold a sign-in link, is erased. */
export async function markSent(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable("email_outbox").set({ sent_at: now, locked_until: null, subject: null, body: null, last_error: null }).where("id", "=", id).execute()
}

export async function scheduleRetry(db: Db, id: string, at: Date, error: string): Promise<void> {
  await db.updateTable("email_outbox").set({ next_attempt_at: at, locked_until: null, last_error: error }).where("id", "=", id).execute()
}

export async function markFailed(db: Db, id: string, now: Date, error: string): Promise<void> {
  await db.updateTable("email_outbox").set({ failed_at: now, locked_until: null, subject: null, body: null, last_error: error }).where("id", "=", id).execute()
}

/** A request the worker has answered with a message: the same row, sent next, under the same claim. */
export async function turnIntoMessage(db: Db, id: string, message: { to: string; what: string; subject: string; text: string }): Promise<void> {
  await db.updateTable("email_outbox").set({ kind: "message", recipient: message.to, what: message.what, subject: message.subject, body: message.text }).where("id", "=", id).execute()
}

/** Frees every claim: only for a database no other process uses (the embedded one), at start, after a crash. */
export async function releaseAllClaims(db: Db): Promise<void> {
  await db.updateTable("email_outbox").set({ locked_until: null }).where("locked_until", "is not", null).execute()
}

/** Forgets rows sent or given up before `before`. */
export async function purgeDone(db: Db, before: Date): Promise<void> {
  await db
    .deleteFrom("email_outbox")
    .where((row) => row.or([row("sent_at", "<", before), row("failed_at", "<", before)]))
    .execute()
}
