/**
 * GET /api/keys/usage, the dashboard's chart: the calls made through /api/v1 on their UTC day and endpoint, every day
 * of the range present (zeros included), oldest first; never another account's calls; `days` 1 to 90; a website
 * session only; and a burst of calls answered at once counted to the last one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { API_ACCOUNT_MAX_IN_FLIGHT, API_KEY_MAX_IN_FLIGHT, apiKeyUsageSchema, type ApiKeyUsage, type ApiUsage } from "~core/api-keys"

import { signIn } from "../auth/account-service"
import { completion, PNG_DATA_URL, sendJson, signedInUser, startVisionModelApp, startStandIn } from "../test-kit"

let provider: Awaited<ReturnType<typeof startStandIn>>
let subject: Awaited<ReturnType<typeof startVisionModelApp>>
/** The app's clock: each test sets the instant its calls are made at. */
let now = Date.parse("2026-11-27T12:00:00Z")

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("Bonjour")))
  const env = { OPENAI_API_KEY: "sk-test-secret-key-0123456789", OPENAI_BASE_URL: `${provider.url}/v1` }
  subject = await startVisionModelApp(env, { providerTimeoutMs: 15_000, maxModelCallsInFlight: 100 }, { clock: () => now })
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
})

async function call(method: "GET" | "POST", url: string, token?: string, body?: unknown) {
  const response = await subject.app.inject({
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
  })
  return { status: response.statusCode, body: JSON.parse(response.body) }
}

async function newKey(token: string, name = "script") {
  const created = await call("POST", "/api/keys", token, { name })
  expect(created.status).toBe(201)
  return created.body.data.key as string
}

async function proWithKey() {
  const owner = await signedInUser(subject.app, "pro")
  return { ...owner, key: await newKey(owner.token) }
}

/** A website session opened now: the clock may have moved past the first one's life. */
async function sessionAt(userId: string) {
  const user = await subject.database.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow()
  return (await signIn(subject.app, user)).token
}

const translate = async (key: string) => expect((await call("POST", "/api/v1/translate", key, { text: "Hello", targetLanguage: "fr" })).status).toBe(200)
const ask = async (key: string) => expect((await call("POST", "/api/v1/ask", key, { image: { dataUrl: PNG_DATA_URL }, question: "What is it?" })).status).toBe(200)

async function usageOf(token: string, query = ""): Promise<ApiKeyUsage> {
  const answer = await call("GET", `/api/keys/usage${query}`, token)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return apiKeyUsageSchema.parse(answer.body.data)
}

const NONE = { ocr: 0, faces: 0, objects: 0, ask: 0, translate: 0 }
const withCalls = (report: ApiKeyUsage) => report.days.filter(({ day: _day, ...counts }) => Object.values(counts).some((count) => count > 0))

