/**
 * The public API's door: an API key and nothing else; questions and translations counted in the plan's quota as from
 * the extension; each answered call counted per endpoint and key; a revoked key or an account back on Free stopped
 * on its next call; and each key's limits (60 calls in any minute, 5 at once) holding under bursts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { API_ACCOUNT_MAX_IN_FLIGHT, API_ACCOUNT_RATE_LIMIT, API_KEY_MAX_IN_FLIGHT, API_KEY_RATE_LIMIT, type ApiUsage } from "~core/api-keys"

import { completion, PNG_DATA_URL, sendJson, signedInUser, startVisionModelApp, startStandIn } from "../test-kit"

let provider: Awaited<ReturnType<typeof startStandIn>>
let subject: Awaited<ReturnType<typeof startVisionModelApp>>

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("Bonjour")))
  const env = { OPENAI_API_KEY: "sk-test-secret-key-0123456789", OPENAI_BASE_URL: `${provider.url}/v1` }
  // Many model calls of one account at once: the bursts here are about the key's own limits.
  subject = await startVisionModelApp(env, { providerTimeoutMs: 15_000, maxModelCallsInFlight: 100 }, { clock: Date.now })
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
})

async function call(method: "GET" | "POST" | "DELETE", url: string, token: string, body?: unknown) {
  const response = await subject.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
  })
  return { status: response.statusCode, body: JSON.parse(response.body) }
}

/** A Pro account with one key: its session token, the key and the key's id. */
async function proWithKey(plan: "pro" | "enterprise" = "pro") {
  const owner = await signedInUser(subject.app, plan)
  const created = await call("POST", "/api/keys", owner.token, { name: "script" })
  expect(created.status).toBe(201)
  return { ...owner, key: created.body.data.key as string, keyId: created.body.data.id as string }
}

const usage = async (key: string) => (await call("GET", "/api/v1/usage", key)).body.data as ApiUsage

