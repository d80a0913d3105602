import fs from "node:fs/promises"

import Fastify, { type FastifyInstance } from "fastify"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"

import { RESEND_COOLDOWN_SECONDS } from "~core/limits"

import type { Mailer, OutgoingMail } from "../mail/mailer"
import { readOutbox, startTestApp, type TestApp } from "../test-support"
import { CODE_EMAILS_PER_ADDRESS_PER_HOUR, codeEmailRequests } from "./account-emails"
import { createPasswordAccount } from "./account-service"
import { markEmailVerified } from "./users"

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
  await subject.app.mailQueue.idle()
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

  it("sendNow mails at once and starts the cooldown of the address for that client", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const email = newAddress()
    const user = await account(email, accountGetsMail)
    expect(await requests.sendNow(user, CLIENT)).toBe(true)
    expect((await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email))).toHaveLength(1)
    expect(await refusal(() => requests.request(email, CLIENT))).toMatchObject({ statusCode: 429 })
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
    await verification.sendNow(await account(email, { verified: false }), CLIENT)
    expect(await reset.request(email, CLIENT)).toMatchObject({ sent: true })
    expect(await mailTo(email, "Reset")).toHaveLength(1)
  })

  it("never logs the link or its code", async () => {
    const lines: string[] = []
    const capturing = Fastify({ logger: { level: "trace", stream: { write: (line: string) => lines.push(line) } } })
    // The app as it is, but logging into `lines`.
    const app = Object.create(subject.app, { log: { value: capturing.log } }) as FastifyInstance
    const email = newAddress()
    await account(email, { verified: true })
    await codeEmailRequests(app, "reset_password").request(email, CLIENT)
    const [mail] = await mailTo(email, "Reset")
    const code = new URL(mail!.link!).searchParams.get("oobCode")!
    expect(lines.join("\n")).toContain("password reset email written to the outbox")
    expect(lines.join("\n")).not.toContain(code)
    await capturing.close()
  })
})

describe("the resend-verification and forgot-password calls", () => {

  it("hold their own cooldowns: right after registration a reset may be asked, a new verification link may not", async () => {
    const email = newAddress()
    const registered = await subject.app.inject({
      method: "POST",
      url: "/api/auth/register",
      remoteAddress: CLIENT,
      payload: { email, password: PASSWORD, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true }
    })
    expect(registered.statusCode).toBe(201)
    expect((await post(subject.app, "/api/auth/resend-verification", email)).statusCode).toBe(429)
    expect((await post(subject.app, "/api/auth/forgot-password", email)).statusCode).toBe(200)
    const forgotAgain = await post(subject.app, "/api/auth/forgot-password", email)
    expect(forgotAgain.statusCode).toBe(429)
    expect(forgotAgain.json().error).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: `Too many attempts. Please wait ${RESEND_COOLDOWN_SECONDS} seconds before trying again.`,
      retryAfter: RESEND_COOLDOWN_SECONDS
    })
  })

  it.each([
    ["/api/auth/forgot-password", { verified: true }],
    ["/api/auth/resend-verification", { verified: false }]
  ])("%s answers a known and an unknown address with the same status and body", async (url, state) => {
    const known = newAddress()
    await account(known, state)
    const forKnown = await post(subject.app, url, known)
    const forUnknown = await post(subject.app, url, newAddress())
    expect(forKnown.statusCode).toBe(200)
    expect(forUnknown.statusCode).toBe(forKnown.statusCode)
    expect(forUnknown.body).toBe(forKnown.body)
  })

  it("accepts one of 20 parallel reset requests for an address from one client", async () => {
    const email = newAddress()
    await account(email, { verified: true })
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(subject.app, "/api/auth/forgot-password", email)))
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(19)
    expect(await mailTo(email, "Reset")).toHaveLength(1)
  })

  it("accepts one of 20 parallel verification resends for an address from one client", async () => {
    const email = newAddress()
    await account(email, { verified: false })
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(subject.app, "/api/auth/resend-verification", email)))
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(19)
    expect(await mailTo(email, "Verify")).toHaveLength(1)
  })

  it(`accepts ${CODE_EMAILS_PER_ADDRESS_PER_HOUR} of 20 parallel reset requests for an address from 20 clients`, async () => {
    const email = newAddress()
    await account(email, { verified: true })
    const answers = await Promise.all(Array.from({ length: 20 }, (_, client) => post(subject.app, "/api/auth/forgot-password", email, `198.51.100.${client + 1}`)))
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(CODE_EMAILS_PER_ADDRESS_PER_HOUR)
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(20 - CODE_EMAILS_PER_ADDRESS_PER_HOUR)
    expect(await mailTo(email, "Reset")).toHaveLength(CODE_EMAILS_PER_ADDRESS_PER_HOUR)
  })

  it("someone else asking for the owner's address neither holds up the owner nor voids the owner's link", async () => {
    const email = newAddress()
    await account(email, { verified: true })
    expect((await post(subject.app, "/api/auth/forgot-password", email, CLIENT)).statusCode).toBe(200)
    const [ownersMail] = await mailTo(email, "Reset")
    for (let attempt = 0; attempt < 3; attempt++) {
      now += RESEND_COOLDOWN_SECONDS * 1000
      expect((await post(subject.app, "/api/auth/forgot-password", email, OTHER_CLIENT)).statusCode).toBe(200)
    }
    // The owner's link is older than the newest three, but the owner asks again and is not held up.
    expect((await post(subject.app, "/api/auth/forgot-password", email, CLIENT)).statusCode).toBe(200)
    const mails = await mailTo(email, "Reset")
    expect(mails).toHaveLength(5)
    const oobCode = (mail: { link?: string }) => new URL(mail.link!).searchParams.get("oobCode")!
    const reset = (code: string) =>
      subject.app.inject({ method: "POST", url: "/api/auth/reset-password", payload: { oobCode: code, newPassword: "Quiet-Meadow-73?" }, remoteAddress: CLIENT })
    expect((await reset(oobCode(ownersMail!))).json().error.code).toBe("INVALID_OR_EXPIRED_CODE")
    expect((await reset(oobCode(mails[2]!))).statusCode).toBe(200)
    // After a reset no other reset link of the account works.
    for (const mail of [mails[3]!, mails[4]!]) expect((await reset(oobCode(mail))).json().error.code).toBe("INVALID_OR_EXPIRED_CODE")
  })
})

describe("the mail queue", () => {
  it("answers forgot-password and resend-verification before their mail is sent, and sends it afterwards", async () => {
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
      await vi.waitFor(() => expect(sending).toBe(true))
      expect(sent).toHaveLength(0)
      const unverified = newAddress()
      await account(unverified, { verified: false })
      expect((await post(blocked.app, "/api/auth/resend-verification", unverified)).statusCode).toBe(200)

      release()
      await blocked.app.mailQueue.idle()
      expect(sent.map((message) => message.to)).toEqual([email, unverified])
    } finally {
      release()
      await blocked.app.close()
      await fs.rm(blocked.dataDir, { recursive: true, force: true })
    }
  })
})
