import fs from "node:fs/promises"

import type { FastifyInstance } from "fastify"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"

import { RESEND_COOLDOWN_SECONDS } from "~core/api-answer"

import type { Mailer, OutgoingMail } from "../mail/mailer"
import { readOutbox, startTestApp, type TestApp } from "../test-kit"
import { CODE_EMAILS_PER_ADDRESS_PER_HOUR, codeEmailRequests } from "./account-emails"
import { createPasswordAccount } from "./account-service"
import { markEmailVerified } from "./user-store"

const PASSWORD = "Blue-Harbor-42!"
const CLIENT = "198.51.100.7"
const OTHER_CLIENT = "203.0.113.9"

let subject: TestApp
let now = Date.UTC(2026, 10, 23, 9, 0, 0)
let counter = 0

const newAddress = () => `mail-request${++counter}@example.com`

async function account(email: string, { verified }: { verified: boolean }) {
  const user = (await createPasswordAccount(subject.app, { email, name: "Ada Lovelace", password: PASSWORD }))!
  return verified ? (await markEmailVerified(subject.database.db, user.id, new Date(now)))! : user
}

/** The messages of the outbox once the mail queue has sent what was asked for. */
async function mailTo(email: string, subjectStart: string) {
  await subject.app.outbox.idle()
  return (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email) && message.subject.startsWith(subjectStart))
}

const post = (app: FastifyInstance, url: string, email: string, remoteAddress = CLIENT) => app.inject({ method: "POST", url, payload: { email }, remoteAddress })

async function refusal(action: () => Promise<unknown>) {
  try {
    await action()
    return null
  } catch (error) {
    return error
  }
}

beforeAll(async () => {
  subject = await startTestApp({}, { clock: () => now })
})
afterAll(async () => subject?.close())
beforeEach(() => {
  now += 10 * 60_000
})

describe.each([
  { purpose: "verify_email" as const, subjectStart: "Verify", accountGetsMail: { verified: false } },
  { purpose: "reset_password" as const, subjectStart: "Reset", accountGetsMail: { verified: true } }
])("codeEmailRequests($purpose)", ({ purpose, subjectStart, accountGetsMail }) => {
  it("answers a known and an unknown address alike, and mails only the account", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const known = newAddress()
    const unknown = newAddress()
    await account(known, accountGetsMail)

    const forKnown = await requests.request(known, CLIENT)
    const forUnknown = await requests.request(unknown, CLIENT)
    expect(forKnown).toEqual(forUnknown)
    expect(forKnown).toMatchObject({ sent: true, message: expect.stringContaining("If ") })
    expect(await mailTo(known, subjectStart)).toHaveLength(1)
    expect(await mailTo(unknown, subjectStart)).toHaveLength(0)
  })

  it("lets each client ask once per cooldown for an address, counting the address as typed without case or spaces", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const first = newAddress()
    const second = newAddress()
    await account(first, accountGetsMail)

    await requests.request(first, CLIENT)
    now += 1000
    const early = await refusal(() => requests.request(`  ${first.toUpperCase()} `, CLIENT))
    expect(early).toMatchObject({ statusCode: 429, code: "TOO_MANY_REQUESTS", extra: { retryAfter: RESEND_COOLDOWN_SECONDS - 1 } })
    // Another address, known or not, is not held up by the first one's cooldown.
    expect(await requests.request(second, CLIENT)).toMatchObject({ sent: true })
    expect(await refusal(() => requests.request(second, CLIENT))).toMatchObject({ statusCode: 429, code: "TOO_MANY_REQUESTS" })

    now += RESEND_COOLDOWN_SECONDS * 1000
    expect(await requests.request(first, CLIENT)).toMatchObject({ sent: true })
    expect(await mailTo(first, subjectStart)).toHaveLength(2)
  })

  it("does not let one client's requests hold up another's for the same address", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const email = newAddress()
    await account(email, accountGetsMail)
    await requests.request(email, OTHER_CLIENT)
    expect(await requests.request(email, CLIENT)).toMatchObject({ sent: true })
    expect(await mailTo(email, subjectStart)).toHaveLength(2)
  })

  it(`sends one address at most ${CODE_EMAILS_PER_ADDRESS_PER_HOUR} links an hour, whoever asks, and refuses an unknown address alike`, async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const known = newAddress()
    const unknown = newAddress()
    await account(known, accountGetsMail)
    for (let client = 0; client < CODE_EMAILS_PER_ADDRESS_PER_HOUR; client++) {
      await requests.request(known, `192.0.2.${client}`)
      await requests.request(unknown, `192.0.2.${client}`)
      now += 60_000
    }
    const forKnown = await refusal(() => requests.request(known, "192.0.2.200"))
    const forUnknown = await refusal(() => requests.request(unknown, "192.0.2.200"))
    expect(forKnown).toMatchObject({ statusCode: 429, code: "TOO_MANY_REQUESTS" })
    expect(forUnknown).toEqual(forKnown)
    expect(await mailTo(known, subjectStart)).toHaveLength(CODE_EMAILS_PER_ADDRESS_PER_HOUR)

    // An hour after the first request, its place is free again.
    now += 60 * 60_000 - CODE_EMAILS_PER_ADDRESS_PER_HOUR * 60_000
    expect(await requests.request(known, "192.0.2.200")).toMatchObject({ sent: true })
  })

  it("queueFor queues the link in the caller's transaction; countSent starts the cooldown of the address for that client", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const email = newAddress()
    const user = await account(email, accountGetsMail)
    await subject.app.database.db.transaction().execute((trx) => requests.queueFor(trx, user))
    await requests.countSent(user, CLIENT)
    await subject.app.outbox.idle()
    expect((await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email))).toHaveLength(1)
    expect(await refusal(() => requests.request(email, CLIENT))).toMatchObject({ statusCode: 429 })
  })

  it("sends one link for 20 requests at once from one client, and the hour's links for 20 clients at once, through the route", async () => {
    const route = purpose === "verify_email" ? "/api/auth/resend-verification" : "/api/auth/forgot-password"
    const email = newAddress()
    await account(email, accountGetsMail)
    const fromOne = await Promise.all(Array.from({ length: 20 }, () => post(subject.app, route, email)))
    expect(fromOne.filter((answer) => answer.statusCode === 200)).toHaveLength(1)
    expect(fromOne.filter((answer) => answer.statusCode === 429 && answer.json().error.code === "TOO_MANY_REQUESTS")).toHaveLength(19)
    expect(await mailTo(email, subjectStart)).toHaveLength(1)

    const crowded = newAddress()
    await account(crowded, accountGetsMail)
    const fromMany = await Promise.all(Array.from({ length: 20 }, (_, client) => post(subject.app, route, crowded, `192.0.2.${client + 1}`)))
    expect(fromMany.filter((answer) => answer.statusCode === 200)).toHaveLength(CODE_EMAILS_PER_ADDRESS_PER_HOUR)
    expect(await mailTo(crowded, subjectStart)).toHaveLength(CODE_EMAILS_PER_ADDRESS_PER_HOUR)
  })
})

