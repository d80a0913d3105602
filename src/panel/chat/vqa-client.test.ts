import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"
import { saveExtensionSession } from "~extension/account/extension-session"

import { SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE, SIGNED_OUT_TRANSLATE_MESSAGE, translateImages, translateText, VqaRequestError } from "./vqa-client"

const API = "https://api.test"
const USAGE = { used: 3, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" }

let answer: { status: number; body: unknown }
let calls: { url: string; method: string; authorization: string | null; body: unknown }[]

const fakeFetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
  const request = input instanceof Request ? input : new Request(input, init)
  const text = await request.text()
  calls.push({ url: request.url, method: request.method, authorization: request.headers.get("authorization"), body: text ? JSON.parse(text) : null })
  return new Response(JSON.stringify(answer.body), { status: answer.status })
})

beforeEach(async () => {
  const fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  vi.stubGlobal("fetch", fakeFetch)
  await fake.storage.local.set({ apiOrigin: API })
  await saveExtensionSession({
    user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" },
    token: "ext-a",
    refreshToken: "ext-refresh-a",
    expiresAt: Date.now() + 60 * 60_000
  })
  calls = []
  answer = { status: 200, body: { success: true, data: { translation: "Sortie de secours", targetLanguage: "fr", sourceLanguage: null, usage: USAGE } } }
})
afterEach(() => vi.unstubAllGlobals())

describe("translating an OCR result", () => {
  it("posts the text and languages with the extension's session and answers the translation with the usage", async () => {
    await expect(translateText({ text: "Emergency exit", targetLanguage: "fr-FR" })).resolves.toEqual({
      translation: "Sortie de secours",
      targetLanguage: "fr",
      sourceLanguage: null,
      usage: USAGE
    })
    expect(calls).toEqual([
      { url: `${API}/api/analyze/translate`, method: "POST", authorization: "Bearer ext-a", body: { text: "Emergency exit", targetLanguage: "fr-FR" } }
    ])

    await translateText({ text: "出口", targetLanguage: "en", sourceLanguage: "zh-Hans" })
    expect(calls.at(-1)!.body).toEqual({ text: "出口", targetLanguage: "en", sourceLanguage: "zh-Hans" })
  })

  it("says the server's refusal in its own words, and offers to sign in when signed out", async () => {
    answer = { status: 429, body: { success: false, error: { code: "QUOTA_EXCEEDED", message: "You have used all 10 AI requests of your plan this month." } } }
    await expect(translateText({ text: "Exit", targetLanguage: "fr" })).rejects.toEqual(new VqaRequestError("You have used all 10 AI requests of your plan this month.", false, true))

    answer = { status: 401, body: { success: false, error: { code: "UNAUTHORIZED", message: "Please sign in" } } }
    const refused = await translateText({ text: "Exit", targetLanguage: "fr" }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(VqaRequestError)
    expect(refused).toMatchObject({ message: SIGNED_OUT_TRANSLATE_MESSAGE, signedOut: true })
  })

  it("refuses an answer that is not a translation", async () => {
    answer = { status: 200, body: { success: true, data: { answer: "A cat." } } }
    await expect(translateText({ text: "Exit", targetLanguage: "fr" })).rejects.toBeInstanceOf(VqaRequestError)
  })
})

describe("translating the lines of several images in one request", () => {
  it("posts each image's lines and answers each image's translation at its index, null where the quota had no room", async () => {
    answer = {
      status: 200,
      body: {
        success: true,
        data: {
          images: [{ lines: ["Sortie", "Entrée"] }, null],
          targetLanguage: "fr",
          sourceLanguage: null,
          usage: USAGE,
          quotaExceeded: { message: "You have used all 10 AI requests of your plan this month.", retryAfter: 3600 }
        }
      }
    }
    await expect(translateImages({ images: [{ lines: ["Exit", "Entrance"] }, { lines: ["Keep clear"] }], targetLanguage: "fr" })).resolves.toEqual({
      images: [{ lines: ["Sortie", "Entrée"] }, null],
      targetLanguage: "fr",
      sourceLanguage: null,
      usage: USAGE,
      quotaExceeded: { message: "You have used all 10 AI requests of your plan this month.", retryAfter: 3600 }
    })
    expect(calls).toEqual([
      {
        url: `${API}/api/analyze/translate-images`,
        method: "POST",
        authorization: "Bearer ext-a",
        body: { images: [{ lines: ["Exit", "Entrance"] }, { lines: ["Keep clear"] }], targetLanguage: "fr" }
      }
    ])
  })

  it("tells a spent quota, and a signed-out person, apart from other refusals", async () => {
    answer = { status: 429, body: { success: false, error: { code: "QUOTA_EXCEEDED", message: "You have used all 10 AI requests of your plan this month." } } }
    await expect(translateImages({ images: [{ lines: ["Exit"] }], targetLanguage: "fr" })).rejects.toMatchObject({ message: "You have used all 10 AI requests of your plan this month.", quotaExceeded: true, signedOut: false })
    // The single translation tells it too: an image too long for a batch goes through it.
    await expect(translateText({ lines: ["Exit"], targetLanguage: "fr" })).rejects.toMatchObject({ quotaExceeded: true })

    answer = { status: 429, body: { success: false, error: { code: "RATE_LIMIT_EXCEEDED", message: "Three requests of yours are running already." } } }
    await expect(translateImages({ images: [{ lines: ["Exit"] }], targetLanguage: "fr" })).rejects.toMatchObject({ quotaExceeded: false })

    answer = { status: 401, body: { success: false, error: { code: "UNAUTHORIZED", message: "Please sign in" } } }
    const refused = await translateImages({ images: [{ lines: ["Exit"] }], targetLanguage: "fr" }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(VqaRequestError)
    expect(refused).toMatchObject({ message: SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE, signedOut: true })
  })

  it("refuses an answer that does not give each image's lines", async () => {
    answer = { status: 200, body: { success: true, data: { translation: "Sortie", targetLanguage: "fr", sourceLanguage: null, usage: USAGE } } }
    await expect(translateImages({ images: [{ lines: ["Exit"] }], targetLanguage: "fr" })).rejects.toBeInstanceOf(VqaRequestError)
  })
})
