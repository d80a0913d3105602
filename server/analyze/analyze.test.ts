import { Readable } from "node:stream"

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { MAX_HISTORY_ANSWER_LENGTH, MAX_HISTORY_TURNS, MAX_IMAGE_BYTES, MAX_QUESTION_LENGTH } from "~core/vqa"

import {
  completion,
  PNG_1PX,
  PNG_DATA_URL,
  sendJson,
  signedInUser,
  startAnalyzeApp,
  startStandIn,
  startTestApp,
  type TestApp
} from "../test-kit"
import { FAILED_IMAGE_FETCH_WINDOW_MS, MAX_FAILED_IMAGE_FETCHES } from "./routes"

const API_KEY = "sk-test-secret-key-0123456789"
const ANSWER = "A small transparent square."

let now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

type StandIn = Awaited<ReturnType<typeof startStandIn>>
type AnalyzeApp = Awaited<ReturnType<typeof startAnalyzeApp>>

let provider: StandIn
let imageHost: StandIn
let subject: AnalyzeApp
/**
 * The same routes allowed to fetch loopback http:// URLs (the test-only option), and letting many calls of one account
 * run at once: its bursts are about downloads and the quota, not the calls in flight (see translate.test.ts).
 */
let loopback: AnalyzeApp
/**
 * The same as `loopback` with time-outs of 400 ms, for the tests of what is not answered in time. The others get
 * time-outs a busy machine cannot reach: sending an 8 MB image to the provider on loopback can take over 400 ms.
 */
let impatient: AnalyzeApp

const answerNormally = () => provider.handle((_request, response) => sendJson(response, 200, completion(ANSWER)))

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion(ANSWER)))
  imageHost = await startStandIn((_request, response) => {
    response.writeHead(200, { "content-type": "image/png" })
    response.end(PNG_1PX)
  })
  const env = { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, VQA_MODEL: "house-vision-1" }
  subject = await startAnalyzeApp(env, { providerTimeoutMs: 15_000 }, { clock })
  loopback = await startAnalyzeApp(env, { providerTimeoutMs: 15_000, imageFetchTimeoutMs: 15_000, allowLoopbackImageUrls: true, maxModelCallsInFlight: 100 }, { clock, database: subject.database })
  impatient = await startAnalyzeApp(env, { providerTimeoutMs: 400, imageFetchTimeoutMs: 400, allowLoopbackImageUrls: true }, { clock, database: subject.database })
})
afterAll(async () => {
  await impatient?.close()
  await loopback?.close()
  await subject?.close()
  await provider?.close()
  await imageHost?.close()
})
beforeEach(() => {
  answerNormally()
  imageHost.requests.length = 0
})

async function ask(token: string | undefined, body: unknown, app = subject) {
  const response = await app.app.inject({
    method: "POST",
    url: "/api/analyze/ask",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body as object
  })
  return { status: response.statusCode, body: response.json(), raw: response.body }
}

async function usage(token: string, app = subject) {
  const response = await app.app.inject({ method: "GET", url: "/api/analyze/usage", headers: { authorization: `Bearer ${token}` } })
  return { status: response.statusCode, body: response.json() }
}

const question = (extra: Record<string, unknown> = {}) => ({ image: { dataUrl: PNG_DATA_URL }, question: "What is in this picture?", ...extra })

async function setUsed(userId: string, used: number) {
  const month = new Date(now).toISOString().slice(0, 7)
  await subject.database.db
    .insertInto("usage_counters")
    .values({ user_id: userId, month, used, updated_at: new Date(now) })
    .onConflict((conflict) => conflict.columns(["user_id", "month"]).doUpdateSet({ used }))
    .execute()
}