describe("codeEmailRequests", () => {
  it("sends no new verification link to a verified account, with the same answer", async () => {
    const requests = codeEmailRequests(subject.app, "verify_email")
    const verified = newAddress()
    await account(verified, { verified: true })
    expect(await requests.request(verified, CLIENT)).toEqual(await requests.request(newAddress(), CLIENT))
    expect(await mailTo(verified, "Verify")).toHaveLength(0)
  })

  it("keeps one cooldown per kind: a verification link does not hold up a reset link", async () => {
    const verification = codeEmailRequests(subject.app, "verify_email")
    const reset = codeEmailRequests(subject.app, "reset_password")
    const email = newAddress()
    await verification.countSent(await account(email, { verified: false }), CLIENT)
    expect(await reset.request(email, CLIENT)).toMatchObject({ sent: true })
    expect(await mailTo(email, "Reset")).toHaveLength(1)
  })

  it("never logs the link or its code", async () => {
    const lines: string[] = []
    // An app of its own, logging into `lines`: the outbox's worker logs with the app's logger.
    const logged = await startTestApp({ LOG_LEVEL: "trace" }, { logStream: { write: (line: string) => void lines.push(line) }, clock: () => now })
    try {
      const email = newAddress()
      const user = (await createPasswordAccount(logged.app, { email, name: "Ada Lovelace", password: PASSWORD }))!
      await markEmailVerified(logged.database.db, user.id, new Date(now))
      expect((await post(logged.app, "/api/auth/forgot-password", email)).statusCode).toBe(200)
      await logged.app.outbox.idle()
      const [mail] = (await readOutbox(logged.dataDir)).filter((message) => message.subject.startsWith("Reset"))
      const code = new URL(mail!.link!).searchParams.get("oobCode")!
      expect(lines.join("\n")).toContain("password reset email sent through outbox folder")
      expect(lines.join("\n")).not.toContain(code)
    } finally {
      await logged.close()
    }
  })
})

describe("the mail queue", () => {
  // On a busy machine the outbox may take a while to pick the mail up: the waits below allow for it (a full CI run once
  // took more than 10 s), and the answer's being out before the send is what the test holds.
  it("answers forgot-password and resend-verification before their mail is sent, and sends it afterwards", { timeout: 90_000 }, async () => {
    const sent: OutgoingMail[] = []
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let sending = false
    const blocking: Mailer = {
      description: "a mailer that waits to be released",
      async send(message) {
        sending = true
        await released
        sent.push(message)
      },
      close() {}
    }
    const blocked = await startTestApp({}, { mailer: blocking, database: subject.database, clock: () => now })
    try {
      const email = newAddress()
      await account(email, { verified: true })
      const answer = await post(blocked.app, "/api/auth/forgot-password", email)
      expect(answer.statusCode).toBe(200)
      // The answer is out while its mail is still being sent.
      await vi.waitFor(() => expect(sending).toBe(true), { timeout: 45_000 })
      expect(sent).toHaveLength(0)
      const unverified = newAddress()
      await account(unverified, { verified: false })
      expect((await post(blocked.app, "/api/auth/resend-verification", unverified)).statusCode).toBe(200)

      release()
      await blocked.app.outbox.idle()
      expect(sent.map((message) => message.to)).toEqual([email, unverified])
    } finally {
      release()
      await blocked.app.close()
      await fs.rm(blocked.dataDir, { recursive: true, force: true })
    }
  })
})
