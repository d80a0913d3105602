/**
 * GET /api/admin/analytics: each kind of event, made through the API as a user would, shows on its UTC day's row
 * (questions and translations as the quota counted them, the pool's included, a burst of 20 as 20, a call given back
 * not at all); every day of the range is present; `days` outside 1..365 is the wrapper's 400.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import type { AnalyticsDay } from "~core/admin/admin-analytics"
import { DAY_MS } from "~core/time"

import { completion, PNG_1PX, PNG_DATA_URL, sendJson, signedInUser, startStandIn, startTestApp, type TestApp } from "../../test-kit"

type StandIn = Awaited<ReturnType<typeof startStandIn>>

let provider: StandIn
let subject: TestApp
/** A second instance on the same database. */
let second: TestApp
/** Each test runs on a day of its own, so that its rows start at zero. */
let now = Date.UTC(2026, 10, 1, 12)
let ipCounter = 0

const answerNormally = () => provider.handle((_request, response) => sendJson(response, 200, completion("A square.")))

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("A square.")))
  // One token secret: a session opened on one instance is read by the other.
  const env = { OPENAI_API_KEY: "sk-test-analytics-0123456789", OPENAI_BASE_URL: `${provider.url}/v1`, TOKEN_SECRET: "analytics-test-secret-0123456789abcdef" }
  subject = await startTestApp(env, { clock: () => now, visionModel: { maxModelCallsInFlight: 100 } })
  second = await startTestApp(env, { clock: () => now, database: subject.database })
})
afterAll(async () => {
  await second?.app.close()
  await subject?.close()
  await provider?.close()
})
beforeEach(() => {
  now += 2 * DAY_MS
  answerNormally()
})

const today = () => new Date(now).toISOString().slice(0, 10)

