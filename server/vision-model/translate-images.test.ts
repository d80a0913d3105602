/**
 * POST /api/analyze/translate-images: the lines of several images in one call to the model, each image translated
 * counted as one AI request; when the quota runs out part-way the rest come back null with the reason, when none is
 * left the call is refused as a translation is; organisation pools, bad input, provider failures and sign-in.
 */
import { describe, expect, it } from "vitest"

import { MAX_TRANSLATE_BATCH_LINES, MAX_TRANSLATE_TEXT_LENGTH } from "~core/analysis/translate"

import { insertMember, insertOrganization } from "../organizations/organization-store"
import { completion, sendJson, signedInUser } from "../test-kit"
import { loopback, provider, setUpVisionModelApps, setUsed, subject, usage } from "./vision-model-test-kit"

const now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

setUpVisionModelApps(clock)

/** What the model is sent: the system prompt and the flat array of every image's lines. */
const sent = (index = -1) => {
  const [system, message] = JSON.parse(provider.requests.at(index)!.body).messages as { content: string }[]
  return { system: system!.content, lines: JSON.parse(message!.content) as string[] }
}

/** The stand-in translates each line as "[fr] line", as the JSON array the prompt asks for. */
const answerLines = () =>
  provider.handle((request, response) => {
    const body = JSON.parse(request.body) as { messages: { content: string }[] }
    const lines = JSON.parse(body.messages[1]!.content) as string[]
    sendJson(response, 200, completion(JSON.stringify(lines.map((line) => `[fr] ${line}`))))
  })

async function translateImages(token: string | undefined, body: unknown, app = subject) {
  const response = await app.app.inject({
    method: "POST",
    url: "/api/analyze/translate-images",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body as object
  })
  return { status: response.statusCode, body: response.json() }
}

const SIGN = ["EMERGENCY EXIT", "Push bar to open"]
const MENU = ["Soup of the day", "Bread", "Coffee"]
const POSTER = ["Concert tonight"]
const batch = (images: string[][], extra: Record<string, unknown> = {}) => ({ images: images.map((lines) => ({ lines })), targetLanguage: "fr", ...extra })
const french = (lines: string[]) => ({ lines: lines.map((line) => `[fr] ${line}`) })

const FREE_QUOTA_SPENT = "You have used all 10 AI requests of your plan this month. Your quota resets on 1 December 2026 (UTC)."
const SECONDS_TO_DECEMBER = (Date.UTC(2026, 11, 1) - now) / 1000

describe("translating the images of a page", () => {
  it("sends every image's lines in one call, answers each image's lines one for one and counts one request per image", async () => {
    answerLines()
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const { status, body } = await translateImages(user.token, batch([[" EMERGENCY EXIT ", SIGN[1]!], MENU, POSTER], { sourceLanguage: "en-GB" }))
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      data: {
        images: [french(SIGN), french(MENU), french(POSTER)],
        targetLanguage: "fr",
        sourceLanguage: "en",
        usage: { used: 3, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" }
      }
    })
    expect(provider.requests.length).toBe(before + 1)
    const { system, lines } = sent()
    expect(lines).toEqual([...SIGN, ...MENU, ...POSTER])
    expect(system).toContain("from English into French.")
    expect(system).toContain("a JSON array of exactly 6 strings")
    expect(system).toContain("3 images")
    expect((await usage(user.token)).body.data.used).toBe(3)
  })

  it("translates the images the quota has room for, and answers the rest null with the reason; with none left it refuses", async () => {
    answerLines()
    const user = await signedInUser(subject.app)
    await setUsed(user.id, 8)
    const { status, body } = await translateImages(user.token, batch([SIGN, MENU, POSTER]))
    expect(status).toBe(200)
    expect(body.data).toEqual({
      images: [french(SIGN), french(MENU), null],
      targetLanguage: "fr",
      sourceLanguage: null,
      usage: { used: 10, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" },
      quotaExceeded: { message: FREE_QUOTA_SPENT, retryAfter: SECONDS_TO_DECEMBER }
    })
    // Only the counted images' lines went to the model.
    expect(sent().lines).toEqual([...SIGN, ...MENU])

    const before = provider.requests.length
    const refused = await translateImages(user.token, batch([POSTER]))
    expect(refused.status).toBe(429)
    expect(refused.body.error).toEqual({ code: "QUOTA_EXCEEDED", message: FREE_QUOTA_SPENT, retryAfter: SECONDS_TO_DECEMBER })
    expect(provider.requests.length).toBe(before)
    expect((await usage(user.token)).body.data.used).toBe(10)
  })

  it("never counts past the quota: 20 batches of 2 images at once, with 7 requests left, translate exactly 7 images", async () => {
    answerLines()
    const user = await signedInUser(loopback.app)
    await setUsed(user.id, 3)
    const before = provider.requests.length
    const answers = await Promise.all(Array.from({ length: 20 }, (_, call) => translateImages(user.token, batch([[`first ${call}`], [`second ${call}`, `third ${call}`]]), loopback)))
    const answered = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status !== 200)
    expect(refused.every((answer) => answer.status === 429 && answer.body.error.code === "QUOTA_EXCEEDED")).toBe(true)
    expect(answered.flatMap((answer) => answer.body.data.images).filter((image: unknown) => image !== null)).toHaveLength(7)
    answers.forEach((answer, call) => {
      if (answer.status !== 200) return
      const [first, second] = answer.body.data.images
      // Each image gets its own lines back, never another call's or another image's.
      expect(first).toEqual(french([`first ${call}`]))
      expect(second === null || JSON.stringify(second) === JSON.stringify(french([`second ${call}`, `third ${call}`]))).toBe(true)
      expect(answer.body.data.usage.used).toBeLessThanOrEqual(10)
      expect(answer.body.data.quotaExceeded === undefined).toBe(second !== null)
    })
    // One model call for each batch answered, none for those refused.
    expect(provider.requests.length - before).toBe(answered.length)
    expect((await usage(user.token, loopback)).body.data.used).toBe(10)
  })

  it("counts a member's images against the organisation's pool, and names the organisation when it is spent", async () => {
    answerLines()
    const owner = await signedInUser(subject.app, "enterprise")
    const member = await signedInUser(subject.app)
    const db = subject.database.db
    const organizationId = await insertOrganization(db, { name: "Initech", subscriberId: owner.id, requestLimit: 4, now: new Date(now) })
    await insertMember(db, { organizationId, userId: owner.id, role: "owner", now: new Date(now) })
    await insertMember(db, { organizationId, userId: member.id, role: "member", now: new Date(now) })

    expect((await translateImages(member.token, batch([SIGN, MENU, POSTER]))).body.data.usage).toEqual({ used: 3, limit: 4, resetsAt: "2026-12-01T00:00:00.000Z" })
    const partial = await translateImages(member.token, batch([POSTER, SIGN]))
    const poolSpent = "Initech has used all 4 AI requests of its plan this month. Your quota resets on 1 December 2026 (UTC)."
    expect(partial.body.data).toMatchObject({ images: [french(POSTER), null], usage: { used: 4, limit: 4 }, quotaExceeded: { message: poolSpent } })
    const refused = await translateImages(owner.token, batch([POSTER]))
    expect([refused.status, refused.body.error.message]).toEqual([429, poolSpent])

    const report = (await usage(member.token)).body.data
    expect(report).toMatchObject({ used: 4, limit: 4, plan: "free", pool: { organizationId, name: "Initech", limit: 4, used: 4 } })
    const share = await db.selectFrom("organization_member_usage").select("used").where("user_id", "=", member.id).executeTakeFirst()
    expect(share?.used).toBe(4)
    // The member's own Free quota is untouched.
    expect(await db.selectFrom("usage_counters").select("used").where("user_id", "=", member.id).executeTakeFirst()).toBeUndefined()
  })
})

