import type { FastifyInstance } from "fastify"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { MAX_MODEL_CALLS_IN_FLIGHT } from "./vision-model-service"
import { MAX_TRANSLATE_TEXT_LENGTH, TRANSLATE_LANGUAGES } from "~core/analysis/translate"

import {
  completion,
  PNG_DATA_URL,
  sendJson,
  signedInUser,
  startVisionModelApp,
  startStandIn,
  startTestApp,
  type TestApp
} from "../test-kit"

const API_KEY = "sk-test-secret-key-0123456789"
const TRANSLATION = "Sortie de secours"

const now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

type StandIn = Awaited<ReturnType<typeof startStandIn>>
type VisionModelApp = Awaited<ReturnType<typeof startVisionModelApp>>

let provider: StandIn
let subject: VisionModelApp
/** The same routes with a provider time-out of 400 ms, for what is not answered in time. */
let impatient: VisionModelApp
/** The same routes letting many calls of one account run at once: the quota's own bursts. */
let roomy: VisionModelApp

const answerNormally = () => provider.handle((_request, response) => sendJson(response, 200, completion(`  ${TRANSLATION}\n`)))

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion(TRANSLATION)))
  const env = { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, VQA_MODEL: "house-vision-1" }
  subject = await startVisionModelApp(env, { providerTimeoutMs: 15_000 }, { clock })
  impatient = await startVisionModelApp(env, { providerTimeoutMs: 400 }, { clock, database: subject.database })
  roomy = await startVisionModelApp(env, { providerTimeoutMs: 15_000, maxModelCallsInFlight: 100 }, { clock, database: subject.database })
})
afterAll(async () => {
  await roomy?.close()
  await impatient?.close()
  await subject?.close()
  await provider?.close()
})
beforeEach(answerNormally)

/** Any app of these tests: the vision model's app or one built by startTestApp. */
type Target = { app: FastifyInstance }

async function post(url: string, token: string | undefined, body: unknown, app: Target = subject) {
  const response = await app.app.inject({ method: "POST", url, headers: token ? { authorization: `Bearer ${token}` } : {}, payload: body as object })
  return { status: response.statusCode, body: response.json(), raw: response.body }
}

const translate = (token: string | undefined, body: unknown, app: Target = subject) => post("/api/analyze/translate", token, body, app)
const ask = (token: string, app: Target = subject) => post("/api/analyze/ask", token, { image: { dataUrl: PNG_DATA_URL }, question: "What is in this picture?" }, app)

const request = (extra: Record<string, unknown> = {}) => ({ text: "Emergency exit", targetLanguage: "fr", ...extra })

async function used(token: string, app: Target = subject): Promise<number> {
  const response = await app.app.inject({ method: "GET", url: "/api/analyze/usage", headers: { authorization: `Bearer ${token}` } })
  return response.json().data.used
}

async function setUsed(userId: string, count: number) {
  const month = new Date(now).toISOString().slice(0, 7)
  await subject.database.db
    .insertInto("usage_counters")
    .values({ user_id: userId, month, used: count, updated_at: new Date(now) })
    .onConflict((conflict) => conflict.columns(["user_id", "month"]).doUpdateSet({ used: count }))
    .execute()
}

