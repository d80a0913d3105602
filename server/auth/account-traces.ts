/**
 * One free trial per person, and a deleted account's month of requests outliving it. Deleting an account and
 * registering again (with the address, a sub-address of it or, at Gmail, the address with other dots; or at once with
 * the same Google account) gives no new trial and no fresh quota: the account's traces are written in the transaction
 * that deletes it, and carried over in the transaction that creates (or links) an account of the mailbox or the Google
 * uid. A live account's trial is a trace too, held by that account: another account of the same mailbox, Google uid or
 * (in Stripe mode) card gets none.
 */
import type { FastifyInstance } from "fastify"
import type { Transaction } from "kysely"

import { monthKey } from "~core/time"

import { findRecord, markTrialUsed } from "../billing/subscription-store"
import type { DatabaseSchema } from "../db/schema"
import type { Db } from "../db/transaction"
import { raiseUsage, usedThisMonth } from "../quota/quota-store"
import { cardTraceKey, claimTrials, findTrace, legacyTraceKeys, recordTrace, traceKeys, trialsHeldByOthers } from "./identity-trace-store"
import type { UserRow } from "./user-store"

type Trx = Transaction<DatabaseSchema>
type Identity = Pick<UserRow, "id" | "email" | "google_uid">

const keysOf = (app: FastifyInstance, user: Pick<UserRow, "email" | "google_uid">) => traceKeys(app.tokenSecret, { email: user.email, googleUid: user.google_uid })

/** Records what the account leaves behind: its trial's use and this month's count. */
export async function keepTraces(app: FastifyInstance, trx: Trx, user: UserRow): Promise<void> {
  const now = app.clock()
  const record = await findRecord(trx, user.id)
  const used = await usedThisMonth(trx, user.id, now)
  const trace = { trialUsedAt: record?.trial_started_at ?? null, usage: used > 0 ? { month: monthKey(now), used } : null }
  if (trace.trialUsedAt || trace.usage) await recordTrace(trx, keysOf(app, user), trace, new Date(now))
}

/** Gives a new (or newly linked) account what an earlier account of its mailbox or Google uid left, or the trial it had. */
export async function carryTraces(app: FastifyInstance, trx: Trx, user: Identity): Promise<void> {
  const now = new Date(app.clock())
  // A trace written under the address's key of before the mailbox rule is kept under the mailbox's key from now on.
  const legacy = await findTrace(trx, legacyTraceKeys(app.tokenSecret, user.email))
  if (legacy.trialUsedAt || legacy.usage) await recordTrace(trx, keysOf(app, user), legacy, now)
  const trace = await findTrace(trx, keysOf(app, user))
  if (trace.trialUsedAt) await markTrialUsed(trx, user.id, trace.trialUsedAt, app.config.billingMode, now)
  if (trace.usage && trace.usage.month === monthKey(now.getTime())) await raiseUsage(trx, user.id, trace.usage.month, trace.usage.used, now)
}

/** What another account of the same person had the trial with: its mailbox or Google uid ("identity"), or the card. */
export type TrialHeldBy = "identity" | "card"

const trialKeysOf = (app: FastifyInstance, user: Identity, cardFingerprint: string | null) => {
  const card = cardFingerprint ? cardTraceKey(app.tokenSecret, cardFingerprint) : null
  return { keys: [...keysOf(app, user), ...(card ? [card] : [])], card }
}

const heldBy = (held: string[], card: string | null): TrialHeldBy | null => (held.some((key) => key !== card) ? "identity" : held.length ? "card" : null)

/** Whether another account (or a deleted one) of the person had the trial, as committed now; nothing is written. */
export async function trialHeldElsewhere(app: FastifyInstance, db: Db, user: Identity, cardFingerprint: string | null = null): Promise<TrialHeldBy | null> {
  const { keys, card } = trialKeysOf(app, user, cardFingerprint)
  return heldBy(await trialsHeldByOthers(db, [...keys, ...legacyTraceKeys(app.tokenSecret, user.email)], user.id), card)
}

/**
 * Claims the trial of the account's mailbox, Google uid and card (in Stripe mode) in the caller's transaction, which
 * starts the trial. Null when the account holds them all now; else what another account had it with: the caller refuses
 * the trial (and may keep the claims it made: they are this person's).
 */
export async function claimTrial(app: FastifyInstance, trx: Trx, user: Identity, cardFingerprint: string | null = null): Promise<TrialHeldBy | null> {
  if ((await trialsHeldByOthers(trx, legacyTraceKeys(app.tokenSecret, user.email), user.id)).length) return "identity"
  const { keys, card } = trialKeysOf(app, user, cardFingerprint)
  return heldBy(await claimTrials(trx, keys, user.id, new Date(app.clock())), card)
}
