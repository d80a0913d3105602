import type { FastifyInstance } from "fastify"

import { EMAIL_TEMPLATES } from "~core/email-templates"

import type { OneTimeCodePurpose } from "../db/schema"
import type { OutgoingMail } from "../mail/mailer"
import { signAccessToken } from "./tokens"
import { createSession, type SessionClient } from "./sessions"
import { issueCode } from "./one-time-codes"
import { EMAIL_VERIFICATION_CODE_LIFETIME_MS, PASSWORD_RESET_CODE_LIFETIME_MS } from "./auth-timers"
import { hashPassword } from "./passwords"
import { toPublicUser, type UserRow } from "./users"

/** Our links carry an apiKey parameter, as identity-service e-mail links do, so the site reads one link format; it is public. */
export const EMAIL_LINK_API_KEY = "image-query-ai"

/** Links to the landing page with mode and oobCode; the landing page forwards them to the verification or reset page. */
function emailLink(publicUrl: string, mode: "verifyEmail" | "resetPassword", code: string): string {
  const params = new URLSearchParams({ mode, oobCode: code, apiKey: EMAIL_LINK_API_KEY, lang: "en" })
  return `${publicUrl}/?${params.toString()}`
}

/**
 * Sends through the configured transport. A mail server that is down must not turn a finished
 * registration or reset request into an error (and answers must not differ by account), so a
 * failure is logged and reported as false; the user can ask again.
 */
async function deliver(app: FastifyInstance, message: OutgoingMail, what: string): Promise<boolean> {
  try {
    await app.mailer.send(message)
    return true
  } catch (error) {
    app.log.error({ err: error, to: message.to }, `could not send the ${what} email through ${app.mailer.description}`)
    return false
  }
}

/** The e-mails that carry a one-time code: which code, which link, which template. */
const CODE_EMAILS = {
  verify_email: {
    what: "verification",
    lifetimeMs: EMAIL_VERIFICATION_CODE_LIFETIME_MS,
    mode: "verifyEmail",
    content: (name: string, link: string) =>
      EMAIL_TEMPLATES.emailVerification({ name, link, expiresInHours: EMAIL_VERIFICATION_CODE_LIFETIME_MS / 3_600_000 })
  },
  reset_password: {
    what: "password reset",
    lifetimeMs: PASSWORD_RESET_CODE_LIFETIME_MS,
    mode: "resetPassword",
    content: (name: string, link: string) =>
      EMAIL_TEMPLATES.passwordReset({ name, link, expiresInMinutes: PASSWORD_RESET_CODE_LIFETIME_MS / 60_000 })
  }
} as const

/** Issues a fresh code and e-mails its link; without SMTP the link is also logged, so a local user can follow it. */
async function sendCodeEmail(app: FastifyInstance, user: UserRow, purpose: OneTimeCodePurpose): Promise<boolean> {
  const kind = CODE_EMAILS[purpose]
  const code = await issueCode(app.database.db, user.id, purpose, kind.lifetimeMs, app.clock())
  const link = emailLink(app.config.publicUrl, kind.mode, code)
  const sent = await deliver(app, { to: user.email, ...kind.content(user.name, link) }, kind.what)
  if (sent && !app.config.smtpUrl) app.log.info({ to: user.email, link }, `${kind.what} email written to the outbox`)
  return sent
}

export const sendVerificationEmail = (app: FastifyInstance, user: UserRow) => sendCodeEmail(app, user, "verify_email")
export const sendPasswordResetEmail = (app: FastifyInstance, user: UserRow) => sendCodeEmail(app, user, "reset_password")

export async function sendWelcomeEmail(app: FastifyInstance, user: UserRow): Promise<boolean> {
  return deliver(app, { to: user.email, ...EMAIL_TEMPLATES.welcome({ name: user.name, dashboardUrl: `${app.config.publicUrl}/dashboard` }) }, "welcome")
}

/** Opens a session and answers what login, refresh-free sign-ins and terms acceptance return. */
export async function signIn(app: FastifyInstance, user: UserRow, client: SessionClient = "site") {
  const now = app.clock()
  const { sessionId, refreshToken } = await createSession(app.database.db, user.id, client, now)
  const { token, expiresAt } = await signAccessToken({ userId: user.id, role: user.role, sessionId }, app.tokenSecret, now)
  return { user: toPublicUser(user), token, refreshToken, expiresAt }
}

/** Sets a new password and keeps it in the history the recent-password rule reads. */
export async function setPassword(app: FastifyInstance, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password)
  const now = new Date(app.clock())
  await app.database.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash, updated_at: now }).where("id", "=", userId).execute()
    await trx.insertInto("password_history").values({ user_id: userId, password_hash: passwordHash, created_at: now }).execute()
  })
}
