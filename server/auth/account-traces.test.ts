/**
 * Deleting an account and making a new one gives back neither the free trial nor the month's AI requests: with the
 * address, a sub-address of it or Gmail's other spellings of it (registering again) or at once with the same Google
 * account (accept-terms with the same ID token). A live account's trial is not given again to a new account of its
 * mailbox. The traces that carry them hold no readable address or uid. Questions go to a stand-in of the vision model.
 */
import { createHmac } from "node:crypto"

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import { EMULATOR_PROJECT_ID, emulatorGoogleIdToken } from "../../tests/setup/firebase-emulator"
import { completion, PNG_DATA_URL, readOutbox, sendJson, startStandIn, startTestApp, type TestApp } from "../test-kit"

const PASSWORD = "Blue-Harbor-42!"
const emulatorHost = inject("firebaseAuthEmulatorHost")

let subject: TestApp
let provider: Awaited<ReturnType<typeof startStandIn>>
// Firebase checks its tokens against the real time: the app's clock starts there, and moves on only for the next month.
let now = Date.now()
let ipCounter = 0
const nextIp = () => `10.14.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`
let counter = 0
const unique = () => `${Date.now().toString(36)}-${++counter}`

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("A small square.")))
  subject = await startTestApp(
    { PUBLIC_URL: "http://localhost:8787", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${provider.url}/v1`, FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost },
    { clock: () => now }
  )
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
})

async function call(method: "GET" | "POST" | "DELETE", url: string, options: { body?: unknown; token?: string } = {}) {
  const response = await subject.app.inject({
    method,
    url,
    remoteAddress: nextIp(),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body !== undefined ? { payload: options.body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}

/** Registers, verifies and signs in; answers the access token. */
async function registered(email: string): Promise<string> {
  expect((await call("POST", "/api/auth/register", { body: { email, password: PASSWORD, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true } })).status).toBe(201)
  await subject.app.outbox.idle()
  const address = email.trim().toLowerCase()
  const link = (await readOutbox(subject.dataDir)).filter((mail) => mail.to.includes(address) && mail.subject.startsWith("Verify")).at(-1)!.link!
  expect((await call("POST", "/api/auth/verify-email", { body: { oobCode: new URL(link).searchParams.get("oobCode") } })).status).toBe(200)
  return (await call("POST", "/api/auth/login", { body: { email, password: PASSWORD } })).body.data.token
}

const ask = (token: string) => call("POST", "/api/analyze/ask", { token, body: { image: { dataUrl: PNG_DATA_URL }, question: "What is this?" } })
const usage = async (token: string) => (await call("GET", "/api/analyze/usage", { token })).body.data
const subscription = async (token: string) => (await call("GET", "/api/billing/subscription", { token })).body.data

/** Uses the whole Free month (10 questions) and the free trial. */
async function useEverything(token: string) {
  for (let index = 0; index < 10; index++) expect((await ask(token)).status).toBe(200)
  expect((await call("POST", "/api/billing/trial", { token, body: { planId: "pro" } })).status).toBe(201)
}

async function expectSpent(token: string) {
  expect(await usage(token)).toMatchObject({ used: 10, limit: 10 })
  expect((await ask(token)).body.error.code).toBe("QUOTA_EXCEEDED")
  expect(await subscription(token)).toMatchObject({ plan: "free", trialAvailable: false })
  expect((await call("POST", "/api/billing/trial", { token, body: { planId: "pro" } })).body.error.code).toBe("TRIAL_ALREADY_USED")
}

const googleIdToken = (claims: { sub: string; email: string; name?: string }) => emulatorGoogleIdToken(emulatorHost, { name: "Grace Hopper", ...claims })

describe("what a deleted account leaves", () => {
  it("registering again with the address (however written) gives neither a new trial nor a fresh month", async () => {
    const email = `again-${unique()}@example.com`
    const first = await registered(email)
    await useEverything(first)
    expect((await call("DELETE", "/api/auth/account", { token: first, body: { password: PASSWORD } })).status).toBe(200)

    const second = await registered(`  ${email.toUpperCase()} `)
    await expectSpent(second)

    // Another address is a fresh account.
    const other = await registered(`other-${unique()}@example.com`)
    expect(await usage(other)).toMatchObject({ used: 0, limit: 10 })
    expect(await subscription(other)).toMatchObject({ trialAvailable: true })
  })

  it("deleting and accepting the terms again with the same Google ID token gives neither back", async () => {
    const id = unique()
    const idToken = await googleIdToken({ sub: `google-${id}`, email: `g-${id}@example.com`, name: "Grace Hopper" })
    const first = (await call("POST", "/api/auth/google/accept-terms", { body: { idToken, termsAccepted: true, privacyPolicyAccepted: true } })).body.data.token
    await useEverything(first)
    expect((await call("DELETE", "/api/auth/account", { token: first, body: {} })).status).toBe(200)

    const again = await call("POST", "/api/auth/google/accept-terms", { body: { idToken, termsAccepted: true, privacyPolicyAccepted: true } })
    expect(again.status).toBe(201)
    await expectSpent(again.body.data.token)
  })

  it("20 registrations at once after a deletion make one account, and it has the count and the used trial", async () => {
    const email = `burst-${unique()}@example.com`
    const first = await registered(email)
    await useEverything(first)
    expect((await call("DELETE", "/api/auth/account", { token: first, body: { password: PASSWORD } })).status).toBe(200)
    const body = { email, password: PASSWORD, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true }
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/auth/register", { body })))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1)
    const user = await subject.database.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow()
    const counts = await subject.database.db.selectFrom("usage_counters").select("used").where("user_id", "=", user.id).execute()
    expect(counts.map((row) => row.used)).toEqual([10])
    expect((await subject.database.db.selectFrom("subscriptions").select("trial_started_at").where("user_id", "=", user.id).executeTakeFirstOrThrow()).trial_started_at).not.toBeNull()
  })

  it.each([
    ["a sub-address", (id: string) => [`tagged-${id}@example.com`, `tagged-${id}+again@example.com`]],
    ["Gmail's dots and googlemail.com", (id: string) => [`g.mail-${id}@gmail.com`, `gmail-${id}+2@googlemail.com`]]
  ])("%s: the same mailbox, so neither a new trial nor a fresh month", async (_name, addresses) => {
    const [email, again] = addresses(unique())
    const first = await registered(email!)
    await useEverything(first)
    expect((await call("DELETE", "/api/auth/account", { token: first, body: { password: PASSWORD } })).status).toBe(200)
    await expectSpent(await registered(again!))
  })

  it("a new account of a live account's mailbox starts with the trial used", async () => {
    const id = unique()
    const first = await registered(`live.${id}@gmail.com`)
    expect((await call("POST", "/api/billing/trial", { token: first, body: { planId: "pro" } })).status).toBe(201)
    const second = await registered(`live${id}+second@gmail.com`)
    expect(await subscription(second)).toMatchObject({ plan: "free", trialAvailable: false })
    expect((await call("POST", "/api/billing/trial", { token: second, body: { planId: "pro" } })).body.error.code).toBe("TRIAL_ALREADY_USED")
    // Its own month is its own: only a deleted account's count is carried.
    expect(await usage(second)).toMatchObject({ used: 0, limit: 10 })
  })

  it("a trace written before the mailbox rule (under the address as typed) still counts, and is kept under the mailbox from then on", async () => {
    const id = unique()
    const typed = `old-${id}+shop@example.com`
    // The key traces had before: the address trimmed and lower-cased, sub-address and all.
    const key = createHmac("sha256", subject.app.tokenSecret).update("image-query-ai identity traces v1").digest()
    const month = new Date(now).toISOString().slice(0, 7)
    await subject.database.db
      .insertInto("identity_traces")
      .values({ key_hash: createHmac("sha256", key).update(`email:${typed}`).digest("base64url"), trial_used_at: new Date(now), usage_month: month, usage_used: 10, updated_at: new Date(now) })
      .execute()
    await expectSpent(await registered(typed))
    // Found under its old key, the trace now holds for the mailbox too.
    await expectSpent(await registered(`old-${id}@example.com`))
  })

  it("keeps no readable address or uid, and the next month's count starts afresh while the trial stays used", async () => {
    const id = unique()
    const email = `trace-${id}@example.com`
    const first = await registered(email)
    await useEverything(first)
    expect((await call("DELETE", "/api/auth/account", { token: first, body: { password: PASSWORD } })).status).toBe(200)
    const stored = JSON.stringify(await subject.database.db.selectFrom("identity_traces").selectAll().execute())
    expect(stored).not.toContain(email)
    expect(stored).not.toContain(id)
    expect(stored).not.toContain("google-")

    const saved = now
    try {
      const date = new Date(now)
      now = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 2)
      const second = await registered(email)
      expect(await usage(second)).toMatchObject({ used: 0, limit: 10 })
      expect(await subscription(second)).toMatchObject({ trialAvailable: false })
    } finally {
      now = saved
    }
  })
})
