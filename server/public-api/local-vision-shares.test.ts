/**
 * The analysis threads shared between accounts, through the real pool and models: another account's call is served
 * before one account's flood, an image is refused for its pixels before it takes a place, and a task that runs out of
 * time is answered 503 over a real connection, not cut off by the connection's idle limit.
 */
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { V1_ANALYSIS_TIME_LIMIT_MS, V1_MAX_QUEUE_WAIT_MS, V1_OCR_MAX_IMAGE_PIXELS } from "./local-vision-schemas"

import { DEFAULT_IMAGE_FETCH_TIMEOUT_MS } from "../image-input/image-download"
import { DEFAULT_REQUEST_TIMEOUTS } from "../http/request-limits"
import { createdApiKey, signedInUser, startTestApp, type TestApp } from "../test-kit"

/** The time limit of the last test's pool: far too short for a page of noise. */
const TASK_TIMEOUT_MS = 3_000

let subject: TestApp

beforeAll(async () => {
  subject = await startTestApp({}, { clock: Date.now, visionPool: { threads: 1 } })
}, 60_000)
afterAll(async () => {
  await subject?.close()
})

async function keysOf(count: number, app = subject.app): Promise<string[]> {
  const owner = await signedInUser(app, "pro")
  const keys: string[] = []
  for (let index = 0; index < count; index++) {
    keys.push((await createdApiKey(app, owner.token, `key ${index}`)).key)
  }
  return keys
}

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString("base64")}`

async function post(url: string, key: string, image: Buffer) {
  const response = await subject.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${key}` }, payload: { image: { dataUrl: dataUrl(image) } } })
  return { status: response.statusCode, body: response.json() }
}

function textImage(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="140"><rect width="100%" height="100%" fill="#fff"/><text x="30" y="90" font-family="sans-serif" font-size="48">${text}</text></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

describe("the analysis threads, shared between accounts", () => {
  it("serves another account's call before one account's flood of ten, sent over two keys", async () => {
    const flooding = await keysOf(2)
    const [other] = await keysOf(1)
    const image = await textImage("FAIR SHARES")
    // The thread's reader is started: from here each reading takes a fraction of a second.
    expect((await post("/api/v1/ocr", other!, image)).status).toBe(200)

    let floodAnswered = 0
    const flood = Array.from({ length: 10 }, (_, index) =>
      post("/api/v1/ocr", flooding[index % 2]!, image).then((answer) => {
        floodAnswered++
        return answer
      })
    )
    // The flood's calls are in the line before the other account's.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const answered = await post("/api/v1/ocr", other!, image)
    const floodAnsweredBefore = floodAnswered
    expect(answered.status).toBe(200)
    expect(answered.body.data.text).toBe("FAIR SHARES")
    // In a line of arrival it would have waited for nearly all ten; here for the one running and perhaps one more.
    expect(floodAnsweredBefore).toBeLessThanOrEqual(4)
    expect((await Promise.all(flood)).map((answer) => answer.status)).toEqual(Array(10).fill(200))
  }, 120_000)

  it(`reads text in images of ${V1_OCR_MAX_IMAGE_PIXELS / 1_000_000} million pixels at most, refused before they take a place; faces take larger ones`, async () => {
    const [key] = await keysOf(1)
    const large = await sharp({ create: { width: 6_000, height: 5_000, channels: 3, background: "#ffffff" } }).png().toBuffer()
    const refused = await post("/api/v1/ocr", key!, large)
    expect([refused.status, refused.body.error.code]).toEqual([413, "IMAGE_TOO_LARGE"])
    expect(refused.body.error.message).toContain(`${V1_OCR_MAX_IMAGE_PIXELS / 1_000_000} million pixels`)
    const faces = await post("/api/v1/faces", key!, large)
    expect([faces.status, faces.body.data?.faces ?? faces.body.error]).toEqual([200, []])
  }, 120_000)

  it("answers 503 in the wrapper over a real connection when the work runs out of time, before the connection's idle limit", async () => {
    // The defaults: a connection waits longer than an image download, a wait for a thread and a whole analysis.
    expect(DEFAULT_REQUEST_TIMEOUTS.idleMs).toBeGreaterThan(DEFAULT_IMAGE_FETCH_TIMEOUT_MS + V1_MAX_QUEUE_WAIT_MS + V1_ANALYSIS_TIME_LIMIT_MS)
    const hurried = await startTestApp({}, { clock: Date.now, visionPool: { threads: 1, taskTimeoutMs: TASK_TIMEOUT_MS } })
    try {
      const [key] = await keysOf(1, hurried.app)
      // Noise keeps tesseract looking for letters far longer than the time limit.
      const side = 1_200
      const noise = Buffer.alloc(side * side * 3)
      for (let index = 0, state = 1; index < noise.length; index++) noise[index] = (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) >>> 24
      const image = await sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png().toBuffer()
      const address = await hurried.app.listen({ port: 0, host: "127.0.0.1" })
      const response = await fetch(`${address}/api/v1/ocr`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ image: { dataUrl: dataUrl(image) } })
      })
      expect(response.status).toBe(503)
      expect((await response.json()).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining(`longer than ${TASK_TIMEOUT_MS / 1000} seconds`) })
    } finally {
      await hurried.close()
    }
  }, 120_000)
})