describe("the public API", () => {
  it("answers a key's questions and translations within the plan's quota, and counts each answered call per endpoint and key", async () => {
    const owner = await proWithKey("enterprise")
    await subject.database.db.updateTable("users").set({ request_limit: 3 }).where("id", "=", owner.id).execute()
    const translated = await call("POST", "/api/v1/translate", owner.key, { text: "Hello", targetLanguage: "fr" })
    expect([translated.status, translated.body.data.translation]).toEqual([200, "Bonjour"])
    const asked = await call("POST", "/api/v1/ask", owner.key, { image: { dataUrl: PNG_DATA_URL }, question: "What is it?" })
    expect([asked.status, asked.body.data.answer]).toEqual([200, "Bonjour"])
    // Refused calls are not counted: a bad body, and the quota's end.
    expect((await call("POST", "/api/v1/translate", owner.key, { text: "" })).body.error.code).toBe("VALIDATION_FAILED")
    await call("POST", "/api/v1/translate", owner.key, { text: "Good night", targetLanguage: "fr" })
    expect((await call("POST", "/api/v1/translate", owner.key, { text: "Good morning", targetLanguage: "fr" })).body.error.code).toBe("QUOTA_EXCEEDED")

    const report = await usage(owner.key)
    expect(report.month).toBe(new Date().toISOString().slice(0, 7))
    expect(report.quota).toEqual({ used: 3, limit: 3 })
    expect(report.byEndpoint).toEqual({ ocr: 0, faces: 0, objects: 0, ask: 1, translate: 2 })
    expect(report.byKey).toEqual([{ id: owner.keyId, prefix: owner.key.slice(0, 12), name: "script", calls: 3 }])
    // The extension's own questions draw from the same quota.
    expect((await call("GET", "/api/analyze/usage", owner.token)).body.data.used).toBe(3)
    const listed = (await call("GET", "/api/keys", owner.token)).body.data as { lastUsedAt: string | null }[]
    expect(listed[0]!.lastUsedAt).not.toBeNull()
  })

  it("takes an API key only: a session or extension token is refused, a revoked key stops at once, and a key of an account back on Free waits for an upgrade", async () => {
    const owner = await proWithKey()
    const extension = await call("POST", "/api/auth/extension-session", owner.token)
    for (const token of [owner.token, extension.body.data.token, "iqa_notakey", "garbage"]) {
      const answer = await call("GET", "/api/v1/usage", token)
      expect([answer.status, answer.body.error.code]).toEqual([401, "INVALID_API_KEY"])
    }

    await subject.database.db.updateTable("users").set({ plan_id: "free" }).where("id", "=", owner.id).execute()
    const onFree = await call("GET", "/api/v1/usage", owner.key)
    expect([onFree.status, onFree.body.error.code]).toEqual([403, "PLAN_REQUIRED"])
    await subject.database.db.updateTable("users").set({ plan_id: "pro" }).where("id", "=", owner.id).execute()
    expect((await call("GET", "/api/v1/usage", owner.key)).status).toBe(200)

    await call("DELETE", `/api/keys/${owner.keyId}`, owner.token)
    const revoked = await call("GET", "/api/v1/usage", owner.key)
    expect([revoked.status, revoked.body.error.code]).toEqual([401, "INVALID_API_KEY"])
  })

  it(`lets ${API_KEY_MAX_IN_FLIGHT} calls of one key run at once when 20 arrive together, and ${API_KEY_RATE_LIMIT.requests} in a minute`, async () => {
    const owner = await proWithKey()
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    provider.handle((_request, response) => void held.then(() => sendJson(response, 200, completion("Bonjour"))))
    const burst = Array.from({ length: 20 }, (_, index) => call("POST", "/api/v1/translate", owner.key, { text: `line ${index}`, targetLanguage: "fr" }))
    // The refused answer at once, while the five wait for the model.
    await new Promise((resolve) => setTimeout(resolve, 500))
    release()
    const answers = await Promise.all(burst)
    provider.handle((_request, response) => sendJson(response, 200, completion("Bonjour")))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(API_KEY_MAX_IN_FLIGHT)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(20 - API_KEY_MAX_IN_FLIGHT)
    for (const answer of refused) expect(answer.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", retryAfter: 1 })

    // The minute's 60 (the 5 answered above among them; refused calls count for nothing), in bursts of 5: the rest
    // are refused with the wait.
    const more: { status: number; body: { error?: { retryAfter?: number } } }[] = []
    for (let round = 0; round < 12; round++) more.push(...(await Promise.all(Array.from({ length: 5 }, () => call("GET", "/api/v1/usage", owner.key)))))
    expect(more.filter((answer) => answer.status === 200)).toHaveLength(API_KEY_RATE_LIMIT.requests - API_KEY_MAX_IN_FLIGHT)
    const limited = more.filter((answer) => answer.status === 429)
    expect(limited).toHaveLength(API_KEY_MAX_IN_FLIGHT)
    for (const answer of limited) expect(answer.body.error!.retryAfter).toBeGreaterThan(0)
  })
})

describe("the account's share of the API", () => {
  it(`holds ${API_ACCOUNT_MAX_IN_FLIGHT} calls at once and ${API_ACCOUNT_RATE_LIMIT.requests} a minute over all the account's keys, whatever each key has left`, async () => {
    const owner = await proWithKey()
    const keys = [owner.key]
    for (const name of ["two", "three", "four"]) keys.push((await call("POST", "/api/keys", owner.token, { name })).body.data.key as string)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    provider.handle((_request, response) => void held.then(() => sendJson(response, 200, completion("Bonjour"))))
    // 20 at once over four keys: 5 each, within every key's own limit.
    const burst = Array.from({ length: 20 }, (_, index) => call("POST", "/api/v1/translate", keys[index % 4]!, { text: `line ${index}`, targetLanguage: "fr" }))
    await new Promise((resolve) => setTimeout(resolve, 500))
    release()
    const answers = await Promise.all(burst)
    provider.handle((_request, response) => sendJson(response, 200, completion("Bonjour")))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(API_ACCOUNT_MAX_IN_FLIGHT)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(20 - API_ACCOUNT_MAX_IN_FLIGHT)
    for (const answer of refused) expect(answer.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", retryAfter: 1, message: expect.stringContaining("over all its keys") })

    // The minute's 120 over the four keys (the 10 above among them), in bursts of 10 spread over the keys: 40 each
    // would be within every key's 60, but the account stops at 120.
    const more: { status: number; body: { error?: { message?: string } } }[] = []
    for (let round = 0; round < 12; round++) more.push(...(await Promise.all(Array.from({ length: 10 }, (_, index) => call("GET", "/api/v1/usage", keys[index % 4]!)))))
    expect(more.filter((answer) => answer.status === 200)).toHaveLength(API_ACCOUNT_RATE_LIMIT.requests - API_ACCOUNT_MAX_IN_FLIGHT)
    const limited = more.filter((answer) => answer.status === 429)
    expect(limited).toHaveLength(API_ACCOUNT_MAX_IN_FLIGHT)
    for (const answer of limited) expect(answer.body.error!.message).toContain(`${API_ACCOUNT_RATE_LIMIT.requests} calls in the last minute, over all its keys`)
    // Another account is not touched by this one's limits.
    expect((await call("GET", "/api/v1/usage", (await proWithKey()).key)).status).toBe(200)
  })

  it("gives a key's places back once when its clients leave, as soon as their work ends, and does not count the calls they left", async () => {
    const owner = await proWithKey()
    // The model holds each answer until the test lets its group go: those whose clients leave, and those who stay.
    const group = () => {
      let resolve!: () => void
      const promise = new Promise<void>((done) => (resolve = done))
      return { promise, resolve }
    }
    const groups = { leaving: group(), staying: group() }
    let reached = 0
    provider.handle((request, response) => {
      reached++
      void groups[request.body.includes("leaving") ? "leaving" : "staying"].promise.then(() => sendJson(response, 200, completion("Bonjour")))
    })
    const translate = (text: string) => call("POST", "/api/v1/translate", owner.key, { text, targetLanguage: "fr" })
    const address = await subject.app.listen({ port: 0, host: "127.0.0.1" })
    try {
      const staying = [translate("staying 1"), translate("staying 2"), translate("staying 3")]
      const leaving = new AbortController()
      const gone = ["leaving 1", "leaving 2"].map((text) =>
        fetch(`${address}/api/v1/translate`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
          body: JSON.stringify({ text, targetLanguage: "fr" }),
          signal: leaving.signal
        }).catch(() => null)
      )
      // All five places of the key are taken; then two clients give up.
      await expect.poll(() => reached, { timeout: 10_000 }).toBe(API_KEY_MAX_IN_FLIGHT)
      expect((await call("GET", "/api/v1/usage", owner.key)).status).toBe(429)
      leaving.abort()
      await Promise.all(gone)
      // The model answers the calls nobody waits for: their work ends, and their two places come back at once.
      groups.leaving.resolve()
      await expect.poll(async () => (await call("GET", "/api/v1/usage", owner.key)).status, { timeout: 10_000 }).toBe(200)
      // Each was given back once, not twice (which would free the places of those still waiting): two calls more are
      // taken, and the next is refused.
      const more = [translate("staying 4"), translate("staying 5")]
      await expect.poll(() => reached, { timeout: 10_000 }).toBe(API_KEY_MAX_IN_FLIGHT + 2)
      const over = await translate("one too many")
      expect([over.status, over.body.error?.code]).toEqual([429, "RATE_LIMIT_EXCEEDED"])
      groups.staying.resolve()
      expect((await Promise.all([...staying, ...more])).map((answer) => answer.status)).toEqual(Array(5).fill(200))
      // Answered: the five that stayed; the two that left are not counted.
      expect((await usage(owner.key)).byEndpoint.translate).toBe(5)
    } finally {
      provider.handle((_request, response) => sendJson(response, 200, completion("Bonjour")))
      groups.leaving.resolve()
      groups.staying.resolve()
    }
  })
})