describe("translating text", () => {
  it("sends the text alone to the configured model with the target language's name, answers the trimmed translation and counts one request", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length

    const { status, body, raw } = await translate(user.token, request({ text: "  Emergency exit\nPush bar to open  " }))
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      data: { translation: TRANSLATION, targetLanguage: "fr", sourceLanguage: null, usage: { used: 1, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } }
    })
    expect(raw).not.toContain(API_KEY)

    expect(provider.requests.length).toBe(before + 1)
    const sent = provider.requests.at(-1)!
    expect(sent.url).toBe("/v1/chat/completions")
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`)
    const payload = JSON.parse(sent.body)
    expect(payload.model).toBe("house-vision-1")
    expect(payload.messages).toHaveLength(2)
    const [system, user_] = payload.messages
    expect(system.role).toBe("system")
    expect(system.content).toContain("into French.")
    expect(system.content).toContain("translation only")
    expect(system.content).not.toContain(" from ")
    expect(user_).toEqual({ role: "user", content: "Emergency exit\nPush bar to open" })
    expect(sent.body).not.toContain("image_url")
    expect(await used(user.token)).toBe(1)
  })

  it("normalises region variants and case to the listed code and names the source language when given", async () => {
    const user = await signedInUser(subject.app)
    const cases: Array<[string, string | undefined, string, string | null, string, string | null]> = [
      ["pt-BR", undefined, "pt", null, "Portuguese", null],
      ["EN-us", "zh-hant-tw", "en", "zh-Hant", "English", "Chinese (Traditional)"],
      ["zh-CN", "ja", "zh-Hans", "ja", "Chinese (Simplified)", "Japanese"],
      ["zh-TW", "es-419", "zh-Hant", "es", "Chinese (Traditional)", "Spanish"],
      ["hi", "en-GB", "hi", "en", "Hindi", "English"]
    ]
    for (const [target, source, targetCode, sourceCode, targetName, sourceName] of cases) {
      const { status, body } = await translate(user.token, request({ targetLanguage: target, ...(source ? { sourceLanguage: source } : {}) }))
      expect(status, target).toBe(200)
      expect(body.data).toMatchObject({ targetLanguage: targetCode, sourceLanguage: sourceCode })
      const system = JSON.parse(provider.requests.at(-1)!.body).messages[0].content as string
      expect(system).toContain(`${sourceName ? `from ${sourceName} ` : ""}into ${targetName}.`)
    }
    expect(await used(user.token)).toBe(cases.length)
  })

  it("accepts every listed language and the longest text", async () => {
    const user = await signedInUser(subject.app, "pro")
    for (const language of TRANSLATE_LANGUAGES) {
      const { status, body } = await translate(user.token, request({ targetLanguage: language.code }))
      expect(status, language.code).toBe(200)
      expect(body.data.targetLanguage).toBe(language.code)
    }
    const longest = await translate(user.token, request({ text: "ü".repeat(MAX_TRANSLATE_TEXT_LENGTH) }))
    expect(longest.status).toBe(200)
    expect(JSON.parse(provider.requests.at(-1)!.body).messages[1].content).toHaveLength(MAX_TRANSLATE_TEXT_LENGTH)
  })

  it("refuses empty or too long text, unknown languages and malformed bodies with 400, uncounted and without calling the provider", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const bodies = [
      request({ text: "" }),
      request({ text: " \n\t " }),
      request({ text: "x".repeat(MAX_TRANSLATE_TEXT_LENGTH + 1) }),
      request({ text: 42 }),
      request({ text: null }),
      { targetLanguage: "fr" },
      { text: "Emergency exit" },
      request({ targetLanguage: "" }),
      request({ targetLanguage: "xx" }),
      request({ targetLanguage: "klingon" }),
      request({ targetLanguage: "zh" }),
      request({ targetLanguage: "en_US" }),
      request({ targetLanguage: "en-Latn" }),
      request({ targetLanguage: "sr-Latn-RS" }),
      request({ targetLanguage: "fr-" }),
      request({ targetLanguage: "French" }),
      request({ targetLanguage: "x".repeat(1000) }),
      request({ targetLanguage: 7 }),
      request({ targetLanguage: ["fr"] }),
      request({ sourceLanguage: "xx" }),
      request({ sourceLanguage: "" }),
      request({ sourceLanguage: null }),
      request({ sourceLanguage: 1 }),
      request({ model: "gpt-4o" }),
      request({ image: { dataUrl: PNG_DATA_URL } }),
      [],
      {}
    ]
    for (const body of bodies) {
      const { status, body: answer } = await translate(user.token, body)
      expect(status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.success).toBe(false)
      expect(answer.error.code).toBe("VALIDATION_FAILED")
    }
    const unknown = await translate(user.token, request({ targetLanguage: "xx" }))
    expect(unknown.body.error.details[0]).toMatch(/^targetLanguage: Unknown language "xx"\. Use one of: en, zh-Hans, zh-Hant, /)

    const notJson = await subject.app.inject({
      method: "POST",
      url: "/api/analyze/translate",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      payload: "{text:"
    })
    expect(notJson.statusCode).toBe(400)
    expect(notJson.json().success).toBe(false)
    const bareString = await subject.app.inject({
      method: "POST",
      url: "/api/analyze/translate",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      payload: JSON.stringify("Emergency exit")
    })
    expect(bareString.statusCode).toBe(400)
    expect(bareString.json().error.code).toBe("VALIDATION_FAILED")
    const huge = await translate(user.token, request({ text: "x".repeat(100_000) }))
    expect(huge.status).toBe(413)
    expect(huge.body.success).toBe(false)

    expect(provider.requests.length).toBe(before)
    expect(await used(user.token)).toBe(0)
  })
})

describe("sign-in and configuration", () => {
  it("answers 401 without a valid token and never calls the provider", async () => {
    const before = provider.requests.length
    for (const token of [undefined, "not-a-token"]) {
      const { status, body } = await translate(token, request())
      expect(status).toBe(401)
      expect(body.error.code).toBe("UNAUTHORIZED")
    }
    expect(provider.requests.length).toBe(before)
  })

  describe("through buildApp", () => {
    let plain: TestApp
    beforeAll(async () => {
      plain = await startTestApp({}, { clock })
    })
    afterAll(async () => {
      await plain?.close()
    })

    it("answers 503 VQA_NOT_CONFIGURED without an API key, uncounted", async () => {
      const user = await signedInUser(plain.app)
      const { status, body } = await translate(user.token, request(), plain)
      expect(status).toBe(503)
      expect(body.error.code).toBe("VQA_NOT_CONFIGURED")
      expect(await used(user.token, plain)).toBe(0)
    })
  })
})

describe("the monthly quota", () => {
  it("shares a Free user's 10 requests between questions and translations", async () => {
    const user = await signedInUser(subject.app)
    for (let index = 1; index <= 9; index++) expect((await ask(user.token)).status).toBe(200)
    const tenth = await translate(user.token, request())
    expect(tenth.status).toBe(200)
    expect(tenth.body.data.usage).toMatchObject({ used: 10, limit: 10 })

    const before = provider.requests.length
    for (const refused of [await translate(user.token, request()), await ask(user.token)]) {
      expect(refused.status).toBe(429)
      expect(refused.body.error).toMatchObject({
        code: "QUOTA_EXCEEDED",
        message: "You have used all 10 AI requests of your plan this month. Your quota resets on 1 December 2026 (UTC)."
      })
    }
    expect(provider.requests.length).toBe(before)
    expect(await used(user.token)).toBe(10)
  })

  it("counts translations toward questions' quota too: 10 translations leave no question", async () => {
    const user = await signedInUser(subject.app)
    for (let index = 1; index <= 10; index++) expect((await translate(user.token, request())).body.data.usage.used).toBe(index)
    expect((await ask(user.token)).body.error.code).toBe("QUOTA_EXCEEDED")
  })

  // These bursts are the quota's own: `roomy` lets all 20 calls of one account run at once.
  it("lets exactly as many of 20 parallel translations through as the quota has left", async () => {
    const user = await signedInUser(roomy.app)
    const before = provider.requests.length
    const answers = await Promise.all(Array.from({ length: 20 }, () => translate(user.token, request(), roomy)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10)
    expect(answers.filter((answer) => answer.status === 429 && answer.body.error.code === "QUOTA_EXCEEDED")).toHaveLength(10)
    expect(answers.map((answer) => answer.body.data?.usage.used).filter(Boolean).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(provider.requests.length).toBe(before + 10)
    expect(await used(user.token, roomy)).toBe(10)

    const almostSpent = await signedInUser(roomy.app)
    await setUsed(almostSpent.id, 7)
    const mixed = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? ask(almostSpent.token, roomy) : translate(almostSpent.token, request(), roomy))))
    expect(mixed.filter((answer) => answer.status === 200)).toHaveLength(3)
    expect(await used(almostSpent.token, roomy)).toBe(10)
  })

  it("gives Pro unlimited translations and Enterprise the limit an admin set", async () => {
    const pro = await signedInUser(roomy.app, "pro")
    await setUsed(pro.id, 500)
    const answer = await translate(pro.token, request(), roomy)
    expect(answer.status).toBe(200)
    expect(answer.body.data.usage).toEqual({ used: 501, limit: null, resetsAt: "2026-12-01T00:00:00.000Z" })

    const enterprise = await signedInUser(roomy.app, "enterprise", 2)
    const burst = await Promise.all(Array.from({ length: 20 }, () => translate(enterprise.token, request(), roomy)))
    expect(burst.filter((one) => one.status === 200)).toHaveLength(2)
    expect(await used(enterprise.token, roomy)).toBe(2)
  })
})

describe("provider failures", () => {
  const failures: Array<[string, () => void, string, number]> = [
    ["an error status", () => provider.handle((_request, response) => sendJson(response, 500, { error: { message: "boom" } })), "The vision model provider answered with an error (HTTP 500). Please try again later.", 0],
    ["a refused key", () => provider.handle((_request, response) => sendJson(response, 401, { error: { message: "Incorrect API key" } })), "The vision model provider refused this server's API key. Please tell the administrator.", 0],
    ["a body that is not JSON", () => provider.handle((_request, response) => { response.writeHead(200, { "content-type": "application/json" }); response.end("<html>gateway</html>") }), "The vision model sent an answer that could not be read.", 1],
    ["JSON without choices", () => provider.handle((_request, response) => sendJson(response, 200, { id: "x", object: "chat.completion" })), "The vision model sent an answer that could not be read.", 1],
    ["a choice without a message", () => provider.handle((_request, response) => sendJson(response, 200, { choices: [null] })), "The vision model sent an answer that could not be read.", 1],
    ["an empty translation", () => provider.handle((_request, response) => sendJson(response, 200, completion(""))), "The vision model sent an answer that could not be read.", 1],
    ["a blank translation", () => provider.handle((_request, response) => sendJson(response, 200, completion(" \n "))), "The vision model sent an answer that could not be read.", 1],
    [
      "a translation cut off at the token limit",
      () => provider.handle((_request, response) => {
        const cut = completion("Sortie de")
        sendJson(response, 200, { ...cut, choices: [{ ...cut.choices[0], finish_reason: "length" }] })
      }),
      "The translation was too long for the model and was cut off. Please translate a shorter part of the text.",
      1
    ],
    ["no answer in time", () => provider.handle(() => { /* never answers */ }), "The vision model did not answer in time. Please try again.", 1],
    ["headers but a body that never ends", () => provider.handle((_request, response) => { response.writeHead(200, { "content-type": "application/json" }); response.write("{\"choices\":") }), "The vision model did not answer in time. Please try again.", 1]
  ]

  it.each(failures)("answers 502 PROVIDER_ERROR for %s without showing the key, and counts it only when the provider answered", async (_name, arrange, message, counted) => {
    const user = await signedInUser(impatient.app)
    arrange()
    const { status, body, raw } = await translate(user.token, request(), impatient)
    expect(status).toBe(502)
    expect(body).toEqual({ success: false, error: { code: "PROVIDER_ERROR", message } })
    expect(raw).not.toContain(API_KEY)
    expect(await used(user.token, impatient)).toBe(counted)
  })

  it("counts every translation the provider answered: 30 cut off from a Free account cost 10 calls, and the other 20 never reach it", async () => {
    const user = await signedInUser(subject.app)
    provider.handle((_request, response) => {
      const cut = completion("Sortie de")
      sendJson(response, 200, { ...cut, choices: [{ ...cut.choices[0], finish_reason: "length" }] })
    })
    const before = provider.requests.length
    const answers: { status: number; body: { error?: { code: string } } }[] = []
    for (let index = 0; index < 30; index++) answers.push(await translate(user.token, request()))
    expect(answers.filter((answer) => answer.body.error?.code === "PROVIDER_ERROR")).toHaveLength(10)
    expect(answers.filter((answer) => answer.body.error?.code === "QUOTA_EXCEEDED")).toHaveLength(20)
    expect(provider.requests.length - before).toBe(10)
    expect(await used(user.token)).toBe(10)
  })

  it("gives back every reservation the provider refuses, and holds at most 3 calls of an account in flight: 20 at once, 3 reach it", async () => {
    const user = await signedInUser(subject.app)
    // Refused after 100 ms, so that 3 are in flight when the rest arrive; on the app with the long provider time-out, so
    // that a busy machine cannot turn the refusal into a time-out (which keeps the reservation: the provider may have worked).
    provider.handle((_request, response) => setTimeout(() => sendJson(response, 503, { error: { message: "overloaded" } }), 100))
    const before = provider.requests.length
    const answers = await Promise.all(Array.from({ length: 20 }, () => translate(user.token, request(), subject)))
    expect(answers.filter((answer) => answer.status === 502)).toHaveLength(MAX_MODEL_CALLS_IN_FLIGHT)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(20 - MAX_MODEL_CALLS_IN_FLIGHT)
    for (const answer of refused) expect(answer.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", retryAfter: expect.any(Number) })
    expect(provider.requests.length - before).toBe(MAX_MODEL_CALLS_IN_FLIGHT)
    expect(await used(user.token, subject)).toBe(0)
    answerNormally()
    expect((await translate(user.token, request(), subject)).body.data.usage.used).toBe(1)
  })

  it("answers 502 when the provider cannot be reached", async () => {
    const down = await startVisionModelApp({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }, {}, { clock, database: subject.database })
    try {
      const user = await signedInUser(down.app)
      const { status, body } = await translate(user.token, request(), down)
      expect(status).toBe(502)
      expect(body.error.code).toBe("PROVIDER_ERROR")
      expect(await used(user.token, down)).toBe(0)
    } finally {
      await down.close()
    }
  })
})
