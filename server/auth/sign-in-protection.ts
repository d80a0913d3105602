import type { FastifyInstance } from "fastify"
import type { Kysely } from "kysely"

import type { DatabaseSchema } from "../db/schema"
import { ApiError } from "../http/errors"
import { loadPasswordPolicy } from "../policy/policy-service"
import { spendVerificationTime, verifyPassword } from "./passwords"
import { findUserByEmail, normaliseEmail, type UserRow } from "./users"

type Db = Kysely<DatabaseSchema>

interface SignInLimits {
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

type Gate =
  | { allowed: true; failures: number }
  | { allowed: false; reason: "locked"; retryAfterSeconds: number }
  | { allowed: false; reason: "delay"; retryAfterSeconds: number }

/** Whether a sign-in attempt for this address may be checked now. */
async function checkSignInGate(db: Db, email: string, now: number): Promise<Gate> {
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

interface FailureOutcome {
  failures: number
  remainingAttempts: number
  /** Seconds before the next attempt counts; 0 when none is needed. */
  nextAttemptDelay: number
  locked: boolean
  retryAfterSeconds: number
}

async function recordSignInFailure(db: Db, email: string, limits: SignInLimits, now: number): Promise<FailureOutcome> {
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

/**
 * Checks an address and password under the sign-in protection and answers the user whose password
 * matched. Throws 423 ACCOUNT_LOCKED or 429 PROGRESSIVE_DELAY before any check while the address
 * must wait, and 401 INVALID_CREDENTIALS on a failure, which counts; an unknown address is
 * answered like a wrong password, after the same hashing time. A success clears the count.
 */
export async function checkPasswordSignIn(app: FastifyInstance, email: string, password: string): Promise<UserRow> {
  const db = app.database.db
  const now = app.clock()
  const gate = await checkSignInGate(db, email, now)
  if (!gate.allowed) {
    if (gate.reason === "locked") {
      const minutes = Math.ceil(gate.retryAfterSeconds / 60)
      throw new ApiError(423, "ACCOUNT_LOCKED", `Account temporarily locked. Please try again in ${minutes} minutes or reset your password.`, {
        retryAfter: gate.retryAfterSeconds
      })
    }
    throw new ApiError(429, "PROGRESSIVE_DELAY", `Please wait ${gate.retryAfterSeconds} seconds before trying again.`, {
      retryAfter: gate.retryAfterSeconds,
      nextAttemptDelay: gate.retryAfterSeconds
    })
  }

  const user = await findUserByEmail(db, email)
  const passwordMatches = user?.password_hash ? await verifyPassword(user.password_hash, password) : (await spendVerificationTime(password), false)
  if (!user || !passwordMatches) {
    const policy = await loadPasswordPolicy(app)
    const outcome = await recordSignInFailure(db, email, { attempts: policy.rateLimitAttempts, lockoutMs: policy.lockoutDuration }, now)
    throw new ApiError(
      401,
      "INVALID_CREDENTIALS",
      outcome.locked
        ? "Invalid email or password. Account temporarily locked."
        : `Invalid email or password. ${outcome.remainingAttempts} login attempts remaining.`,
      { remainingAttempts: outcome.remainingAttempts, nextAttemptDelay: outcome.nextAttemptDelay, ...(outcome.locked ? { retryAfter: outcome.retryAfterSeconds } : {}) }
    )
  }
  if (gate.failures > 0) await clearSignInFailures(db, email)
  return user
}