describe("asking the vision model", () => {
  it("answers with the model's text, sends the image and question as chat-completions input, and counts the request", async () => {
    const user = await signedInUser(subject.app)
    expect((await usage(user.token)).body).toEqual({
      success: true,
      data: { used: 0, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z", plan: "free" }
    })
    const before = provider.requests.length

    const { status, body, raw } = await ask(user.token, question())
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      data: { answer: ANSWER, model: "house-vision-1", usage: { used: 1, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } }
    })
    expect(raw).not.toContain(API_KEY)

    expect(provider.requests.length).toBe(before + 1)
    const sent = provider.requests.at(-1)!
    expect(sent.method).toBe("POST")
    expect(sent.url).toBe("/v1/chat/completions")
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(JSON.parse(sent.body)).toEqual({
      model: "house-vision-1",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is in this picture?" },
            { type: "image_url", image_url: { url: PNG_DATA_URL } }
          ]
        }
      ],
      max_tokens: 500
    })
    expect((await usage(user.token)).body.data).toMatchObject({ used: 1, limit: 10 })
  })

  it("sends the type the bytes show, not the declared one", async () => {
    const user = await signedInUser(subject.app)
    const declaredJpeg = `data:image/jpeg;base64,${PNG_1PX.toString("base64")}`
    expect((await ask(user.token, question({ image: { dataUrl: declaredJpeg } }))).status).toBe(200)
    const content = JSON.parse(provider.requests.at(-1)!.body).messages[0].content
    expect(content[1].image_url.url).toBe(PNG_DATA_URL)
  })

  it("accepts a model of the allow-list and refuses others with 400, uncounted", async () => {
    const user = await signedInUser(subject.app)
    const chosen = await ask(user.token, question({ model: "gpt-4o" }))
    expect(chosen.status).toBe(200)
    expect(chosen.body.data.model).toBe("gpt-4o")
    expect(JSON.parse(provider.requests.at(-1)!.body).model).toBe("gpt-4o")

    const refused = await ask(user.token, question({ model: "gpt-3.5-turbo" }))
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("MODEL_NOT_ALLOWED")
    expect(refused.body.error.message).toContain("house-vision-1, gpt-4o-mini, gpt-4o, gpt-4.1-mini")
    expect((await usage(user.token)).body.data.used).toBe(1)
  })

  it("refuses a missing, empty or too long question, and unknown fields, with 400", async () => {
    const user = await signedInUser(subject.app)
    const bodies = [
      { image: { dataUrl: PNG_DATA_URL } },
      question({ question: "   " }),
      question({ question: "x".repeat(MAX_QUESTION_LENGTH + 1) }),
      question({ question: 42 }),
      question({ role: "admin" }),
      { question: "What?" },
      question({ image: { dataUrl: PNG_DATA_URL, url: "https://example.com/a.png" } }),
      question({ image: "https://example.com/a.png" })
    ]
    for (const body of bodies) {
      const { status, body: answer } = await ask(user.token, body)
      expect(status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.success).toBe(false)
      expect(answer.error.code).toBe("VALIDATION_FAILED")
    }
    expect((await ask(user.token, question({ question: "x".repeat(MAX_QUESTION_LENGTH) }))).status).toBe(200)
    expect((await usage(user.token)).body.data.used).toBe(1)
  })

  it("sends the chat so far: the image with the first question, earlier answers as the assistant's turns, the new question last", async () => {
    const user = await signedInUser(subject.app)
    const history = [
      { question: "What is this?", answer: "A harbour." },
      { question: "What time of day?", answer: "Dusk." }
    ]
    expect((await ask(user.token, question({ question: "How many boats?", history }))).status).toBe(200)
    expect(JSON.parse(provider.requests.at(-1)!.body).messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: PNG_DATA_URL } }] },
      { role: "assistant", content: "A harbour." },
      { role: "user", content: "What time of day?" },
      { role: "assistant", content: "Dusk." },
      { role: "user", content: "How many boats?" }
    ])
    expect((await usage(user.token)).body.data.used).toBe(1)
  })

  it("refuses a history too long or malformed with 400, uncounted and without calling the provider", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const turn = { question: "Q?", answer: "A." }
    const bad = [
      Array.from({ length: MAX_HISTORY_TURNS + 1 }, () => turn),
      [{ question: "Q?" }],
      [{ question: "", answer: "A." }],
      [{ question: "Q?", answer: "x".repeat(MAX_HISTORY_ANSWER_LENGTH + 1) }],
      [{ ...turn, role: "system" }],
      "not a list"
    ]
    for (const history of bad) {
      const { status, body } = await ask(user.token, question({ history }))
      expect(status, JSON.stringify(history).slice(0, 60)).toBe(400)
      expect(body.error.code).toBe("VALIDATION_FAILED")
    }
    expect(provider.requests.length).toBe(before)
    expect((await usage(user.token)).body.data.used).toBe(0)
    expect((await ask(user.token, question({ history: Array.from({ length: MAX_HISTORY_TURNS }, () => turn) }))).status).toBe(200)
  })
})

