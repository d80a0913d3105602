/** Password and second-step checks counted per address (./sign-in-failure-store.ts): what sign-in and a change of a sign-in method answer. */
import type { FastifyInstance } from "fastify"

import { ApiError } from "../http/errors"
import { loadPasswordPolicy } from "../password-policy/password-policy-store"
import { spendVerificationTime, verifyPassword } from "./passwords"
import { clearSignInFailures, recordFailedCheck, reserveCheck, type FailureOutcome } from "./sign-in-failure-store"
import { findUserByEmail, type UserRow } from "./user-store"

/**
 * Runs `check` (a password comparison, or a second step's code) as one counted attempt for this address. Throws 423
 * ACCOUNT_LOCKED or 429 PROGRESSIVE_DELAY without running it while the address must wait; a
 * success clears the count, a failure is answered with what it did to the count.
 */
export async function countedPasswordCheck(
  app: FastifyInstance,
  email: string,
  ip: string | null,
  check: () => Promise<boolean>
): Promise<{ matches: true } | { matches: false; outcome: FailureOutcome }> {
  const db = app.database.db
  const policy = await loadPasswordPolicy(app)
  const limits = { attempts: policy.rateLimitAttempts, lockoutMs: policy.lockoutDuration }
  const reservation = await reserveCheck(db, email, limits, app.clock())
  if (!reservation.allowed) {
    if (reservation.reason === "locked") {
      const minutes = Math.ceil(reservation.retryAfterSeconds / 60)
      throw new ApiError(423, "ACCOUNT_LOCKED", `Account temporarily locked. Please try again in ${minutes} minutes or reset your password.`, {
        retryAfter: reservation.retryAfterSeconds
      })
    }
    throw new ApiError(429, "PROGRESSIVE_DELAY", `Please wait ${reservation.retryAfterSeconds} seconds before trying again.`, {
      retryAfter: reservation.retryAfterSeconds,
      nextAttemptDelay: reservation.retryAfterSeconds
    })
  }
  if (!(await check())) return { matches: false, outcome: await recordFailedCheck(db, email, limits, app.clock(), ip) }
  await clearSignInFailures(db, email)
  return { matches: true }
}

/**
 * Checks an address and password under the sign-in protection and answers the user whose password
 * matched. Throws 423 ACCOUNT_LOCKED or 429 PROGRESSIVE_DELAY before any check while the address
 * must wait, and 401 INVALID_CREDENTIALS on a failure, which counts; an unknown address is
 * answered like a wrong password, after the same hashing time. A success clears the count.
 */
export async function checkPasswordSignIn(app: FastifyInstance, email: string, password: string, ip: string | null): Promise<UserRow> {
  let user: UserRow | undefined
  const result = await countedPasswordCheck(app, email, ip, async () => {
    user = await findUserByEmail(app.database.db, email)
    return user?.password_hash ? verifyPassword(user.password_hash, password) : (await spendVerificationTime(password), false)
  })
  if (!result.matches) {
    const { outcome } = result
    throw new ApiError(
      401,
      "INVALID_CREDENTIALS",
      outcome.locked
        ? "Invalid email or password. Account temporarily locked."
        : `Invalid email or password. ${outcome.remainingAttempts} login attempts remaining.`,
      { remainingAttempts: outcome.remainingAttempts, nextAttemptDelay: outcome.nextAttemptDelay, ...(outcome.locked ? { retryAfter: outcome.retryAfterSeconds } : {}) }
    )
  }
  return user!
}

/**
 * A signed-in user's current password, before a change that needs it: the same count as sign-in
 * for the account's address, so a stolen session cannot guess the password at full speed. Throws
 * 423/429 like sign-in and 400 INVALID_CREDENTIALS for a wrong password.
 */
export async function checkCurrentPassword(app: FastifyInstance, user: UserRow, password: string, ip: string | null): Promise<void> {
  const result = await countedPasswordCheck(app, user.email, ip, async () =>
    user.password_hash ? verifyPassword(user.password_hash, password) : (await spendVerificationTime(password), false)
  )
  if (!result.matches) throw new ApiError(400, "INVALID_CREDENTIALS", "Current password is incorrect")
}
