/**
 * Image URLs sent to /api/v1/ocr, /faces and /objects: each download our server attempts for a caller counts toward
 * the account's MAX_FAILED_IMAGE_FETCHES failed (or running) downloads in the window, the same count as /api/analyze's,
 * whatever key, endpoint, route or instance the URLs come through, and it holds when the calls arrive together. The
 * downloads here never succeed, so no model is ever loaded.
 */
import type { ServerResponse } from "node:http"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { API_ACCOUNT_MAX_IN_FLIGHT, API_KEY_MAX_IN_FLIGHT } from "~core/api-keys"

import { MAX_FAILED_IMAGE_FETCHES } from "../image-input/image-download"
import { completion, createdApiKey, PNG_DATA_URL, sendJson, signedInUser, startStandIn, startVisionModelApp } from "../test-kit"

let provider: Awaited<ReturnType<typeof startStandIn>>
let imageHost: Awaited<ReturnType<typeof startStandIn>>
let subject: Awaited<ReturnType<typeof startVisionModelApp>>
/** A second instance on the same database, as behind a load balancer. */
let twin: Awaited<ReturnType<typeof startVisionModelApp>>

/** The image host answers 404, but only once `expected` downloads are waiting on it, so that they all run at once. */
const waiting: ServerResponse[] = []
let expected = 0
const answerWaiting = () => {
  for (const response of waiting.splice(0)) response.writeHead(404).end()
}

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("A page of text.")))
  imageHost = await startStandIn((_request, response) => {
    waiting.push(response)
    if (waiting.length >= expected) answerWaiting()
  })
  const env = { OPENAI_API_KEY: "sk-test-secret-key-0123456789", OPENAI_BASE_URL: `${provider.url}/v1` }
  const options = { providerTimeoutMs: 15_000, imageFetchTimeoutMs: 15_000, allowLoopbackImageUrls: true }
  subject = await startVisionModelApp(env, options, { clock: Date.now })
  twin = await startVisionModelApp(env, options, { clock: Date.now, database: subject.database })
})
afterAll(async () => {
  answerWaiting()
  await twin?.close()
  await subject?.close()
  await imageHost?.close()
  await provider?.close()
})

async function post(url: string, token: string, body: unknown, instance = subject) {
  const response = await instance.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${token}` }, payload: body as object })
  return { status: response.statusCode, body: response.json() }
}

/** A Pro account with `count` API keys. */
async function proWithKeys(count: number) {
  const owner = await signedInUser(subject.app, "pro")
  const keys: string[] = []
  for (let index = 0; index < count; index++) keys.push((await createdApiKey(subject.app, owner.token, `script ${index}`)).key)
  return { ...owner, keys }
}

const ENDPOINTS = ["/api/v1/ocr", "/api/v1/faces", "/api/v1/objects"]

/** As many calls at once as the account may have in flight, spread over its keys, the three endpoints and both instances, each naming a missing image. */
async function burstOfMissingImages(keys: string[], round: number, reachingHost: number) {
  expected = reachingHost
  const calls = Array.from({ length: API_ACCOUNT_MAX_IN_FLIGHT }, (_, index) =>
    post(ENDPOINTS[index % ENDPOINTS.length]!, keys[index % keys.length]!, { image: { url: `${imageHost.url}/missing-${round}-${index}.png` } }, Math.floor(index / 2) % 2 === 0 ? subject : twin)
  )
  return Promise.all(calls)
}

describe("image URLs on the public API", () => {
  it(`stop an account after ${MAX_FAILED_IMAGE_FETCHES} failed downloads, over all its keys, endpoints and instances and /api/analyze, with the calls sent together`, async () => {
    const account = await proWithKeys(API_ACCOUNT_MAX_IN_FLIGHT / API_KEY_MAX_IN_FLIGHT)
    const rounds = Math.ceil(MAX_FAILED_IMAGE_FETCHES / API_ACCOUNT_MAX_IN_FLIGHT) + 1
    const answers = []
    for (let round = 0; round < rounds; round++) {
      const left = MAX_FAILED_IMAGE_FETCHES - round * API_ACCOUNT_MAX_IN_FLIGHT
      answers.push(...(await burstOfMissingImages(account.keys, round, Math.max(0, Math.min(left, API_ACCOUNT_MAX_IN_FLIGHT)))))
    }

    const failed = answers.filter((answer) => answer.body.error?.code === "IMAGE_FETCH_FAILED")
    expect(failed).toHaveLength(MAX_FAILED_IMAGE_FETCHES)
    expect(failed[0]!.status).toBe(400)
    const stopped = answers.filter((answer) => answer.status === 429)
    expect(stopped).toHaveLength(answers.length - MAX_FAILED_IMAGE_FETCHES)
    for (const answer of stopped) {
      expect(answer.body.error.code).toBe("RATE_LIMIT_EXCEEDED")
      expect(answer.body.error.message).toMatch(/^Too many image URLs could not be downloaded/)
      expect(answer.body.error.retryAfter).toBeGreaterThan(0)
    }
    // No download was attempted beyond the limit.
    expect(imageHost.requests.filter((request) => request.url.startsWith("/missing-"))).toHaveLength(MAX_FAILED_IMAGE_FETCHES)

    // The same count stops the account's image URLs on /api/analyze; an uploaded image is still answered.
    const analyze = (image: unknown) => post("/api/analyze/ask", account.token, { image, question: "What does it say?" })
    const byUrl = await analyze({ url: `${imageHost.url}/missing-analyze.png` })
    expect([byUrl.status, byUrl.body.error.code]).toEqual([429, "RATE_LIMIT_EXCEEDED"])
    expect((await analyze({ dataUrl: PNG_DATA_URL })).status).toBe(200)
    expect(imageHost.requests).toHaveLength(MAX_FAILED_IMAGE_FETCHES)

    // Another account's URLs are still downloaded.
    const other = await proWithKeys(1)
    expected = 1
    const theirs = await post("/api/v1/ocr", other.keys[0]!, { image: { url: `${imageHost.url}/missing-other.png` } })
    expect(theirs.body.error.code).toBe("IMAGE_FETCH_FAILED")
    expect(imageHost.requests).toHaveLength(MAX_FAILED_IMAGE_FETCHES + 1)
  }, 60_000)
})
