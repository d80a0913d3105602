/**
 * What the vision model's API tests share (vision-model-*.test.ts): a stand-in for the vision model and one for image
 * hosts, the /api/analyze routes in three set-ups on one database, and the calls to ask and to read the usage.
 */
import { afterAll, beforeAll, beforeEach } from "vitest"

import type { Clock } from "~core/time"

import { completion, PNG_1PX, PNG_DATA_URL, sendJson, startVisionModelApp, startStandIn } from "../test-kit"

export const API_KEY = "sk-test-secret-key-0123456789"
export const ANSWER = "A small transparent square."

type StandIn = Awaited<ReturnType<typeof startStandIn>>
type VisionModelApp = Awaited<ReturnType<typeof startVisionModelApp>>

export let provider: StandIn
export let imageHost: StandIn
export let subject: VisionModelApp
/**
 * The same routes allowed to fetch loopback http:// URLs (the test-only option), and letting many calls of one account
 * run at once: its bursts are about downloads and the quota, not the calls in flight (see translate.test.ts).
 */
export let loopback: VisionModelApp
/**
 * The same as `loopback` with time-outs of 400 ms, for the tests of what is not answered in time. The others get
 * time-outs a busy machine cannot reach: sending an 8 MB image to the provider on loopback can take over 400 ms.
 */
export let impatient: VisionModelApp
let clock: Clock

const answerNormally = () => provider.handle((_request, response) => sendJson(response, 200, completion(ANSWER)))

/** Starts the stand-ins and the apps for the calling test file, on the clock it gives; each test starts with normal answers. */
export function setUpVisionModelApps(fileClock: Clock): void {
  clock = fileClock
  beforeAll(async () => {
    provider = await startStandIn((_request, response) => sendJson(response, 200, completion(ANSWER)))
    imageHost = await startStandIn((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" })
      response.end(PNG_1PX)
    })
    const env = { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, VQA_MODEL: "house-vision-1" }
    subject = await startVisionModelApp(env, { providerTimeoutMs: 15_000 }, { clock })
    loopback = await startVisionModelApp(env, { providerTimeoutMs: 15_000, imageFetchTimeoutMs: 15_000, allowLoopbackImageUrls: true, maxModelCallsInFlight: 100 }, { clock, database: subject.database })
    impatient = await startVisionModelApp(env, { providerTimeoutMs: 400, imageFetchTimeoutMs: 400, allowLoopbackImageUrls: true }, { clock, database: subject.database })
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
}

export async function ask(token: string | undefined, body: unknown, app = subject) {
  const response = await app.app.inject({
    method: "POST",
    url: "/api/analyze/ask",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body as object
  })
  return { status: response.statusCode, body: response.json(), raw: response.body }
}

export async function usage(token: string, app = subject) {
  const response = await app.app.inject({ method: "GET", url: "/api/analyze/usage", headers: { authorization: `Bearer ${token}` } })
  return { status: response.statusCode, body: response.json() }
}

export const question = (extra: Record<string, unknown> = {}) => ({ image: { dataUrl: PNG_DATA_URL }, question: "What is in this picture?", ...extra })

export async function setUsed(userId: string, used: number) {
  const now = clock()
  const month = new Date(now).toISOString().slice(0, 7)
  await subject.database.db
    .insertInto("usage_counters")
    .values({ user_id: userId, month, used, updated_at: new Date(now) })
    .onConflict((conflict) => conflict.columns(["user_id", "month"]).doUpdateSet({ used }))
    .execute()
}
