import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { RESEND_COOLDOWN_SECONDS } from "~core/limits"

import { readOutbox, startTestApp, type TestApp } from "../test-support"
import { codeEmailRequests } from "./account-emails"
import { createPasswordAccount } from "./account-service"
import { markEmailVerified } from "./users"

const PASSWORD = "Blue-Harbor-42!"

let subject: TestApp
let now = Date.UTC(2026, 10, 23, 9, 0, 0)
let counter = 0

const newAddress = () => `mail-request${++counter}@example.com`

async function account(email: string, { verified }: { verified: boolean }) {
  const user = (await createPasswordAccount(subject.app, { email, name: "Ada Lovelace", password: PASSWORD }))!
  return verified ? (await markEmailVerified(subject.database.db, user.id, new Date(now)))! : user
}

async function mailTo(email: string, subjectStart: string) {
  return (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email) && message.subject.startsWith(subjectStart))
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => null,
    (error: unknown) => error
  )
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

    const forKnown = await requests.request(known)
    const forUnknown = await requests.request(unknown)
    expect(forKnown).toEqual(forUnknown)
    expect(forKnown).toMatchObject({ sent: true, message: expect.stringContaining("If ") })
    expect(await mailTo(known, subjectStart)).toHaveLength(1)
    expect(await mailTo(unknown, subjectStart)).toHaveLength(0)
  })

  it("lets each address ask once per cooldown, counting the address as typed without case or spaces", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const first = newAddress()
    const second = newAddress()
    await account(first, accountGetsMail)

    await requests.request(first)
    now += 1000
    const early = await refusal(requests.request(`  ${first.toUpperCase()} `))
    expect(early).toMatchObject({ statusCode: 429, code: "TOO_MANY_REQUESTS", extra: { retryAfter: RESEND_COOLDOWN_SECONDS - 1 } })
    // Another address, known or not, is not held up by the first one's cooldown.
    expect(await requests.request(second)).toMatchObject({ sent: true })
    const unknownEarly = await refusal(requests.request(second))
    expect(unknownEarly).toMatchObject({ statusCode: 429, code: "TOO_MANY_REQUESTS" })

    now += RESEND_COOLDOWN_SECONDS * 1000
    expect(await requests.request(first)).toMatchObject({ sent: true })
    expect(await mailTo(first, subjectStart)).toHaveLength(2)
  })

  it("sendNow mails at once and starts the address's cooldown", async () => {
    const requests = codeEmailRequests(subject.app, purpose)
    const email = newAddress()
    const user = await account(email, accountGetsMail)
    expect(await requests.sendNow(user)).toBe(true)
    expect(await mailTo(email, subjectStart)).toHaveLength(1)
    expect(await refusal(requests.request(email))).toMatchObject({ statusCode: 429 })
  })
})

describe("codeEmailRequests", () => {
  it("sends no new verification link to a verified account, with the same answer", async () => {
    const requests = codeEmailRequests(subject.app, "verify_email")
    const verified = newAddress()
    await account(verified, { verified: true })
    expect(await requests.request(verified)).toEqual(await requests.request(newAddress()))
    expect(await mailTo(verified, "Verify")).toHaveLength(0)
  })

  it("keeps one cooldown per kind: a verification link does not hold up a reset link", async () => {
    const verification = codeEmailRequests(subject.app, "verify_email")
    const reset = codeEmailRequests(subject.app, "reset_password")
    const email = newAddress()
    await verification.sendNow(await account(email, { verified: false }))
    expect(await reset.request(email)).toMatchObject({ sent: true })
    expect(await mailTo(email, "Reset")).toHaveLength(1)
  })
})

describe("the resend-verification and forgot-password calls", () => {
  it("hold their own cooldowns: right after registration a reset may be asked, a new verification link may not", async () => {
    const email = newAddress()
    const registered = await subject.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { email, password: PASSWORD, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true }
    })
    expect(registered.statusCode).toBe(201)
    const resend = await subject.app.inject({ method: "POST", url: "/api/auth/resend-verification", payload: { email } })
    expect(resend.statusCode).toBe(429)
    const forgot = await subject.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email } })
    expect(forgot.statusCode).toBe(200)
    const forgotAgain = await subject.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email } })
    expect(forgotAgain.statusCode).toBe(429)
    expect(forgotAgain.json().error).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: `Too many attempts. Please wait ${RESEND_COOLDOWN_SECONDS} seconds before trying again.`,
      retryAfter: RESEND_COOLDOWN_SECONDS
    })
  })
})
