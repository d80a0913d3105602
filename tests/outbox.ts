import fs from "node:fs/promises"
import path from "node:path"

export interface OutboxMessage {
  to: string
  subject: string
  text: string
  /** The first http(s) link in the body. */
  link: string | undefined
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return Buffer.from(bytes, "latin1").toString("utf8")
}

/** The messages the outbox mailer wrote to DATA_DIR/outbox, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMessage[]> {
  const folder = path.join(dataDir, "outbox")
  const files = (await fs.readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith(".eml")).sort()
  return Promise.all(
    files.map(async (file) => {
      const raw = (await fs.readFile(path.join(folder, file), "utf8")).replace(/\r\n/g, "\n")
      const split = raw.indexOf("\n\n")
      const headers = raw.slice(0, split)
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(headers)?.[1]?.trim() ?? ""
      const body = /quoted-printable/i.test(header("Content-Transfer-Encoding"))
        ? decodeQuotedPrintable(raw.slice(split + 2))
        : header("Content-Transfer-Encoding").toLowerCase() === "base64"
          ? Buffer.from(raw.slice(split + 2), "base64").toString("utf8")
          : raw.slice(split + 2)
      return { to: header("To"), subject: header("Subject"), text: body, link: /https?:\/\/\S+/.exec(body)?.[0] }
    })
  )
}

/**
 * The link of the newest e-mail to `email` whose subject starts with `subjectStart`, waiting for it: the server writes
 * queued mail after it has answered. With several instances sharing one database, any of them may send it: give all
 * their DATA_DIRs. Throws when none arrives within `timeoutMs`.
 */
export async function mailedLink(dataDirs: string | string[], email: string, subjectStart: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const messages = (await Promise.all([dataDirs].flat().map(readOutbox))).flat()
    const link = messages.filter((mail) => mail.to.includes(email) && mail.subject.startsWith(subjectStart)).at(-1)?.link
    if (link) return link
    if (Date.now() > deadline) throw new Error(`No "${subjectStart}…" e-mail for ${email} in the outbox`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The code of the verification e-mail sent to `email` (see mailedLink). */
export async function verificationCode(dataDirs: string | string[], email: string, timeoutMs = 10_000): Promise<string> {
  return new URL(await mailedLink(dataDirs, email, "Verify", timeoutMs)).searchParams.get("oobCode") ?? ""
}
