/**
 * The traces a deleted account leaves (table identity_traces): queries, and the keys they are found under. A trace is
 * keyed by an HMAC-SHA256 of "email:" + the normalised address, and of "google:" + the Google uid, so the table holds
 * no readable address: without the server's key nobody can tell which addresses had an account. The HMAC key is
 * derived from TOKEN_SECRET with a fixed label; rotating TOKEN_SECRET forgets every trace, the accepted price of
 * keeping no second secret (at worst, a deleted account's owner gets one more trial).
 */
import { createHmac } from "node:crypto"

import { sql } from "kysely"

import type { Db } from "../db/transaction"
import { normaliseEmail } from "./users"

const KEY_LABEL = "image-query-ai identity traces v1"

/** The keys of an identity: its address, and its Google uid when it has one. */
export function traceKeys(tokenSecret: string, identity: { email: string; googleUid: string | null }): string[] {
  const key = createHmac("sha256", tokenSecret).update(KEY_LABEL).digest()
  const hash = (value: string) => createHmac("sha256", key).update(value).digest("base64url")
  return [hash(`email:${normaliseEmail(identity.email)}`), ...(identity.googleUid ? [hash(`google:${identity.googleUid}`)] : [])]
}

export interface Trace {
  trialUsedAt: Date | null
  /** The month's count at deletion: its UTC month and the requests used in it. */
  usage: { month: string; used: number } | null
}

/**
 * Records a trace under each key, keeping the earliest trial use and, for the month, the larger count (a later month
 * replaces an earlier one).
 */
export async function recordTrace(db: Db, keys: string[], trace: Trace, now: Date): Promise<void> {
  for (const key of keys) {
    await db
      .insertInto("identity_traces")
      .values({ key_hash: key, trial_used_at: trace.trialUsedAt, usage_month: trace.usage?.month ?? null, usage_used: trace.usage?.used ?? 0, updated_at: now })
      .onConflict((conflict) =>
        conflict.column("key_hash").doUpdateSet({
          trial_used_at: sql`least(identity_traces.trial_used_at, excluded.trial_used_at)`,
          usage_month: sql`greatest(identity_traces.usage_month, excluded.usage_month)`,
          usage_used: sql`case
            when excluded.usage_month is null then identity_traces.usage_used
            when identity_traces.usage_month is null or excluded.usage_month > identity_traces.usage_month then excluded.usage_used
            when excluded.usage_month = identity_traces.usage_month then greatest(identity_traces.usage_used, excluded.usage_used)
            else identity_traces.usage_used end`,
          updated_at: now
        })
      )
      .execute()
  }
}

/** What the traces under these keys say together: the earliest trial use, the latest month's largest count. */
export async function findTrace(db: Db, keys: string[]): Promise<Trace> {
  const rows = await db.selectFrom("identity_traces").selectAll().where("key_hash", "in", keys).execute()
  const trialUses = rows.map((row) => row.trial_used_at).filter((date): date is Date => date !== null)
  const months = rows.filter((row) => row.usage_month !== null).sort((a, b) => b.usage_month!.localeCompare(a.usage_month!))
  const latest = months[0]?.usage_month
  return {
    trialUsedAt: trialUses.length ? new Date(Math.min(...trialUses.map((date) => date.getTime()))) : null,
    usage: latest ? { month: latest, used: Math.max(...months.filter((row) => row.usage_month === latest).map((row) => row.usage_used)) } : null
  }
}
