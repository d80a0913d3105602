import { sql, type Kysely } from "kysely"

import type { DatabaseSchema } from "../db/schema"
import type { LimitAnswer, LimitStore } from "./limit-store"

/**
 * Limits in the `limit_events` table: one row per key with the times of its events in the window, oldest first.
 * INSERT … ON CONFLICT DO UPDATE locks the key's row, so parallel takes on any instance are counted one after
 * another, each against the events the others left.
 */
export function databaseLimitStore(db: Kysely<DatabaseSchema>): LimitStore {
  return {
    async take(key, max, windowMs, now): Promise<LimitAnswer> {
      const at = new Date(now)
      const cutoff = new Date(now - windowMs)
      const expires = new Date(now + windowMs)
      const recent = sql<Date[]>`array(select hit from unnest(limit_events.hits) as hit where hit > ${cutoff} order by hit)`
      const counted = await sql<{ count: number }>`
        insert into limit_events (key, hits, expires_at) values (${key}, array[${at}::timestamptz], ${expires})
        on conflict (key) do update set hits = array_append(${recent}, ${at}::timestamptz), expires_at = ${expires}
        where cardinality(${recent}) < ${max}
        returning cardinality(hits) as count`.execute(db)
      const row = counted.rows[0]
      if (row) return { taken: true, count: Number(row.count) }
      const stored = await sql<{ hits: Date[] }>`
        select array(select hit from unnest(hits) as hit where hit > ${cutoff} order by hit) as hits from limit_events where key = ${key}`.execute(db)
      const hits = stored.rows[0]?.hits ?? []
      // The event whose leaving the window makes room for one more.
      const freeing = hits[hits.length - max]
      return { taken: false, retryAfterMs: freeing ? Math.max(0, new Date(freeing).getTime() + windowMs - now) : 0 }
    },
    async release(key) {
      await sql`update limit_events set hits = trim_array(hits, 1) where key = ${key} and cardinality(hits) > 0`.execute(db)
    },
    async sweep(now) {
      await db.deleteFrom("limit_events").where("expires_at", "<", new Date(now)).execute()
    },
    async close() {}
  }
}
