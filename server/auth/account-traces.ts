/**
 * A deleted account's free trial and month of requests outlive it: deleting an account and registering again (with
 * the address, or at once with the same Google account) gives no new trial and no fresh quota. The account's traces
 * are written in the transaction that deletes it, and carried over in the transaction that creates (or links) an
 * account with the address or the Google uid.
 */
import type { FastifyInstance } from "fastify"
import type { Transaction } from "kysely"

import { monthKey, raiseUsage, usedThisMonth } from "../analyze/quota"
import { findRecord, markTrialUsed } from "../billing/subscriptions"
import type { DatabaseSchema } from "../db/schema"
import { findTrace, recordTrace, traceKeys } from "./identity-traces"
import type { UserRow } from "./users"

type Trx = Transaction<DatabaseSchema>

const keysOf = (app: FastifyInstance, user: Pick<UserRow, "email" | "google_uid">) => traceKeys(app.tokenSecret, { email: user.email, googleUid: user.google_uid })

/** Records what the account leaves behind: its trial's use and this month's count. */
export async function keepTraces(app: FastifyInstance, trx: Trx, user: UserRow): Promise<void> {
  const now = app.clock()
  const record = await findRecord(trx, user.id)
  const used = await usedThisMonth(trx, user.id, now)
  const trace = { trialUsedAt: record?.trial_started_at ?? null, usage: used > 0 ? { month: monthKey(now), used } : null }
  if (trace.trialUsedAt || trace.usage) await recordTrace(trx, keysOf(app, user), trace, new Date(now))
}

/** Gives a new (or newly linked) account what an earlier account of its address or Google uid left. */
export async function carryTraces(app: FastifyInstance, trx: Trx, user: Pick<UserRow, "id" | "email" | "google_uid">): Promise<void> {
  const now = app.clock()
  const trace = await findTrace(trx, keysOf(app, user))
  if (trace.trialUsedAt) await markTrialUsed(trx, user.id, trace.trialUsedAt, app.config.billingMode, new Date(now))
  if (trace.usage && trace.usage.month === monthKey(now)) await raiseUsage(trx, user.id, trace.usage.month, trace.usage.used, new Date(now))
}
