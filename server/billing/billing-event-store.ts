/** The payment provider's webhook events already processed: each is applied once. Queries only. */
import type { Kysely, Transaction } from "kysely"

import type { DatabaseSchema } from "../db/schema"

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>

export async function isEventRecorded(db: Db, eventId: string): Promise<boolean> {
  return Boolean(await db.selectFrom("billing_events").select("event_id").where("event_id", "=", eventId).executeTakeFirst())
}

/**
 * Records the event as processed; false when it already was (a replay, or a retry racing the first delivery). Run in
 * the transaction of the change the event makes, so a change that fails leaves the event to the provider's retry.
 */
export async function recordEvent(db: Db, event: { id: string; type: string }, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto("billing_events")
    .values({ event_id: event.id, type: event.type, received_at: at })
    .onConflict((conflict) => conflict.column("event_id").doNothing())
    .returning("event_id")
    .executeTakeFirst()
  return Boolean(inserted)
}
