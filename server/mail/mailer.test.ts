import fs from "node:fs/promises"
import path from "node:path"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startSmtpStandIn, type SmtpStandIn } from "../../tests/smtp-stand-in"
import { makeTempDir, readOutbox } from "../test-kit"
import { EMAIL_TEMPLATES } from "./email-templates"
import { createOutboxMailer, createSmtpMailer, outboxDir } from "./mailer"

const message = { to: "reader@example.com", ...EMAIL_TEMPLATES.welcome({ name: "Ada", dashboardUrl: "http://localhost:8787/dashboard" }) }

describe("the outbox transport", () => {
  it("writes one .eml file per message, readable by a mail client", async () => {
    const dataDir = await makeTempDir()
    try {
      const mailer = createOutboxMailer(outboxDir(dataDir), () => Date.UTC(2026, 10, 22))
      await mailer.send(message)
      await mailer.send({ ...message, to: "second@example.com" })
      const files = await fs.readdir(path.join(dataDir, "outbox"))
      expect(files).toHaveLength(2)
      expect(files.every((file) => file.startsWith("2026-11-22T00-00-00-000Z-") && file.endsWith(".eml"))).toBe(true)
      const [first, second] = await readOutbox(dataDir)
      expect(first).toMatchObject({ to: "reader@example.com", subject: "Welcome to Image Query AI", link: "http://localhost:8787/dashboard" })
      expect(first!.text).toContain("Hello Ada,")
      expect(second!.to).toBe("second@example.com")
      const raw = await fs.readFile(path.join(dataDir, "outbox", files.sort()[0]!), "utf8")
      expect(raw).toMatch(/^From: Image Query AI <noreply@imagequery\.ai>$/m)
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  })

  it("keeps messages, which hold sign-in links, readable by the server's user only", async () => {
    const dataDir = await makeTempDir()
    try {
      // An outbox left by an older version with the default permissions is tightened too.
      await fs.mkdir(outboxDir(dataDir), { mode: 0o755 })
      await fs.chmod(outboxDir(dataDir), 0o755)
      await createOutboxMailer(outboxDir(dataDir)).send(message)
      expect((await fs.stat(outboxDir(dataDir))).mode & 0o777).toBe(0o700)
      const [file] = await fs.readdir(outboxDir(dataDir))
      expect((await fs.stat(path.join(outboxDir(dataDir), file!))).mode & 0o777).toBe(0o600)
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe("the SMTP transport", () => {
  let smtp: SmtpStandIn
  beforeAll(async () => {
    smtp = await startSmtpStandIn()
  })
  afterAll(() => smtp.close())

  it("delivers the message to the server of SMTP_URL", async () => {
    const mailer = createSmtpMailer(smtp.url)
    expect(mailer.description).toBe(`SMTP server 127.0.0.1:${smtp.port}`)
    await mailer.send(message)
    mailer.close()
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]).toMatchObject({ from: "noreply@imagequery.ai", to: ["reader@example.com"] })
    expect(smtp.received[0]!.data).toContain("Subject: Welcome to Image Query AI")
    expect(smtp.received[0]!.data).toContain("Hello Ada,")
  })

  it("rejects when the server cannot be reached, so callers can report it", async () => {
    const mailer = createSmtpMailer("smtp://127.0.0.1:9")
    await expect(mailer.send(message)).rejects.toThrow()
    mailer.close()
  })
})
