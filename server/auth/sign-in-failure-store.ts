/**
 * The count of failed sign-ins per address (table sign_in_failures), under the address's row lock: a slot taken for
 * each check before it runs, a failure recorded (locking the address, audited, when the attempts run out), the count
 * cleared on success. The rules of the delay and the lock are applied here because they must hold in the transaction
 * that reads the row: parallel checks on any instance see each other. ./sign-in-protection.ts runs the checks.
 */
import { sql, type Kysely } from "kysely"

import { recordAuditEvent } from "../audit/audit-log-store"
import type { DatabaseSchema } from "../db/schema"
import { findUserByEmail, normaliseEmail } from "./user-store"

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
function progressiveDelaySeconds(failures: number): number {
  return failures < 2 ? 0 : 2 ** (failures - 1)
}

/** What a failed password check did to the count. */
export interface FailureOutcome {
  remainingAttempts: number
  /** Seconds before the next attempt counts; 0 when none is needed. */
  nextAttemptDelay: number
  locked: boolean
  retryAfterSeconds: number
}

export type Reservation = { allowed: true } | { allowed: false; reason: "locked" | "delay"; retryAfterSeconds: number }

/** A password check takes well under a second: a slot held longer belongs to a request that died. */
const CHECK_SLOT_TIMEOUT_MS = 30_000

/**
 * Takes a slot for one password check of this address, under a row lock, before the password is checked. Every
 * check under way could fail, so the failures and the checks under way together never pass the attempts left:
 * a parallel burst gets at most that many checks, while parallel correct sign-ins do not count as failures.
 */
export async function reserveCheck(db: Db, email: string, limits: SignInLimits, now: number): Promise<Reservation> {
  const key = normaliseEmail(email)
  return db.transaction().execute(async (trx) => {
    // The address's row, made if missing and locked in the same statement: a first attempt must not race a second, and
    // a success that deletes the row between an insert and a select (another instance, another connection) cannot
    // leave this attempt without one.
    const row = await trx
      .insertInto("sign_in_failures")
      .values({ email: key, failures: 0, last_failure_at: new Date(now), locked_until: null })
      .onConflict((conflict) => conflict.column("email").doUpdateSet((eb) => ({ email: eb.ref("excluded.email") })))
      .returningAll()
      .executeTakeFirstOrThrow()
    const lockedUntil = row.locked_until?.getTime()
    if (lockedUntil !== undefined && lockedUntil > now) {
      return { allowed: false, reason: "locked", retryAfterSeconds: Math.ceil((lockedUntil - now) / 1000) }
    }
    // A lock that has run out starts the count afresh.
    const failures = lockedUntil !== undefined ? 0 : row.failures
    // No delay is no wait: a row just made by a request of another connection or instance, whose clock read came a
    // moment later than this one's, must not hold this attempt up.
    const delayMs = progressiveDelaySeconds(failures) * 1000
    const waitUntil = row.last_failure_at.getTime() + delayMs
    if (delayMs > 0 && waitUntil > now) return { allowed: false, reason: "delay", retryAfterSeconds: Math.ceil((waitUntil - now) / 1000) }
    const fresh = row.checks_started_at !== null && now - row.checks_started_at.getTime() <= CHECK_SLOT_TIMEOUT_MS
    const inFlight = fresh ? row.checks_in_flight : 0
    if (failures + inFlight >= limits.attempts) return { allowed: false, reason: "delay", retryAfterSeconds: 1 }
    await trx
      .updateTable("sign_in_failures")
      .set({ failures, locked_until: null, checks_in_flight: inFlight + 1, checks_started_at: new Date(now) })
      .where("email", "=", key)
      .execute()
    return { allowed: true }
  })
}

/**
 * Records a failed check and gives its slot back; the failure that uses up the attempts locks the address, and the
 * audit log records the lockout in the same transaction (by the system, from the address that tried; the account when
 * the address has one, and the address either way).
 */
export async function recordFailedCheck(db: Db, email: string, limits: SignInLimits, now: number, ip: string | null): Promise<FailureOutcome> {
  const key = normaliseEmail(email)
  const failures = await db.transaction().execute(async (trx) => {
    // An upsert: a success in between may have cleared the row, and this failure still counts.
    const row = await trx
      .insertInto("sign_in_failures")
      .values({ email: key, failures: 1, last_failure_at: new Date(now), locked_until: null })
      .onConflict((conflict) =>
        conflict.column("email").doUpdateSet((update) => ({
          failures: update("sign_in_failures.failures", "+", 1),
          checks_in_flight: sql<number>`greatest(sign_in_failures.checks_in_flight - 1, 0)`,
          last_failure_at: new Date(now)
        }))
      )
      .returning(["failures"])
      .executeTakeFirstOrThrow()
    if (row.failures >= limits.attempts) {
      await trx.updateTable("sign_in_failures").set({ locked_until: new Date(now + limits.lockoutMs) }).where("email", "=", key).execute()
      const account = await findUserByEmail(trx, key)
      const detail = { email: key, failures: row.failures, lockedForSeconds: Math.ceil(limits.lockoutMs / 1000) }
      await recordAuditEvent(trx, { kind: "account.locked", actorId: null, subjectId: account?.id ?? null, target: key, detail, ip }, new Date(now))
    }
    return row.failures
  })
  const remainingAttempts = Math.max(0, limits.attempts - failures)
  return remainingAttempts === 0
    ? { remainingAttempts, nextAttemptDelay: 0, locked: true, retryAfterSeconds: Math.ceil(limits.lockoutMs / 1000) }
    : { remainingAttempts, nextAttemptDelay: progressiveDelaySeconds(failures), locked: false, retryAfterSeconds: 0 }
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("email", "=", normaliseEmail(email)).execute()
}
