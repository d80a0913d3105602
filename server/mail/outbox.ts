/**
 * The one way server code sends an e-mail: `queueEmail(app, db, mail)`, with `db` the transaction of the change that
 * causes the e-mail (or the database when there is none).
 *
 * INTERIM: this first version still hands the message to the in-memory MailQueue; the transactional outbox (a row
 * written in `db`, sent by a worker with retries) replaces the body of queueEmail without changing its signature.
 */
import type { FastifyInstance } from "fastify"
import type { Kysely, Transaction } from "kysely"

import type { EmailContent } from "~core/email-templates"

import type { DatabaseSchema } from "../db/schema"
import { deliverMail } from "./mailer"

export interface QueuedEmail {
  to: string
  /** What the e-mail is, for logs ("password reset", "subscription started"); never its content. */
  what: string
  content: EmailContent
}

export type OutboxDb = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>

export async function queueEmail(app: FastifyInstance, _db: OutboxDb, mail: QueuedEmail): Promise<void> {
  app.mailQueue.enqueue(mail.what, () => deliverMail(app, { to: mail.to, ...mail.content }, mail.what))
}
