/**
 * POST /api/analyze/translate with an image's lines: one call to the model for all of them, the answer's lines in
 * the order sent, one request counted; an answer that does not keep the lines is a provider failure.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { MAX_TRANSLATE_LINES, MAX_TRANSLATE_TEXT_LENGTH } from "~core/analysis/translate"

import { completion, sendJson, signedInUser, startVisionModelApp, startStandIn } from "../test-kit"

const API_KEY = "sk-test-secret-key-0123456789"
const now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

let provider: Awaited<ReturnType<typeof startStandIn>>
let subject: Awaited<ReturnType<typeof startVisionModelApp>>
/** The same routes letting all 20 calls of a burst run at once: the burst is the quota's. */
let roomy: Awaited<ReturnType<typeof startVisionModelApp>>

/** The stand-in translates each line it is sent as "[fr] line", as the JSON array the prompt asks for. */
const answerLines = () =>
  provider.handle((request, response) => {
    const body = JSON.parse(request.body) as { messages: { content: string }[] }
    const lines = JSON.parse(body.messages[1]!.content) as string[]
    sendJson(response, 200, completion(JSON.stringify(lines.map((line) => `[fr] ${line}`))))
  })

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("[]")))
  const env = { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, VQA_MODEL: "house-vision-1" }
  subject = await startVisionModelApp(env, { providerTimeoutMs: 15_000 }, { clock })
  roomy = await startVisionModelApp(env, { providerTimeoutMs: 15_000, maxModelCallsInFlight: 100 }, { clock, database: subject.database })
})
afterAll(async () => {
  await roomy?.close()
  await subject?.close()
  await provider?.close()
})
beforeEach(answerLines)

async function translate(token: string, body: unknown, app = subject) {
  const response = await app.app.inject({ method: "POST", url: "/api/analyze/translate", headers: { authorization: `Bearer ${token}` }, payload: body as object })
  return { status: response.statusCode, body: response.json() }
}

async function used(token: string, app = subject): Promise<number> {
  const response = await app.app.inject({ method: "GET", url: "/api/analyze/usage", headers: { authorization: `Bearer ${token}` } })
  return response.json().data.used
}

const SIGN = ["EMERGENCY EXIT", "Push bar to open", "Alarm will sound"]

describe("translating an image's lines", () => {
  it("sends every line in one call as a JSON array, and answers each line's translation at its index, counted once", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const { status, body } = await translate(user.token, { lines: [" EMERGENCY EXIT ", ...SIGN.slice(1)], targetLanguage: "fr" })
    expect(status).toBe(200)
    expect(body.data).toEqual({
      translation: SIGN.map((line) => `[fr] ${line}`).join("\n"),
      lines: SIGN.map((line) => `[fr] ${line}`),
      targetLanguage: "fr",
      sourceLanguage: null,
      usage: { used: 1, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" }
    })
    expect(provider.requests.length).toBe(before + 1)
    const [system, message] = JSON.parse(provider.requests.at(-1)!.body).messages
    expect(system.content).toContain("into French.")
    expect(system.content).toContain("a JSON array of exactly 3 strings")
    expect(message).toEqual({ role: "user", content: JSON.stringify(SIGN) })
    expect(await used(user.token)).toBe(1)
  })

  it("takes an array wrapped in a code fence, and trims each line", async () => {
    provider.handle((_request, response) => sendJson(response, 200, completion('```json\n[" SORTIE DE SECOURS ", "Poussez la barre", "Une alarme retentira"]\n```')))
    const user = await signedInUser(subject.app)
    const { status, body } = await translate(user.token, { lines: SIGN, targetLanguage: "fr" })
    expect(status).toBe(200)
    expect(body.data.lines).toEqual(["SORTIE DE SECOURS", "Poussez la barre", "Une alarme retentira"])
  })

  it.each([
    ["fewer lines than sent", '["SORTIE DE SECOURS", "Poussez la barre pour ouvrir"]'],
    ["more lines than sent", '["a", "b", "c", "d"]'],
    ["plain text", "SORTIE DE SECOURS\nPoussez la barre\nUne alarme retentira"],
    ["an array with a number", '["a", 2, "c"]'],
    ["an object", '{"lines": ["a", "b", "c"]}']
  ])("answers 502 PROVIDER_ERROR for %s, counted as the model answered", async (_name, answer) => {
    provider.handle((_request, response) => sendJson(response, 200, completion(answer)))
    const user = await signedInUser(subject.app)
    const { status, body } = await translate(user.token, { lines: SIGN, targetLanguage: "fr" })
    expect(status).toBe(502)
    expect(body).toEqual({ success: false, error: { code: "PROVIDER_ERROR", message: "The vision model sent an answer that could not be read." } })
    expect(await used(user.token)).toBe(1)
  })

  it("refuses bad lines with 400, uncounted and without calling the model", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const bodies = [
      { lines: [], targetLanguage: "fr" },
      { lines: ["ok", "  "], targetLanguage: "fr" },
      { lines: ["ok", 3], targetLanguage: "fr" },
      { lines: "EMERGENCY EXIT", targetLanguage: "fr" },
      { lines: Array.from({ length: MAX_TRANSLATE_LINES + 1 }, () => "a"), targetLanguage: "fr" },
      { lines: ["x".repeat(MAX_TRANSLATE_TEXT_LENGTH), "y"], targetLanguage: "fr" },
      { lines: SIGN, text: "EMERGENCY EXIT", targetLanguage: "fr" },
      { lines: SIGN },
      { lines: SIGN, targetLanguage: "xx" }
    ]
    for (const body of bodies) {
      const { status, body: answer } = await translate(user.token, body)
      expect(status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.error.code).toBe("VALIDATION_FAILED")
    }
    expect(provider.requests.length).toBe(before)
    expect(await used(user.token)).toBe(0)
    // The most lines, of the most characters together, pass.
    const most = Array.from({ length: MAX_TRANSLATE_LINES }, () => "x".repeat(MAX_TRANSLATE_TEXT_LENGTH / MAX_TRANSLATE_LINES))
    const { status, body } = await translate(user.token, { lines: most, targetLanguage: "fr" })
    expect(status).toBe(200)
    expect(body.data.lines).toHaveLength(MAX_TRANSLATE_LINES)
  })

  it("counts each image once in a burst of 20 from a Free account: 10 translated, 10 over the quota", async () => {
    const user = await signedInUser(roomy.app)
    const before = provider.requests.length
    const answers = await Promise.all(Array.from({ length: 20 }, () => translate(user.token, { lines: SIGN, targetLanguage: "fr" }, roomy)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10)
    expect(answers.filter((answer) => answer.status === 429 && answer.body.error.code === "QUOTA_EXCEEDED")).toHaveLength(10)
    expect(provider.requests.length - before).toBe(10)
    expect(await used(user.token, roomy)).toBe(10)
  })
})
