// Asking the vision model: what is sent and answered, the question and history checks, sign-in and configuration.
import { Readable } from "node:stream"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MAX_HISTORY_ANSWER_LENGTH, MAX_HISTORY_TURNS, MAX_QUESTION_LENGTH } from "~core/analysis/vqa"

import { PNG_1PX, PNG_DATA_URL, signedInUser, startTestApp, type TestApp } from "../test-kit"
import { ANSWER, API_KEY, ask, provider, question, setUpVisionModelApps, subject, usage } from "./vision-model-test-kit"

const now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

setUpVisionModelApps(clock)

describe("asking the vision model", () => {
  it("answers with the model's text, sends the image and question as chat-completions input, and counts the request", async () => {
    const user = await signedInUser(subject.app)
    expect((await usage(user.token)).body).toEqual({
      success: true,
      data: { used: 0, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z", plan: "free", pool: null }
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
      expect(report.json().data).toEqual({ used: 0, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z", plan: "free", pool: null })
    })

    it("answers with the configured provider and the default model", async () => {
      const user = await signedInUser(configured.app)
      const response = await configured.app.inject({ method: "POST", url: "/api/analyze/ask", headers: { authorization: `Bearer ${user.token}` }, payload: question() })
      expect(response.statusCode).toBe(200)
      expect(response.json().data).toEqual({ answer: ANSWER, model: "gpt-4o-mini", usage: { used: 1, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } })
    })
  })
})
