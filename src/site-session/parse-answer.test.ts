// The site reads every answer through parseAnswer: a wrong-shaped one is a failed call in words (INVALID_RESPONSE,
// with where it differs), never a cast the page then renders half-read.
import { afterEach, describe, expect, it } from "vitest"
import * as z from "zod"

import { ApiRequestError, INVALID_RESPONSE_CODE } from "~http/http-client"
import { ok } from "~core/api-answer"

import { fetchAuthStatus, fetchProfile } from "./account-requests"
import { parseAnswer, UNEXPECTED_ANSWER_MESSAGE } from "./parse-answer"
import { configureApi } from "./site-client"

const memoryStorage = () => {
  const items = new Map<string, string>()
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), removeItem: (key: string) => void items.delete(key) }
}

/** The API answers `data` in its success wrapper to every call. */
function answerEverything(data: unknown) {
  configureApi({
    baseUrl: "http://api.test",
    storage: memoryStorage(),
    fetch: async () => new Response(JSON.stringify(ok(data)), { status: 200, headers: { "content-type": "application/json" } })
  })
}

afterEach(() => configureApi({}))

/** The failure a call or a parse threw. */
async function failureOf(run: () => unknown): Promise<ApiRequestError> {
  try {
    await run()
  } catch (failure) {
    expect(failure).toBeInstanceOf(ApiRequestError)
    return failure as ApiRequestError
  }
  throw new Error("expected a failure")
}

describe("parseAnswer", () => {
  const schema = z.object({ user: z.object({ email: z.string() }), count: z.number() })

  it("gives the answer as its schema reads it", () => {
    expect(parseAnswer(schema, { user: { email: "ada@example.com" }, count: 2, extra: true })).toEqual({ user: { email: "ada@example.com" }, count: 2 })
  })

  it("turns a wrong-shaped answer into a failed call that says where it differs", async () => {
    const failure = await failureOf(() => parseAnswer(schema, { user: { email: 42 } }))
    expect(failure.code).toBe(INVALID_RESPONSE_CODE)
    expect(failure.message).toBe(UNEXPECTED_ANSWER_MESSAGE)
    expect(failure.isNetworkError).toBe(false)
    expect(failure.details).toEqual([expect.stringMatching(/^user\.email: /), expect.stringMatching(/^count: /)])
  })

  it("says so of an answer that is no object at all", async () => {
    const failure = await failureOf(() => parseAnswer(schema, "<html>a proxy's page</html>"))
    expect(failure.details).toEqual([expect.stringMatching(/^\(the answer\): /)])
  })
})

describe("the account's calls", () => {
  it("read a right answer", async () => {
    answerEverything({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
    await expect(fetchAuthStatus()).resolves.toEqual({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
  })

  it("fail on a wrong-shaped answer instead of handing it on", async () => {
    answerEverything({ hasEmailAuth: "yes", providers: ["email", "carrier pigeon"] })
    const failure = await failureOf(() => fetchAuthStatus())
    expect(failure.code).toBe(INVALID_RESPONSE_CODE)
    expect(failure.details).toEqual(expect.arrayContaining([expect.stringMatching(/^hasEmailAuth: /), expect.stringMatching(/^providers\.1: /)]))
  })

  it("fail on a profile without its user", async () => {
    answerEverything({ account: { email: "ada@example.com" } })
    expect((await failureOf(() => fetchProfile())).code).toBe(INVALID_RESPONSE_CODE)
  })
})
