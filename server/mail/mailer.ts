import { randomUUID } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"

import nodemailer from "nodemailer"
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js"

import { COMPANY, PRODUCT_NAME } from "~core/company"

import type { EmailContent } from "./email-templates"

export interface OutgoingMail extends EmailContent {
  to: string
}

export interface Mailer {
  /** Where messages go, for the start-up line and the logs. */
  readonly description: string
  send(message: OutgoingMail): Promise<void>
  close(): void
}

const FROM = { name: PRODUCT_NAME, address: COMPANY.contact.noreply.email }

/** Without SMTP_URL each message is one .eml file in DATA_DIR/outbox, which any mail client opens. */
export function createOutboxMailer(outboxDir: string, clock: () => number = Date.now): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" })
  let sequence = 0
  return {
    description: `outbox folder ${outboxDir}`,
    async send(message) {
      const info = await transport.sendMail({ from: FROM, to: message.to, subject: message.subject, text: message.text })
      // Messages hold sign-in links: readable by the server's own user only.
      await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 })
      await fs.chmod(outboxDir, 0o700)
      // Names sort in sending order: time, then a counter for messages of the same millisecond.
      const stamp = new Date(clock()).toISOString().replace(/[:.]/g, "-")
      const file = path.join(outboxDir, `${stamp}-${String(++sequence).padStart(6, "0")}-${randomUUID()}.eml`)
      const temporary = `${file}.partial`
      await fs.writeFile(temporary, info.message as Buffer, { mode: 0o600 })
      await fs.rename(temporary, file)
    },
    close() {
      transport.close()
    }
  }
}

/**
 * Bounded waits: the outbox's claim on an e-mail outlives any one attempt (it renews it while sending), and a server
 * that hangs must not hold a worker for nodemailer's default of ten minutes.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

export function createSmtpMailer(smtpUrl: string): Mailer {
  const transport = nodemailer.createTransport({ ...parseConnectionUrl(smtpUrl), ...SMTP_TIMEOUTS })
  const { hostname, port } = new URL(smtpUrl)
  return {
    description: `SMTP server ${hostname}${port ? `:${port}` : ""}`,
    async send(message) {
      await transport.sendMail({ from: FROM, to: message.to, subject: message.subject, text: message.text })
    },
    close() {
      transport.close()
    }
  }
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, "outbox")
}
