import type { Kysely, Transaction } from "kysely"

import type { DatabaseSchema } from "./schema"

export type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>

/**
 * Runs `work` in the caller's transaction when `db` is one, else in a new one: a store's multi-statement change can
 * then join the transaction of a larger change (an e-mail queued with it, say). Kysely refuses a nested transaction().
 */
export function inTransaction<T>(db: Db, work: (trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DatabaseSchema>) : db.transaction().execute(work)
}