describe("what is refused", () => {
  it("refuses bad batches with 400, uncounted and without calling the model", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const lines = (count: number, text = "a") => Array.from({ length: count }, () => text)
    const half = MAX_TRANSLATE_TEXT_LENGTH / 2
    const bodies = [
      batch([lines(26), lines(25)]),
      batch(Array.from({ length: MAX_TRANSLATE_BATCH_LINES + 1 }, () => ["a"])),
      batch([SIGN, []]),
      batch([SIGN, ["ok", "  "]]),
      batch([]),
      batch([SIGN], { targetLanguage: "xx" }),
      batch([SIGN], { sourceLanguage: "klingon" }),
      batch([["x".repeat(half)], ["y".repeat(half + 1)]]),
      batch([SIGN], { text: "EMERGENCY EXIT" }),
      { images: [{ lines: SIGN, url: "https://example.com/a.png" }], targetLanguage: "fr" },
      { images: [SIGN], targetLanguage: "fr" },
      { images: SIGN, targetLanguage: "fr" },
      { images: [{ lines: SIGN }] }
    ]
    for (const body of bodies) {
      const { status, body: answer } = await translateImages(user.token, body)
      expect(status, JSON.stringify(body).slice(0, 100)).toBe(400)
      expect(answer).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED" } })
    }
    expect(provider.requests.length).toBe(before)
    expect((await usage(user.token)).body.data.used).toBe(0)

    // The most lines, of the most characters together, pass.
    answerLines()
    const most = Array.from({ length: 10 }, () => lines(MAX_TRANSLATE_BATCH_LINES / 10, "x".repeat(MAX_TRANSLATE_TEXT_LENGTH / MAX_TRANSLATE_BATCH_LINES)))
    const { status, body } = await translateImages(user.token, batch(most))
    expect(status).toBe(200)
    expect(body.data.images).toHaveLength(10)
  })

  it("answers 401 to a caller without a session before reading the body, and 413 to a body past the limit", async () => {
    const before = provider.requests.length
    for (const token of [undefined, "not-a-token"]) {
      const { status, body } = await translateImages(token, batch([SIGN]))
      expect([status, body.error.code]).toEqual([401, "UNAUTHORIZED"])
    }
    const huge = batch([["x".repeat(200_000)]])
    expect((await translateImages(undefined, huge)).status).toBe(401)
    const user = await signedInUser(subject.app)
    const tooLarge = await translateImages(user.token, huge)
    expect([tooLarge.status, tooLarge.body.success]).toEqual([413, false])
    expect(provider.requests.length).toBe(before)
    expect((await usage(user.token)).body.data.used).toBe(0)
  })

  it("gives every image's request back when the provider refuses the call, and keeps them when it answered badly", async () => {
    const user = await signedInUser(subject.app)
    provider.handle((_request, response) => sendJson(response, 500, { error: { message: "boom" } }))
    const failed = await translateImages(user.token, batch([SIGN, MENU, POSTER]))
    expect(failed.status).toBe(502)
    expect(failed.body.error).toEqual({ code: "PROVIDER_ERROR", message: "The vision model provider answered with an error (HTTP 500). Please try again later." })
    expect((await usage(user.token)).body.data.used).toBe(0)

    // An answer that does not keep the lines was paid for: each image sent counts, as a translation's call does.
    provider.handle((_request, response) => sendJson(response, 200, completion('["one", "two"]')))
    const unreadable = await translateImages(user.token, batch([SIGN, MENU]))
    expect([unreadable.status, unreadable.body.error.code]).toEqual([502, "PROVIDER_ERROR"])
    expect((await usage(user.token)).body.data.used).toBe(2)
  })
})