describe("GET /api/keys/usage", () => {
  it("shows each call made through /api/v1 on its UTC day and endpoint, every day of the range present and oldest first", async () => {
    now = Date.parse("2026-11-01T10:00:00Z")
    const owner = await proWithKey()
    await translate(owner.key)
    now = Date.parse("2026-11-26T12:00:00Z")
    await translate(owner.key)
    await translate(owner.key)
    await ask(owner.key)
    // Either side of midnight UTC: two days.
    now = Date.parse("2026-11-30T23:59:50Z")
    await translate(owner.key)
    now = Date.parse("2026-12-01T00:00:10Z")
    await ask(owner.key)
    const token = await sessionAt(owner.id)

    const report = await usageOf(token)
    expect(report.days).toHaveLength(30)
    expect([report.days[0]!.day, report.days.at(-1)!.day]).toEqual(["2026-11-02", "2026-12-01"])
    for (const [index, { day }] of report.days.entries()) expect(day).toBe(new Date(Date.parse("2026-11-02T00:00:00Z") + index * 86_400_000).toISOString().slice(0, 10))
    expect(withCalls(report)).toEqual([
      { day: "2026-11-26", ...NONE, translate: 2, ask: 1 },
      { day: "2026-11-30", ...NONE, translate: 1 },
      { day: "2026-12-01", ...NONE, ask: 1 }
    ])
    // A day without calls, between two with.
    expect(report.days.find(({ day }) => day === "2026-11-28")).toEqual({ day: "2026-11-28", ...NONE })
    expect(report.totals).toEqual({ ...NONE, translate: 3, ask: 2 })

    // The call of 1 November is 30 days back: in a range of 31, not of 30.
    const longer = await usageOf(token, "?days=31")
    expect(longer.days[0]).toEqual({ day: "2026-11-01", ...NONE, translate: 1 })
    expect(longer.totals).toEqual({ ...NONE, translate: 4, ask: 2 })
    expect((await usageOf(token, "?days=1")).days).toEqual([{ day: "2026-12-01", ...NONE, ask: 1 }])
    expect((await usageOf(token, "?days=90")).days).toHaveLength(90)

    // GET /api/v1/usage sums the days of its month, and of that month only.
    const december = (await call("GET", "/api/v1/usage", owner.key)).body.data as ApiUsage
    expect([december.month, december.byEndpoint]).toEqual(["2026-12", { ...NONE, ask: 1 }])
    now = Date.parse("2026-11-30T23:59:55Z")
    const november = (await call("GET", "/api/v1/usage", owner.key)).body.data as ApiUsage
    expect([november.month, november.byEndpoint, november.byKey.map((key) => key.calls)]).toEqual(["2026-11", { ...NONE, translate: 4, ask: 1 }, [5]])
  })

  it("never shows another account's calls; an account back on Free still sees its own, and one without keys sees zeros", async () => {
    now = Date.parse("2026-11-27T09:00:00Z")
    const first = await proWithKey()
    const second = await proWithKey()
    await translate(first.key)
    for (let index = 0; index < 3; index++) await translate(second.key)
    await ask(second.key)

    expect((await usageOf(first.token)).totals).toEqual({ ...NONE, translate: 1 })
    expect(withCalls(await usageOf(second.token))).toEqual([{ day: "2026-11-27", ...NONE, translate: 3, ask: 1 }])

    // Listing and revoking keys work on Free; so does reading the calls they made. A refused call is not counted.
    await subject.database.db.updateTable("users").set({ plan_id: "free" }).where("id", "=", first.id).execute()
    expect((await call("POST", "/api/v1/translate", first.key, { text: "Hello", targetLanguage: "fr" })).body.error.code).toBe("PLAN_REQUIRED")
    expect((await usageOf(first.token)).totals).toEqual({ ...NONE, translate: 1 })

    const free = await signedInUser(subject.app, "free")
    const nothing = await usageOf(free.token)
    expect(nothing.days).toHaveLength(30)
    expect(withCalls(nothing)).toEqual([])
    expect(nothing.totals).toEqual(NONE)
  })

  it("is read from a website session only, and refuses a `days` outside 1 to 90 in the wrapper", async () => {
    now = Date.parse("2026-11-27T10:00:00Z")
    const owner = await proWithKey()
    const extension = (await call("POST", "/api/auth/extension-session", owner.token)).body.data.token as string
    expect((await call("GET", "/api/keys/usage", extension)).body.error.code).toBe("FORBIDDEN")
    for (const token of [owner.key, undefined]) {
      const refused = await call("GET", "/api/keys/usage", token)
      expect([refused.status, refused.body.error.code]).toEqual([401, "UNAUTHORIZED"])
    }

    for (const query of ["?days=0", "?days=91", "?days=-1", "?days=1.5", "?days=abc", "?days=", "?days=7&days=8", "?day=7"]) {
      const refused = await call("GET", `/api/keys/usage${query}`, owner.token)
      expect([refused.status, refused.body.success, refused.body.error.code], query).toEqual([400, false, "VALIDATION_FAILED"])
    }
  })

  it(`counts all of ${API_ACCOUNT_MAX_IN_FLIGHT} calls answered at once: two keys of one account, five calls each (a key's most at once, and the account's)`, async () => {
    now = Date.parse("2026-11-27T15:00:00Z")
    const owner = await signedInUser(subject.app, "enterprise")
    const keys = [await newKey(owner.token, "a"), await newKey(owner.token, "b")]
    // The model answers once all have arrived, so that they are being answered, and counted, together.
    let arrived = 0
    let release!: () => void
    const all = new Promise<void>((resolve) => (release = resolve))
    provider.handle((_request, response) => {
      if (++arrived === API_ACCOUNT_MAX_IN_FLIGHT) release()
      void all.then(() => sendJson(response, 200, completion("Bonjour")))
    })
    try {
      const answers = await Promise.all(keys.flatMap((key) => Array.from({ length: API_KEY_MAX_IN_FLIGHT }, (_, index) => call("POST", "/api/v1/translate", key, { text: `line ${index}`, targetLanguage: "fr" }))))
      expect(answers.map((answer) => answer.status)).toEqual(Array(API_ACCOUNT_MAX_IN_FLIGHT).fill(200))
    } finally {
      provider.handle((_request, response) => sendJson(response, 200, completion("Bonjour")))
    }
    expect(withCalls(await usageOf(owner.token))).toEqual([{ day: "2026-11-27", ...NONE, translate: API_ACCOUNT_MAX_IN_FLIGHT }])
  })
})