describe("sign-in and configuration", () => {
  it("answers 401 without a valid token and never calls the provider", async () => {
    const before = provider.requests.length
    for (const token of [undefined, "not-a-token"]) {
      const { status, body } = await ask(token, question())
      expect(status).toBe(401)
      expect(body.error.code).toBe("UNAUTHORIZED")
    }
    const response = await subject.app.inject({ method: "GET", url: "/api/analyze/usage" })
    expect(response.statusCode).toBe(401)
    expect(provider.requests.length).toBe(before)
  })

  it("refuses an anonymous question before reading its body, however large it is declared", async () => {
    const declared = 10 * 1024 * 1024
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    let produced = 0
    // A body that is produced only as fast as the server reads it.
    const body = new Readable({
      read() {
        if (produced >= declared) return void this.push(null)
        produced += chunk.length
        this.push(chunk)
      }
    })
    const response = await subject.app.inject({
      method: "POST",
      url: "/api/analyze/ask",
      headers: { "content-type": "application/json", "content-length": String(declared) },
      payload: body
    })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.code).toBe("UNAUTHORIZED")
    expect(produced).toBeLessThan(declared / 10)
  })

  describe("through buildApp", () => {
    let plain: TestApp
    let configured: TestApp
    beforeAll(async () => {
      plain = await startTestApp({}, { clock })
      configured = await startTestApp({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: `${provider.url}/v1` }, { clock })
    })
    afterAll(async () => {
      await plain?.close()
      await configured?.close()
    })

    it("answers 401 to anonymous callers", async () => {
      expect((await plain.app.inject({ method: "POST", url: "/api/analyze/ask", payload: question() })).statusCode).toBe(401)
      expect((await plain.app.inject({ method: "GET", url: "/api/analyze/usage" })).statusCode).toBe(401)
    })

    it("answers 503 VQA_NOT_CONFIGURED without an API key, uncounted, and still reports usage", async () => {
      const user = await signedInUser(plain.app)
      const response = await plain.app.inject({ method: "POST", url: "/api/analyze/ask", headers: { authorization: `Bearer ${user.token}` }, payload: question() })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toEqual({
        success: false,
        error: { code: "VQA_NOT_CONFIGURED", message: "The vision model is not configured on this server." }
      })
      const report = await plain.app.inject({ method: "GET", url: "/api/analyze/usage", headers: { authorization: `Bearer ${user.token}` } })
      expect(report.json().data).toEqual({ used: 0, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z", plan: "free" })
    })

    it("answers with the configured provider and the default model", async () => {
      const user = await signedInUser(configured.app)
      const response = await configured.app.inject({ method: "POST", url: "/api/analyze/ask", headers: { authorization: `Bearer ${user.token}` }, payload: question() })
      expect(response.statusCode).toBe(200)
      expect(response.json().data).toEqual({ answer: ANSWER, model: "gpt-4o-mini", usage: { used: 1, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } })
    })
  })
})

describe("plan quotas", () => {
  it("gives a Free user 10 requests per UTC month; the 11th is refused with the reset date and not counted", async () => {
    const saved = now
    now = Date.UTC(2026, 10, 30, 23, 30, 0)
    try {
      const user = await signedInUser(subject.app)
      for (let index = 1; index <= 10; index++) {
        const { status, body } = await ask(user.token, question())
        expect(status).toBe(200)
        expect(body.data.usage.used).toBe(index)
      }
      const before = provider.requests.length
      const refused = await ask(user.token, question())
      expect(refused.status).toBe(429)
      expect(refused.body.error).toEqual({
        code: "QUOTA_EXCEEDED",
        message: "You have used all 10 AI requests of your plan this month. Your quota resets on 1 December 2026 (UTC).",
        retryAfter: 1800
      })
      expect(provider.requests.length).toBe(before)
      expect((await usage(user.token)).body.data).toEqual({ used: 10, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z", plan: "free" })

      now = Date.UTC(2026, 11, 1, 0, 0, 0) - 1
      expect((await ask(user.token, question())).status).toBe(429)

      now = Date.UTC(2026, 11, 1, 0, 0, 0)
      expect((await usage(user.token)).body.data).toEqual({ used: 0, limit: 10, resetsAt: "2027-01-01T00:00:00.000Z", plan: "free" })
      const allowed = await ask(user.token, question())
      expect(allowed.status).toBe(200)
      expect(allowed.body.data.usage).toEqual({ used: 1, limit: 10, resetsAt: "2027-01-01T00:00:00.000Z" })
    } finally {
      now = saved
    }
  })

  it("refuses before downloading an image URL when the quota is spent", async () => {
    const user = await signedInUser(loopback.app)
    await setUsed(user.id, 10)
    const refused = await ask(user.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)
    expect(refused.status).toBe(429)
    expect(imageHost.requests).toHaveLength(0)
  })

  it("gives Pro unlimited requests", async () => {
    const user = await signedInUser(subject.app, "pro")
    await setUsed(user.id, 500)
    const { status, body } = await ask(user.token, question())
    expect(status).toBe(200)
    expect(body.data.usage).toEqual({ used: 501, limit: null, resetsAt: "2026-12-01T00:00:00.000Z" })
    expect((await usage(user.token)).body.data).toMatchObject({ used: 501, limit: null, plan: "pro" })
  })

  it("gives Enterprise the limit an admin set, and unlimited while none is set", async () => {
    const limited = await signedInUser(subject.app, "enterprise", 2)
    expect((await ask(limited.token, question())).status).toBe(200)
    expect((await ask(limited.token, question())).body.data.usage).toMatchObject({ used: 2, limit: 2 })
    const refused = await ask(limited.token, question())
    expect(refused.status).toBe(429)
    expect(refused.body.error.code).toBe("QUOTA_EXCEEDED")
    expect((await usage(limited.token)).body.data).toMatchObject({ used: 2, limit: 2, plan: "enterprise" })

    const open = await signedInUser(subject.app, "enterprise", null)
    await setUsed(open.id, 10_000)
    expect((await ask(open.token, question())).body.data.usage).toMatchObject({ used: 10_001, limit: null })

    const none = await signedInUser(subject.app, "enterprise", 0)
    const zero = await ask(none.token, question())
    expect(zero.status).toBe(429)
    expect(zero.body.error.message).toContain("Your plan includes no AI requests.")
  })

  it("never lets parallel requests at the limit exceed it", async () => {
    const user = await signedInUser(loopback.app)
    await setUsed(user.id, 9)
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(user.token, question(), loopback)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.status === 429 && answer.body.error.code === "QUOTA_EXCEEDED")).toHaveLength(5)
    expect((await usage(user.token, loopback)).body.data.used).toBe(10)

    const enterprise = await signedInUser(loopback.app, "enterprise", 3)
    const burst = await Promise.all(Array.from({ length: 8 }, () => ask(enterprise.token, question(), loopback)))
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(3)
    expect((await usage(enterprise.token, loopback)).body.data.used).toBe(3)
  })
})

describe("provider failures", () => {
  const failures: Array<[string, () => void, string, number]> = [
    ["an error status", () => provider.handle((_request, response) => sendJson(response, 500, { error: { message: "boom" } })), "The vision model provider answered with an error (HTTP 500). Please try again later.", 0],
    ["a refused key", () => provider.handle((_request, response) => sendJson(response, 401, { error: { message: "Incorrect API key" } })), "The vision model provider refused this server's API key. Please tell the administrator.", 0],
    ["a body that is not JSON", () => provider.handle((_request, response) => { response.writeHead(200, { "content-type": "application/json" }); response.end("<html>gateway</html>") }), "The vision model sent an answer that could not be read.", 1],
    ["JSON without choices", () => provider.handle((_request, response) => sendJson(response, 200, { id: "x", object: "chat.completion" })), "The vision model sent an answer that could not be read.", 1],
    ["an empty answer", () => provider.handle((_request, response) => sendJson(response, 200, completion(""))), "The vision model sent an answer that could not be read.", 1],
    ["no answer in time", () => provider.handle(() => { /* never answers */ }), "The vision model did not answer in time. Please try again.", 1],
    ["headers but a body that never ends", () => provider.handle((_request, response) => { response.writeHead(200, { "content-type": "application/json" }); response.write("{\"choices\":") }), "The vision model did not answer in time. Please try again.", 1]
  ]

  it.each(failures)("answers 502 PROVIDER_ERROR for %s without showing the key, and counts it only when the provider answered", async (_name, arrange, message, counted) => {
    const user = await signedInUser(impatient.app)
    arrange()
    const { status, body, raw } = await ask(user.token, question(), impatient)
    expect(status).toBe(502)
    expect(body).toEqual({ success: false, error: { code: "PROVIDER_ERROR", message } })
    expect(raw).not.toContain(API_KEY)
    expect((await usage(user.token, impatient)).body.data.used).toBe(counted)
  })

  it("answers 502 when the provider cannot be reached", async () => {
    const down = await startAnalyzeApp({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }, {}, { clock, database: subject.database })
    try {
      const user = await signedInUser(down.app)
      const { status, body } = await ask(user.token, question(), down)
      expect(status).toBe(502)
      expect(body.error.code).toBe("PROVIDER_ERROR")
      expect((await usage(user.token, down)).body.data.used).toBe(0)
    } finally {
      await down.close()
    }
  })
})

describe("image input", () => {
  const base64 = (bytes: Buffer) => bytes.toString("base64")

  it("answers 413 IMAGE_TOO_LARGE for an image over 8 MiB, also when the body itself is too large", async () => {
    const user = await signedInUser(subject.app)
    const oversized = Buffer.alloc(MAX_IMAGE_BYTES + 1)
    PNG_1PX.copy(oversized)
    const justOver = await ask(user.token, question({ image: { dataUrl: `data:image/png;base64,${base64(oversized)}` } }))
    expect(justOver.status).toBe(413)
    expect(justOver.body.error).toEqual({ code: "IMAGE_TOO_LARGE", message: "The image is larger than 8 MB." })

    const huge = Buffer.alloc(MAX_IMAGE_BYTES + 1024 * 1024)
    const farOver = await ask(user.token, question({ image: { dataUrl: `data:image/png;base64,${base64(huge)}` } }))
    expect(farOver.status).toBe(413)
    expect(farOver.body.error.code).toBe("IMAGE_TOO_LARGE")

    const atLimit = Buffer.alloc(MAX_IMAGE_BYTES)
    PNG_1PX.copy(atLimit)
    expect((await ask(user.token, question({ image: { dataUrl: `data:image/png;base64,${base64(atLimit)}` } }))).status).toBe(200)
    expect((await usage(user.token)).body.data.used).toBe(1)
  })

  it("answers 400 INVALID_IMAGE for a text file declared as PNG, an SVG, and data that is not base64", async () => {
    const user = await signedInUser(subject.app)
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    const cases = [
      `data:image/png;base64,${base64(Buffer.from("just some text, not a picture\n"))}`,
      `data:image/svg+xml;base64,${base64(Buffer.from(svg))}`,
      `data:image/svg+xml,${encodeURIComponent(svg)}`,
      "data:image/png;base64,!!!not base64!!!",
      "data:image/png;base64,",
      `data:text/plain;base64,${base64(Buffer.from("GIF? no"))}`
    ]
    for (const dataUrl of cases) {
      const { status, body } = await ask(user.token, question({ image: { dataUrl } }))
      expect(status, dataUrl.slice(0, 40)).toBe(400)
      expect(body.error.code).toBe("INVALID_IMAGE")
    }
    const notData = await ask(user.token, question({ image: { dataUrl: "https://example.com/a.png" } }))
    expect(notData.status).toBe(400)
    expect((await usage(user.token)).body.data.used).toBe(0)
  })

  it("accepts JPEG, GIF and WebP recognised by their bytes", async () => {
    const user = await signedInUser(subject.app)
    const images: Array<[Buffer, string]> = [
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), "image/jpeg"],
      [Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"), "image/gif"],
      [Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8 ")]), "image/webp"]
    ]
    for (const [bytes, type] of images) {
      expect((await ask(user.token, question({ image: { dataUrl: `data:application/octet-stream;base64,${base64(bytes)}` } }))).status).toBe(200)
      const sent = JSON.parse(provider.requests.at(-1)!.body).messages[0].content[1].image_url.url as string
      expect(sent).toBe(`data:${type};base64,${base64(bytes)}`)
    }
  })
})

describe("image URLs", () => {
  it("refuses private, loopback, link-local and other non-public targets without contacting them", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const urls = [
      `http://127.0.0.1:${imageHost.port}/a.png`,
      `https://127.0.0.1:${imageHost.port}/a.png`,
      "http://10.0.0.1/a.png",
      "https://10.0.0.1/a.png",
      "https://172.16.5.4/a.png",
      "https://192.168.1.1/a.png",
      "https://169.254.169.254/latest",
      "https://100.64.0.1/",
      "https://[::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:169.254.169.254]/",
      "https://[fe80::1]/",
      "https://[fd00::1]/",
      "https://[ff02::1]/",
      "https://localhost/",
      `https://localhost:${imageHost.port}/a.png`,
      "https://images.localhost/a.png",
      "https://0.0.0.0/",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://224.0.0.1/",
      "http://example.com/a.png",
      "ftp://example.com/a.png",
      "file:///etc/passwd",
      "https://user:secret@example.com/a.png",
      "not a url"
    ]
    for (const [index, url] of urls.entries()) {
      // A fresh caller every few URLs: failed URLs count toward a per-user limit, tested below.
      const caller = index % 10 === 0 ? await signedInUser(subject.app) : null
      if (caller) Object.assign(user, caller)
      const { status, body } = await ask(user.token, question({ image: { url } }))
      expect(status, url).toBe(400)
      expect(body.error.code, url).toBe("URL_NOT_ALLOWED")
    }
    expect(imageHost.requests).toHaveLength(0)
    expect(provider.requests.length).toBe(before)
    expect((await usage(user.token)).body.data.used).toBe(0)
  })

  it(`stops a user after ${MAX_FAILED_IMAGE_FETCHES} failed image URLs in ${FAILED_IMAGE_FETCH_WINDOW_MS / 60_000} minutes, even sent all at once`, async () => {
    imageHost.handle((request, response) => {
      response.writeHead(request.url === "/a.png" ? 200 : 404, { "content-type": "image/png" })
      response.end(request.url === "/a.png" ? PNG_1PX : undefined)
    })
    const prober = await signedInUser(loopback.app, "pro")
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => ask(prober.token, question({ image: { url: `${imageHost.url}/missing-${index}.png` } }), loopback))
    )
    const codes = answers.map((answer) => answer.body.error.code)
    expect(codes.filter((code) => code === "IMAGE_FETCH_FAILED")).toHaveLength(MAX_FAILED_IMAGE_FETCHES)
    const limited = answers.filter((answer) => answer.body.error.code === "RATE_LIMIT_EXCEEDED")
    expect(limited).toHaveLength(30 - MAX_FAILED_IMAGE_FETCHES)
    expect(limited[0]!.status).toBe(429)
    expect(limited[0]!.body.error.retryAfter).toBeGreaterThan(0)
    expect(limited[0]!.body.error.message).toMatch(/^Too many image URLs could not be downloaded \(or are still downloading\)\. Please wait \d+ minutes?/)
    expect(imageHost.requests.filter((request) => request.url!.startsWith("/missing-"))).toHaveLength(MAX_FAILED_IMAGE_FETCHES)
    // Until the window has passed even a good URL is refused; an uploaded image still works.
    expect((await ask(prober.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)).status).toBe(429)
    expect((await ask(prober.token, question(), loopback)).status).toBe(200)

    // A successful download gives its place back: more of them than the limit, 15 at a time, all go through.
    const other = await signedInUser(loopback.app, "pro")
    for (let round = 0; round < 2; round++) {
      const good = await Promise.all(Array.from({ length: 15 }, () => ask(other.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)))
      expect(good.map((answer) => answer.status)).toEqual(Array(15).fill(200))
    }

    now += FAILED_IMAGE_FETCH_WINDOW_MS
    expect((await ask(prober.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)).status).toBe(200)
  })

  describe("downloading (loopback allowed by the test-only option)", () => {
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1)
    PNG_1PX.copy(big)

    beforeEach(() => {
      imageHost.handle((request, response) => {
        switch (request.url) {
          case "/a.png":
            response.writeHead(200, { "content-type": "image/png" })
            response.end(PNG_1PX)
            return
          case "/declared-large.png":
            response.writeHead(200, { "content-type": "image/png", "content-length": String(big.length) })
            response.end(big)
            return
          case "/streamed-large.png":
            response.writeHead(200, { "content-type": "image/png" })
            for (let offset = 0; offset < big.length; offset += 1024 * 1024) response.write(big.subarray(offset, offset + 1024 * 1024))
            response.end()
            return
          case "/page.html":
            response.writeHead(200, { "content-type": "image/png" })
            response.end("<!doctype html><title>not an image</title>")
            return
          case "/redirect":
            response.writeHead(302, { location: "/a.png" })
            response.end()
            return
          case "/redirect-private":
            response.writeHead(302, { location: "http://10.0.0.1/a.png" })
            response.end()
            return
          case "/loop":
            response.writeHead(301, { location: "/loop" })
            response.end()
            return
          case "/slow":
            return
          default:
            response.writeHead(404)
            response.end()
        }
      })
    })

    it("downloads the image and sends it as a data URL of its detected type", async () => {
      const user = await signedInUser(loopback.app)
      const { status, body } = await ask(user.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)
      expect(status).toBe(200)
      expect(body.data.answer).toBe(ANSWER)
      expect(JSON.parse(provider.requests.at(-1)!.body).messages[0].content[1].image_url.url).toBe(PNG_DATA_URL)
      expect(imageHost.requests.at(-1)!.headers.authorization).toBeUndefined()
    })

    it("follows a redirect and checks where it leads", async () => {
      const user = await signedInUser(loopback.app)
      expect((await ask(user.token, question({ image: { url: `${imageHost.url}/redirect` } }), loopback)).status).toBe(200)
      const toPrivate = await ask(user.token, question({ image: { url: `${imageHost.url}/redirect-private` } }), loopback)
      expect(toPrivate.status).toBe(400)
      expect(toPrivate.body.error.code).toBe("URL_NOT_ALLOWED")
      const loop = await ask(user.token, question({ image: { url: `${imageHost.url}/loop` } }), loopback)
      expect(loop.body.error).toEqual({ code: "IMAGE_FETCH_FAILED", message: "The image URL redirects too many times." })
      expect(imageHost.requests.filter((request) => request.url === "/loop")).toHaveLength(4)
      expect((await usage(user.token, loopback)).body.data.used).toBe(1)
    })

    it("refuses a too large body, declared or streamed, and a body that is not an image", async () => {
      const user = await signedInUser(loopback.app)
      for (const path of ["/declared-large.png", "/streamed-large.png"]) {
        const { status, body } = await ask(user.token, question({ image: { url: `${imageHost.url}${path}` } }), loopback)
        expect(status, `${path} ${JSON.stringify(body)}`).toBe(413)
        expect(body.error.code).toBe("IMAGE_TOO_LARGE")
      }
      const html = await ask(user.token, question({ image: { url: `${imageHost.url}/page.html` } }), loopback)
      expect(html.status).toBe(400)
      expect(html.body.error.code).toBe("INVALID_IMAGE")
      expect((await usage(user.token, loopback)).body.data.used).toBe(0)
    })

    it("gives up on a server that does not answer in time or answers an error", async () => {
      const waiting = await signedInUser(impatient.app)
      const slow = await ask(waiting.token, question({ image: { url: `${imageHost.url}/slow` } }), impatient)
      expect((await usage(waiting.token, impatient)).body.data.used).toBe(0)
      const user = await signedInUser(loopback.app)
      expect(slow.status).toBe(400)
      expect(slow.body.error).toEqual({ code: "IMAGE_FETCH_FAILED", message: "The image's server did not answer in time." })
      const missing = await ask(user.token, question({ image: { url: `${imageHost.url}/missing.png` } }), loopback)
      expect(missing.body.error).toEqual({ code: "IMAGE_FETCH_FAILED", message: "The image could not be downloaded: its server answered HTTP 404." })
      expect((await usage(user.token, loopback)).body.data.used).toBe(0)
    })

    it("still refuses private addresses other than loopback", async () => {
      const user = await signedInUser(loopback.app)
      const { status, body } = await ask(user.token, question({ image: { url: "http://192.168.0.10/a.png" } }), loopback)
      expect(status).toBe(400)
      expect(body.error.code).toBe("URL_NOT_ALLOWED")
    })
  })
})
