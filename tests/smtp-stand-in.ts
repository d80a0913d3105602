/** A local SMTP server standing in for the mail provider (which cannot be reached from here), recording what it accepts. */
import type { AddressInfo } from "node:net"

import { SMTPServer, type SMTPServerSession } from "smtp-server"

export interface ReceivedMail {
  from: string
  to: string[]
  /** The raw message: headers and body. */
  data: string
}

export interface SmtpStandIn {
  url: string
  port: number
  received: ReceivedMail[]
  close(): Promise<void>
}

/**
 * Starts the stand-in on a free loopback port. `onConnect` may refuse a connection (an Error with a responseCode, as
 * a busy server answers 421); `onRecipient` may hold a message before its data is sent (answer when ready).
 */
export async function startSmtpStandIn(
  hooks: { onConnect?: () => Error | null; onRecipient?: (accept: () => void) => void } = {}
): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      const refusal = hooks.onConnect?.()
      callback(refusal ?? undefined)
    },
    onRcptTo(_address, _session, callback) {
      if (hooks.onRecipient) hooks.onRecipient(() => callback())
      else callback()
    },
    onData(stream, session: SMTPServerSession, callback) {
      let data = ""
      stream.on("data", (chunk: Buffer) => (data += chunk.toString()))
      stream.on("end", () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data })
        callback()
      })
    }
  })
  // A sender killed in the middle of a message (the crash tests SIGKILL servers while an e-mail waits) resets its
  // connection; smtp-server reports it as an 'error' event, which unheard would end the test process.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET" && error.code !== "EPIPE") console.error("SMTP stand-in:", error)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${port}`, port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
