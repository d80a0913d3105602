/**
 * Two-step sign-in: an authenticator app set up and confirmed with a proof of the person, recovery codes, and the
 * second step of a sign-in. Each change is e-mailed to the owner and audited in its own transaction. A wrong code at
 * sign-in counts toward the address's lockout as a wrong password does (countedPasswordCheck), under any burst.
 */
import type { FastifyInstance } from "fastify"

import { MFA_MAX_WRONG_CODES, MFA_TOKEN_LIFETIME_MS, type MfaMethod, type MfaRequiredAnswer } from "~core/two-step"

import { recordAuditEvent } from "../../audit/audit-log-store"
import type { Db } from "../../db/transaction"
import { ApiError, validationFailed } from "../../http/errors"
import { EMAIL_TEMPLATES } from "../../mail/email-templates"
import { queueEmail } from "../../mail/outbox"
import { signIn } from "../account-service"
import type { Authenticated } from "../authenticate"
import { refuseExtensionSession, requireProofOfPerson } from "../sign-in-methods"
import { countedPasswordCheck } from "../sign-in-protection"
import { hashToken, randomToken } from "../tokens"
import { findUserById, type UserRow } from "../user-store"
import { codeStep, newAuthenticator, newRecoveryCodes, recoveryCodeHash, recoveryCodeHashes } from "./authenticator"
import * as store from "./mfa-store"
import { countPasskeys } from "./passkey-store"
import { open, seal } from "./secret-box"

const sealPurpose = (userId: string) => `totp:${userId}`
const invalidCode = () => new ApiError(400, "INVALID_CODE", "That code is not the one your authenticator app shows now. Check the app and try again.")
const notEnabled = () => new ApiError(409, "MFA_NOT_ENABLED", "Two-step sign-in is not turned on for this account.")

/** Whether the account has a second factor: what ADMIN_MFA and an organisation's requireMfa ask of a person. */
export function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return store.hasSecondFactor(db, userId)
}

export async function mfaStatus(app: FastifyInstance, userId: string) {
  const db = app.database.db
  const [totp, recoveryCodesLeft, passkeys] = await Promise.all([store.hasEnabledAuthenticator(db, userId), store.recoveryCodesLeft(db, userId), countPasskeys(db, userId)])
  return { totp, recoveryCodesLeft, passkeys }
}

/** A new secret for the app, awaiting its first code; the proof of the person first, never from the extension. */
export async function setUpAuthenticator(app: FastifyInstance, auth: Authenticated, currentPassword: string | undefined, ip: string | null) {
  refuseExtensionSession(auth)
  if (await store.hasEnabledAuthenticator(app.database.db, auth.user.id)) throw new ApiError(409, "MFA_ALREADY_ENABLED", "Two-step sign-in is already on. Turn it off first to use another app.")
  await requireProofOfPerson(app, auth, currentPassword, { field: "currentPassword", action: "set up two-step sign-in", ip })
  const authenticator = await newAuthenticator(auth.user.email)
  const saved = await store.saveUnconfirmedSecret(app.database.db, auth.user.id, seal(authenticator.secret, app.sealingKeys, sealPurpose(auth.user.id)), new Date(app.clock()))
  if (!saved) throw new ApiError(409, "MFA_ALREADY_ENABLED", "Two-step sign-in is already on. Turn it off first to use another app.")
  return authenticator
}

/** The step of a code of the account's app, or null when it is not one. */
function stepOf(app: FastifyInstance, factor: { user_id: string; secret_sealed: string }, code: string): number | null {
  return codeStep(open(factor.secret_sealed, app.sealingKeys, sealPurpose(factor.user_id)), code, app.clock())
}

function tell(app: FastifyInstance, db: Db, user: UserRow, change: "on" | "off" | "recovery-code", codesLeft?: number) {
  const content = EMAIL_TEMPLATES.twoStepChanged({ name: user.name, change, codesLeft, securityUrl: `${app.config.publicUrl}/dashboard` })
  return queueEmail(app, db, { to: user.email, what: `two-step sign-in ${change}`, content })
}

/** New recovery codes in place of all earlier ones, in the caller's transaction; the codes, shown once. */
async function issueRecoveryCodes(app: FastifyInstance, db: Db, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes()
  await store.replaceRecoveryCodes(db, userId, codes.map((code) => recoveryCodeHash(code, app.sealingKeys[0])))
  return codes
}

/** The first code confirms the app: two-step sign-in is on, with its recovery codes. */
export async function enableAuthenticator(app: FastifyInstance, auth: Authenticated, code: string, ip: string | null): Promise<{ recoveryCodes: string[] }> {
  refuseExtensionSession(auth)
  const factor = await store.findAuthenticator(app.database.db, auth.user.id)
  if (!factor) throw new ApiError(409, "MFA_SETUP_REQUIRED", "Set up your authenticator app first.")
  if (factor.enabled_at) throw new ApiError(409, "MFA_ALREADY_ENABLED", "Two-step sign-in is already on.")
  const step = stepOf(app, factor, code)
  if (step === null) throw invalidCode()
  const now = new Date(app.clock())
  return app.database.db.transaction().execute(async (trx) => {
    if (!(await store.enableAuthenticator(trx, auth.user.id, step, now))) throw new ApiError(409, "MFA_ALREADY_ENABLED", "Two-step sign-in is already on.")
    const recoveryCodes = await issueRecoveryCodes(app, trx, auth.user.id)
    await recordAuditEvent(trx, { kind: "two_step.enabled", actorId: auth.user.id, subjectId: auth.user.id, detail: { method: "totp" }, ip }, now)
    await tell(app, trx, auth.user, "on")
    return { recoveryCodes }
  })
}

