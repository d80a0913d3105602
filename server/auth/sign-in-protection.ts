import type { Kysely } from "kysely"

import type { DatabaseSchema } from "../db/schema"
import { normaliseEmail } from "./users"

type Db = Kysely<DatabaseSchema>

export interface SignInLimits {
  /** Failures that lock the address (policy rateLimitAttempts). */
  attempts: number
  /** How long a lock lasts, ms (policy lockoutDuration). */
  lockoutMs: number
}

/**
 * Seconds to wait after the n-th consecutive failure before the next try counts: none for the
 * first two (typos happen), then doubling from 2 s. The lock takes over at `attempts`.
 */
export function progressiveDelaySeconds(failures: number): number {
  return failures < 2 ? 0 : 2 ** (failures - 1)
}

export type Gate =
  | { allowed: true; failures: number }
  | { allowed: false; reason: "locked"; retryAfterSeconds: number }
  | { allowed: false; reason: "delay"; retryAfterSeconds: number }

/** Whether a sign-in attempt for this address may be checked now. */
export async function checkSignInGate(db: Db, email: string, now: number): Promise<Gate> {
  const row = await db.selectFrom("sign_in_failures").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst()
  if (!row) return { allowed: true, failures: 0 }
  if (row.locked_until && row.locked_until.getTime() > now) {
    return { allowed: false, reason: "locked", retryAfterSeconds: Math.ceil((row.locked_until.getTime() - now) / 1000) }
  }
  if (row.locked_until) {
    // The lock has run out: start afresh.
    await clearSignInFailures(db, email)
    return { allowed: true, failures: 0 }
  }
  const waitUntil = row.last_failure_at.getTime() + progressiveDelaySeconds(row.failures) * 1000
  if (waitUntil > now) return { allowed: false, reason: "delay", retryAfterSeconds: Math.ceil((waitUntil - now) / 1000) }
  return { allowed: true, failures: row.failures }
}

export interface FailureOutcome {
  failures: number
  remainingAttempts: number
  /** Seconds before the next attempt counts; 0 when none is needed. */
  nextAttemptDelay: number
  locked: boolean
  retryAfterSeconds: number
}

export async function recordSignInFailure(db: Db, email: string, limits: SignInLimits, now: number): Promise<FailureOutcome> {
  const key = normaliseEmail(email)
  const row = await db
    .insertInto("sign_in_failures")
    .values({ email: key, failures: 1, last_failure_at: new Date(now), locked_until: null })
    .onConflict((conflict) =>
      conflict.column("email").doUpdateSet((update) => ({
        failures: update("sign_in_failures.failures", "+", 1),
        last_failure_at: new Date(now)
      }))
    )
    .returning(["failures"])
    .executeTakeFirstOrThrow()
  const failures = row.failures
  const remainingAttempts = Math.max(0, limits.attempts - failures)
  if (remainingAttempts === 0) {
    await db.updateTable("sign_in_failures").set({ locked_until: new Date(now + limits.lockoutMs) }).where("email", "=", key).execute()
    return { failures, remainingAttempts, nextAttemptDelay: 0, locked: true, retryAfterSeconds: Math.ceil(limits.lockoutMs / 1000) }
  }
  return { failures, remainingAttempts, nextAttemptDelay: progressiveDelaySeconds(failures), locked: false, retryAfterSeconds: 0 }
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("email", "=", normaliseEmail(email)).execute()
}
