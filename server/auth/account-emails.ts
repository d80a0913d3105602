import type { FastifyInstance } from "fastify"

import { EMAIL_TEMPLATES } from "~core/email-templates"
import { RESEND_COOLDOWN_SECONDS } from "~core/limits"

import type { OneTimeCodePurpose } from "../db/schema"
import { Cooldown } from "../http/cooldown"
import { deliverMail } from "../mail/mailer"
import { EMAIL_VERIFICATION_CODE_LIFETIME_MS, PASSWORD_RESET_CODE_LIFETIME_MS } from "./auth-timers"
import { issueCode } from "./one-time-codes"
import { findUserByEmail, normaliseEmail, type UserRow } from "./users"

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

/** Issues a fresh code and e-mails its link; without SMTP the link is also logged, so a local user can follow it. */
async function sendCodeEmail(app: FastifyInstance, user: UserRow, purpose: OneTimeCodePurpose): Promise<boolean> {
  const kind = CODE_EMAILS[purpose]
  const code = await issueCode(app.database.db, user.id, purpose, kind.lifetimeMs, app.clock())
  const link = emailLink(app.config.publicUrl, kind.mode, code)
  const sent = await deliverMail(app, { to: user.email, ...kind.content(user.name, link) }, kind.what)
  if (sent && !app.config.smtpUrl) app.log.info({ to: user.email, link }, `${kind.what} email written to the outbox`)
  return sent
}

export function sendWelcomeEmail(app: FastifyInstance, user: UserRow): Promise<boolean> {
  return deliverMail(app, { to: user.email, ...EMAIL_TEMPLATES.welcome({ name: user.name, dashboardUrl: `${app.config.publicUrl}/dashboard` }) }, "welcome")
}

export interface CodeEmailRequests {
  /** Sends the link now and starts the address's cooldown (registration's first verification e-mail). */
  sendNow(user: UserRow): Promise<boolean>
  /**
   * An "e-mail me a link" call: throws 429 TOO_MANY_REQUESTS while the address's cooldown runs,
   * else mails the link if the address has an account that may have one. The answer is the same
   * whether or not it has.
   */
  request(email: string): Promise<{ sent: true; message: string }>
}

/**
 * One kind of link e-mail that people ask for by address (a new verification link, a password
 * reset): at most one per address per RESEND_COOLDOWN_SECONDS. The cooldown counts the address as
 * sent, before any look-up, so an unknown address waits like a known one; each kind has its own.
 */
export function codeEmailRequests(app: FastifyInstance, purpose: OneTimeCodePurpose): CodeEmailRequests {
  const kind = CODE_EMAILS[purpose]
  const cooldown = new Cooldown(RESEND_COOLDOWN_SECONDS * 1000, app.clock)
  return {
    async sendNow(user) {
      cooldown.take(normaliseEmail(user.email))
      return sendCodeEmail(app, user, purpose)
    },
    async request(email) {
      const address = normaliseEmail(email)
      cooldown.enforce(address)
      const user = await findUserByEmail(app.database.db, address)
      if (user && kind.sendsTo(user)) await sendCodeEmail(app, user, purpose)
      return { sent: true, message: kind.requestAnswer }
    }
  }
}