/**
 * A current code of the enabled app, used once (a code already used is refused for the rest of its window). Counted
 * toward the address's lockout like a password: a stolen session with the password cannot try codes at full speed.
 */
async function requireCurrentCode(app: FastifyInstance, user: UserRow, code: string, ip: string | null): Promise<void> {
  const factor = await store.findAuthenticator(app.database.db, user.id)
  if (!factor?.enabled_at) throw notEnabled()
  const result = await countedPasswordCheck(app, user.email, ip, async () => {
    const step = stepOf(app, factor, code)
    return step !== null && store.acceptStep(app.database.db, user.id, step)
  })
  if (!result.matches) throw invalidCode()
}

export async function replaceRecoveryCodes(app: FastifyInstance, auth: Authenticated, code: string, ip: string | null): Promise<{ recoveryCodes: string[] }> {
  refuseExtensionSession(auth)
  await requireCurrentCode(app, auth.user, code, ip)
  const now = new Date(app.clock())
  return app.database.db.transaction().execute(async (trx) => {
    const recoveryCodes = await issueRecoveryCodes(app, trx, auth.user.id)
    await recordAuditEvent(trx, { kind: "two_step.recovery_codes_replaced", actorId: auth.user.id, subjectId: auth.user.id, detail: {}, ip }, now)
    return { recoveryCodes }
  })
}

export async function disableAuthenticator(app: FastifyInstance, auth: Authenticated, input: { currentPassword?: string; code: string }, ip: string | null) {
  refuseExtensionSession(auth)
  if (auth.user.password_hash && input.currentPassword === undefined) throw validationFailed(["currentPassword: Current password is required"])
  // The code first: a right password clears the address's count, so checked after it a wrong code would never add up.
  await requireCurrentCode(app, auth.user, input.code, ip)
  await requireProofOfPerson(app, auth, input.currentPassword, { field: "currentPassword", action: "turn off two-step sign-in", ip })
  const now = new Date(app.clock())
  await app.database.db.transaction().execute(async (trx) => {
    await store.removeSecondFactor(trx, auth.user.id)
    await recordAuditEvent(trx, { kind: "two_step.disabled", actorId: auth.user.id, subjectId: auth.user.id, detail: { method: "totp" }, ip }, now)
    await tell(app, trx, auth.user, "off")
  })
  return { totp: false as const }
}

/** A sign-in whose first step passed: the session, or for an account with a second factor the step it waits for. */
export async function beginSignIn(app: FastifyInstance, user: UserRow): Promise<Awaited<ReturnType<typeof signIn>> | MfaRequiredAnswer> {
  const db = app.database.db
  const [totp, passkeys] = await Promise.all([store.hasEnabledAuthenticator(db, user.id), countPasskeys(db, user.id)])
  if (!totp && passkeys === 0) return signIn(app, user)
  const mfaToken = randomToken()
  await store.createChallenge(db, hashToken(mfaToken), user.id, new Date(app.clock() + MFA_TOKEN_LIFETIME_MS), new Date(app.clock()))
  const methods: MfaMethod[] = [...(totp ? (["totp", "recovery_code"] as const) : []), ...(passkeys > 0 ? (["passkey"] as const) : [])]
  return { mfaRequired: true, mfaToken, methods }
}

const signInAgain = () => new ApiError(401, "MFA_TOKEN_INVALID", "This sign-in has expired or ended. Please sign in again.")

/**
 * The second step: a code of the app or a recovery code for the sign-in `mfaToken` started. Counted toward the
 * address's lockout; the token dies after MFA_MAX_WRONG_CODES wrong codes, at its first success, or after 5 minutes.
 */
export async function completeSignIn(app: FastifyInstance, input: { mfaToken: string; code?: string; recoveryCode?: string }, ip: string | null) {
  const db = app.database.db
  const tokenHash = hashToken(input.mfaToken)
  const challenge = await store.findChallenge(db, tokenHash, new Date(app.clock()))
  const user = challenge && (await findUserById(db, challenge.user_id))
  if (!challenge || !user) throw signInAgain()
  // An account whose second factor is a passkey only has no code to give: every code is wrong (POST /api/auth/passkeys/sign-in).
  const factor = await store.findAuthenticator(db, user.id)
  const result = await countedPasswordCheck(app, user.email, ip, async () => {
    if (input.recoveryCode !== undefined) return store.useRecoveryCode(db, user.id, recoveryCodeHashes(input.recoveryCode, app.sealingKeys), new Date(app.clock()))
    const step = factor?.enabled_at ? stepOf(app, factor, input.code ?? "") : null
    return step !== null && store.acceptStep(db, user.id, step)
  })
  if (!result.matches) {
    const wrong = await store.countWrongCode(db, tokenHash, MFA_MAX_WRONG_CODES)
    if (wrong === null || wrong >= MFA_MAX_WRONG_CODES) throw new ApiError(401, "MFA_TOKEN_INVALID", "Too many wrong codes. Please sign in again.")
    const left = MFA_MAX_WRONG_CODES - wrong
    throw new ApiError(401, "INVALID_CODE", `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`, { remainingAttempts: left })
  }
  if (!(await store.consumeChallenge(db, tokenHash))) throw signInAgain()
  if (input.recoveryCode !== undefined) {
    const now = new Date(app.clock())
    await db.transaction().execute(async (trx) => {
      await recordAuditEvent(trx, { kind: "two_step.recovery_code_used", actorId: user.id, subjectId: user.id, detail: {}, ip }, now)
      await tell(app, trx, user, "recovery-code", await store.recoveryCodesLeft(trx, user.id))
    })
  }
  return signIn(app, user)
}