async function call(method: "GET" | "POST", url: string, token?: string, payload?: unknown, app = subject.app) {
  const response = await app.inject({
    method,
    url,
    remoteAddress: `10.61.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object })
  })
  return { status: response.statusCode, body: response.json() }
}

async function admin() {
  const made = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", made.id).execute()
  return made
}

/** The analytics as an admin reads them (which makes that admin active today, as any signed-in request does). */
async function analytics(days?: number | string): Promise<AnalyticsDay[]> {
  const { token } = await admin()
  const answer = await call("GET", `/api/admin/analytics${days === undefined ? "" : `?days=${days}`}`, token)
  expect(answer.status).toBe(200)
  return answer.body.data.days
}

const todayOf = (days: AnalyticsDay[]) => days.at(-1)!

const ask = (token: string, url = "/api/analyze/ask") => call("POST", url, token, { image: { dataUrl: PNG_DATA_URL }, question: "What is this?" })

async function sendFeedback() {
  const form = new FormData()
  form.append("email", "visitor@example.com")
  form.append("message", "The side panel does not show my images.")
  form.append("images", new Blob([new Uint8Array(PNG_1PX)], { type: "image/png" }), "square.png")
  const encoded = new Response(form)
  const response = await subject.app.inject({
    method: "POST",
    url: "/api/feedback",
    remoteAddress: `10.62.0.${++ipCounter & 255}`,
    headers: { "content-type": encoded.headers.get("content-type")! },
    payload: Buffer.from(await encoded.arrayBuffer())
  })
  expect(response.statusCode).toBe(201)
}

describe("GET /api/admin/analytics", () => {
  it("shows a question, a translation, an API call, a sign-up, a feedback and the active users on today's row", async () => {
    const zero = { questions: 0, translations: 0, apiCalls: 0, signUps: 0, activeUsers: 0, feedback: 0 }
    expect(todayOf(await analytics())).toEqual({ date: today(), ...zero, activeUsers: 1 })

    const asker = await signedInUser(subject.app)
    expect((await ask(asker.token)).status).toBe(200)
    expect((await call("POST", "/api/analyze/translate", asker.token, { text: "Exit", targetLanguage: "fr" })).status).toBe(200)
    // The same account again, on another instance: still one active user.
    expect((await call("GET", "/api/analyze/usage", asker.token, undefined, second.app)).status).toBe(200)

    const keyOwner = await signedInUser(subject.app, "pro")
    const key = (await call("POST", "/api/keys", keyOwner.token, { name: "analytics" })).body.data.key as string
    expect((await ask(key, "/api/v1/ask")).status).toBe(200)

    const registered = await call("POST", "/api/auth/register", undefined, {
      email: `new-${now}@example.com`,
      password: "Blue-Harbor-42!",
      name: "Ada Lovelace",
      termsAccepted: true,
      privacyPolicyAccepted: true
    })
    expect(registered.status).toBe(201)
    await sendFeedback()
    // Signed in but no request made: not active.
    await signedInUser(subject.app)

    const days = await analytics()
    // Two questions (the extension's and the API's), one API call; active: the first admin, the asker, the key's owner
    // (who made the key while signed in) and this admin.
    expect(todayOf(days)).toEqual({ date: today(), questions: 2, translations: 1, apiCalls: 1, signUps: 1, activeUsers: 4, feedback: 1 })
    expect(days.at(-2)).toEqual({ date: new Date(now - DAY_MS).toISOString().slice(0, 10), ...zero })
  })

  it("counts 20 questions asked at once as 20, and not a question the provider refused (given back to the quota)", async () => {
    const asker = await signedInUser(subject.app, "pro")
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(asker.token)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    provider.handle((_request, response) => sendJson(response, 500, { error: { message: "down" } }))
    expect((await ask(asker.token)).status).toBe(502)
    expect(todayOf(await analytics()).questions).toBe(20)
  })

  it("counts a question drawn from an organisation's pool", async () => {
    const owner = await signedInUser(subject.app, "enterprise")
    expect((await call("POST", "/api/organizations", owner.token, { name: "Acme" })).status).toBe(201)
    expect((await ask(owner.token)).status).toBe(200)
    const pool = await subject.database.db.selectFrom("organization_usage").select("used").executeTakeFirstOrThrow()
    expect(pool.used).toBeGreaterThanOrEqual(1)
    expect(todayOf(await analytics())).toMatchObject({ questions: 1 })
  })

  it("puts an event on the UTC day it happened, and fills every day of the range", async () => {
    const yesterday = today()
    const asker = await signedInUser(subject.app)
    expect((await ask(asker.token)).status).toBe(200)
    now += DAY_MS
    const days = await analytics(7)
    expect(days.map((day) => day.date)).toEqual(Array.from({ length: 7 }, (_, index) => new Date(now - (6 - index) * DAY_MS).toISOString().slice(0, 10)))
    expect(days.at(-2)).toMatchObject({ date: yesterday, questions: 1, activeUsers: 1 })
    expect(todayOf(days)).toMatchObject({ questions: 0, activeUsers: 1 })
  })

  it("takes 1 to 365 days, 30 by default; anything else is 400 VALIDATION_FAILED", async () => {
    expect(await analytics()).toHaveLength(30)
    expect((await analytics(1)).map((day) => day.date)).toEqual([today()])
    const year = await analytics(365)
    expect([year.length, year[0]!.date, year.at(-1)!.date]).toEqual([365, new Date(now - 364 * DAY_MS).toISOString().slice(0, 10), today()])
    const { token } = await admin()
    for (const query of ["days=0", "days=366", "days=-1", "days=1.5", "days=many", "days=", "other=1"]) {
      const refused = await call("GET", `/api/admin/analytics?${query}`, token)
      expect([refused.status, refused.body.error?.code], query).toEqual([400, "VALIDATION_FAILED"])
    }
  })

  it("is for admins only", async () => {
    const user = await signedInUser(subject.app)
    expect((await call("GET", "/api/admin/analytics", user.token)).status).toBe(403)
    expect((await call("GET", "/api/admin/analytics")).status).toBe(401)
  })
})
