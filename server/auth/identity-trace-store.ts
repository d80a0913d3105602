/**
 * The traces of identities (table identity_traces): what a deleted account leaves, and which account holds the free
 * trial of an identity. A trace is keyed by an HMAC-SHA256 of "email:" + the address's mailbox (./mailbox.ts: the
 * sub-address and Gmail's dots removed), of "google:" + the Google uid, and of "card:" + the fingerprint Stripe gives a
 * card, so the table holds no readable address or card: without the server's key nobody can tell which addresses had an
 * account. The HMAC key is derived from TOKEN_SECRET with a fixed label; rotating TOKEN_SECRET forgets every trace, the
 * accepted price of keeping no second secret (at worst, a deleted account's owner gets one more trial).
 *
 * Traces written before the mailbox rule are keyed by the address trimmed and lower-cased. An HMAC cannot be re-keyed
 * without the address, so those are looked up under that key too (legacyTraceKeys) and copied to the mailbox's key when
 * an account of the address is made (account-traces.ts). For most addresses both keys are the same.
 */
import { createHmac } from "node:crypto"

import { sql } from "kysely"

import { mailboxOf } from "./mailbox"

import type { Db } from "../db/transaction"
import { normaliseEmail } from "./user-store"

const KEY_LABEL = "image-query-ai identity traces v1"

function keyedHash(tokenSecret: string): (value: string) => string {
  const key = createHmac("sha256", tokenSecret).update(KEY_LABEL).digest()
  return (value) => createHmac("sha256", key).update(value).digest("base64url")
}

/** The keys of an identity: its mailbox, and its Google uid when it has one. */
export function traceKeys(tokenSecret: string, identity: { email: string; googleUid: string | null }): string[] {
  const hash = keyedHash(tokenSecret)
  return [hash(`email:${mailboxOf(identity.email)}`), ...(identity.googleUid ? [hash(`google:${identity.googleUid}`)] : [])]
}

/** The key traces of this address were written under before the mailbox rule, when it is another key. */
export function legacyTraceKeys(tokenSecret: string, email: string): string[] {
  const address = normaliseEmail(email)
  return address === mailboxOf(email) ? [] : [keyedHash(tokenSecret)(`email:${address}`)]
}

/** The key of a card, by the fingerprint Stripe gives it: the same for every account that enters that card. */
export function cardTraceKey(tokenSecret: string, fingerprint: string): string {
  return keyedHash(tokenSecret)(`card:${fingerprint}`)
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
  if (!keys.length) return { trialUsedAt: null, usage: null }
  const rows = await db.selectFrom("identity_traces").selectAll().where("key_hash", "in", keys).execute()
  const trialUses = rows.map((row) => row.trial_used_at).filter((date): date is Date => date !== null)
  const months = rows.filter((row) => row.usage_month !== null).sort((a, b) => b.usage_month!.localeCompare(a.usage_month!))
  const latest = months[0]?.usage_month
  return {
    trialUsedAt: trialUses.length ? new Date(Math.min(...trialUses.map((date) => date.getTime()))) : null,
    usage: latest ? { month: latest, used: Math.max(...months.filter((row) => row.usage_month === latest).map((row) => row.usage_used)) } : null
  }
}

/** The keys among these whose trial another account had (or a deleted one: its traces name no account). */
export async function trialsHeldByOthers(db: Db, keys: string[], userId: string): Promise<string[]> {
  if (!keys.length) return []
  const rows = await db.selectFrom("identity_traces").select(["key_hash", "trial_user_id"]).where("key_hash", "in", keys).where("trial_used_at", "is not", null).execute()
  return rows.filter((row) => row.trial_user_id !== userId).map((row) => row.key_hash)
}

/**
 * Claims the trial of each key for the account: a key's trace records the trial and its holder unless it had a trial
 * already. Answers the keys whose trial another account had (none: the account holds them all now). Parallel claims of
 * one key are made one after another on its row (insert … on conflict waits for the transaction that wrote it), so one
 * account holds it; the keys are claimed in one order, so that two claims cannot wait for each other.
 */
export async function claimTrials(db: Db, keys: string[], userId: string, at: Date): Promise<string[]> {
  const heldByOthers: string[] = []
  for (const key of [...new Set(keys)].sort()) {
    const row = await db
      .insertInto("identity_traces")
      .values({ key_hash: key, trial_used_at: at, trial_user_id: userId, usage_month: null, usage_used: 0, updated_at: at })
      .onConflict((conflict) =>
        conflict.column("key_hash").doUpdateSet({
          trial_user_id: sql`case when identity_traces.trial_used_at is null then excluded.trial_user_id else identity_traces.trial_user_id end`,
          trial_used_at: sql`coalesce(identity_traces.trial_used_at, excluded.trial_used_at)`,
          updated_at: at
        })
      )
      .returning("trial_user_id")
      .executeTakeFirstOrThrow()
    if (row.trial_user_id !== userId) heldByOthers.push(key)
  }
  return heldByOthers
}
