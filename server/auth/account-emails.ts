import type { FastifyInstance } from "fastify"

import { RESEND_COOLDOWN_SECONDS } from "~core/api-answer"

import type { OneTimeCodePurpose } from "../db/schema"
import { tooManyAttempts } from "../http/rate-limit"
import { retryAfterSeconds, takeAll } from "../limits/limit-store"
import type { Db } from "../db/transaction"
import { EMAIL_TEMPLATES } from "../mail/email-templates"
import { queueEmail, queueRequest, type QueuedEmail } from "../mail/outbox"
import { EMAIL_VERIFICATION_CODE_LIFETIME_MS, PASSWORD_RESET_CODE_LIFETIME_MS } from "./auth-timers"
import { issueCode } from "./one-time-code-store"
import { findUserByEmail, normaliseEmail, type UserRow } from "./user-store"

const HOUR_MS = 60 * 60_000

/** Our links carry an apiKey parameter, as identity-service e-mail links do, so the site reads one link format; it is public. */
export const EMAIL_LINK_API_KEY = "image-query-ai"

/** Links to the landing page with mode and oobCode; the landing page forwards them to the verification or reset page. */
function emailLink(publicUrl: string, mode: "verifyEmail" | "resetPassword", code: string): string {
  const params = new URLSearchParams({ mode, oobCode: code, apiKey: EMAIL_LINK_API_KEY, lang: "en" })
  return `${publicUrl}/?${params.toString()}`
}

/** The e-mails that carry a one-time code: which code, which link, which template, and who may ask for one. */
const CODE_EMAILS = {
  verify_email: {
    what: "verification",
    lifetimeMs: EMAIL_VERIFICATION_CODE_LIFETIME_MS,
    mode: "verifyEmail",
    content: (name: string, link: string) =>
      EMAIL_TEMPLATES.emailVerification({ name, link, expiresInHours: EMAIL_VERIFICATION_CODE_LIFETIME_MS / 3_600_000 }),
    /** A verified account gets no new verification link. */
    sendsTo: (user: UserRow) => !user.email_verified_at,
    requestAnswer: "If an unverified account exists for this address, a new verification email is on its way."
  },
  reset_password: {
    what: "password reset",
    lifetimeMs: PASSWORD_RESET_CODE_LIFETIME_MS,
    mode: "resetPassword",
    content: (name: string, link: string) =>
      EMAIL_TEMPLATES.passwordReset({ name, link, expiresInMinutes: PASSWORD_RESET_CODE_LIFETIME_MS / 60_000 }),
    sendsTo: (_user: UserRow) => true,
    requestAnswer: "If an account exists for this address, a password reset email is on its way."
  }
} as const

/** A fresh code's e-mail for this account: the code is issued in `db`, the caller's transaction. */
async function codeEmail(app: FastifyInstance, db: Db, user: UserRow, purpose: OneTimeCodePurpose): Promise<QueuedEmail> {
  const kind = CODE_EMAILS[purpose]
  const code = await issueCode(db, user.id, purpose, kind.lifetimeMs, app.clock())
  return { to: user.email, what: kind.what, content: kind.content(user.name, emailLink(app.config.publicUrl, kind.mode, code)) }
}

/** A new verification link for this account, queued in `db`, the caller's transaction (an admin's resend). */
export async function queueVerificationEmail(app: FastifyInstance, db: Db, user: UserRow): Promise<void> {
  await queueEmail(app, db, await codeEmail(app, db, user, "verify_email"))
}

/** The welcome e-mail of an account whose address was just verified, queued in that change's transaction. */
export function queueWelcomeEmail(app: FastifyInstance, db: Db, user: UserRow): Promise<void> {
  return queueEmail(app, db, { to: user.email, what: "welcome", content: EMAIL_TEMPLATES.welcome({ name: user.name, dashboardUrl: `${app.config.publicUrl}/dashboard` }) })
}

/**
 * Link e-mails one address may be sent per hour, whoever asks: a flood from many clients stops
 * here. Counted for every request, known address or not, so a refusal reveals nothing; and
 * since the newest VALID_CODES_PER_PURPOSE links stay valid, the owner still holds working ones.
 */
export const CODE_EMAILS_PER_ADDRESS_PER_HOUR = 5

export interface CodeEmailRequests {
  /** Queues the link in `db`, the transaction that creates the account (registration's first verification e-mail). */
  queueFor(db: Db, user: UserRow): Promise<void>
  /** Counts registration's e-mail for the address and client: it starts the cooldown and the hourly count. */
  countSent(user: UserRow, client: string): Promise<void>
  /**
   * An "e-mail me a link" call: throws 429 TOO_MANY_REQUESTS while this client's cooldown for the
   * address runs or the address has had its mails for the hour, else stores the request: the outbox's worker looks
   * the address up and sends the link if it has an account that may have one. The answer is the same whether or not
   * it has, and is given before the look-up.
   */
  request(email: string, client: string): Promise<{ sent: true; message: string }>
}

/**
 * One kind of link e-mail that people ask for by address (a new verification link, a password
 * reset): at most one per address and client per RESEND_COOLDOWN_SECONDS, so one person asking
 * for another's address does not hold up the owner, and CODE_EMAILS_PER_ADDRESS_PER_HOUR per
 * address. Both count the request before any look-up, so an unknown address waits like a known
 * one; each kind has its own.
 */
export function codeEmailRequests(app: FastifyInstance, purpose: OneTimeCodePurpose): CodeEmailRequests {
  const kind = CODE_EMAILS[purpose]
  const requestKind = `${purpose} request`
  // In the shared limits: a cooldown started through one API instance holds on the others.
  const limitsOf = (address: string, client: string) => [
    { key: `code-email:${purpose}:client:${address} ${client}`, max: 1, windowMs: RESEND_COOLDOWN_SECONDS * 1000 },
    { key: `code-email:${purpose}:address:${address}`, max: CODE_EMAILS_PER_ADDRESS_PER_HOUR, windowMs: HOUR_MS }
  ]
  app.outbox.onRequest(requestKind, async (trx, address) => {
    const user = await findUserByEmail(trx, address)
    return user && kind.sendsTo(user) ? codeEmail(app, trx, user, purpose) : null
  })
  return {
    async queueFor(db, user) {
      await queueEmail(app, db, await codeEmail(app, db, user, purpose))
    },
    async countSent(user, client) {
      // Registration's own e-mail is sent whatever the counts; it starts them.
      for (const limit of limitsOf(normaliseEmail(user.email), client)) await app.limits.take(limit.key, limit.max, limit.windowMs, app.clock())
    },
    async request(email, client) {
      const address = normaliseEmail(email)
      const refused = await takeAll(app.limits, limitsOf(address, client), app.clock())
      if (refused) throw tooManyAttempts(retryAfterSeconds(refused.answer))
      await queueRequest(app, app.database.db, { address, what: requestKind })
      return { sent: true, message: kind.requestAnswer }
    }
  }
}
