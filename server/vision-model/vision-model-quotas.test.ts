// The plans' monthly quotas, and what the provider's failures cost.
import { describe, expect, it } from "vitest"

import { completion, sendJson, signedInUser, startVisionModelApp } from "../test-kit"
import { API_KEY, ask, imageHost, impatient, loopback, provider, question, setUpVisionModelApps, setUsed, subject, usage } from "./vision-model-test-kit"

let now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

setUpVisionModelApps(clock)

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
      expect((await usage(user.token)).body.data).toEqual({ used: 10, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z", plan: "free", pool: null })

      now = Date.UTC(2026, 11, 1, 0, 0, 0) - 1
      expect((await ask(user.token, question())).status).toBe(429)

      now = Date.UTC(2026, 11, 1, 0, 0, 0)
      expect((await usage(user.token)).body.data).toEqual({ used: 0, limit: 10, resetsAt: "2027-01-01T00:00:00.000Z", plan: "free", pool: null })
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

  it("answers exactly 10 of 20 questions sent at once by a fresh Free account, refuses the rest with QUOTA_EXCEEDED and counts 10", async () => {
    const user = await signedInUser(loopback.app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(user.token, question(), loopback)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10)
    expect(answers.filter((answer) => answer.status === 429 && answer.body.error.code === "QUOTA_EXCEEDED")).toHaveLength(10)
    expect((await usage(user.token, loopback)).body.data.used).toBe(10)
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
    const down = await startVisionModelApp({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }, {}, { clock, database: subject.database })
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
