import fs from "node:fs/promises"
import path from "node:path"
import { performance } from "node:perf_hooks"

import { startServer } from "./server-process"
import { projectRoot } from "./web-build"

const ADMIN = { email: "bench-feedback@example.com", password: "Copper-Meadow-2026!" }
const SUBMISSIONS = 200
const CONCURRENCY = 10
const LIST_READS = 50

export interface FeedbackFigures {
  submissions: number
  concurrency: number
  /** Bytes of images per submission. */
  imageBytes: number
  submissionsPerSecond: number
  submitP50Ms: number
  submitP99Ms: number
  failed: number
  /** GET /api/feedback?pageSize=50 with every submission stored, sequential reads. */
  listP50Ms: number
}

const percentile = (sorted: number[], fraction: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]! * 10) / 10

/**
 * POST /api/feedback with two images (fsync of each file and of the folder, then the row) against
 * a server started as npm start does, and the admin list once they are stored. Each submission
 * comes "from" its own address, so the per-IP limit does not apply.
 */
export async function measureFeedback(dataDir: string): Promise<{ figures: FeedbackFigures; lines: string[] }> {
  const images = await Promise.all(["square-64.png", "square-512.png"].map((name) => fs.readFile(path.join(projectRoot, "tests/fixtures", name))))
  const server = await startServer(dataDir, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: "1" })
  try {
    const latencies: number[] = []
    let failed = 0
    let next = 0
    const submitOne = async (index: number) => {
      const form = new FormData()
      form.append("email", `bench${index}@example.com`)
      form.append("message", `Bench feedback number ${index}, with two images.`)
      images.forEach((bytes, part) => form.append("images", new Blob([new Uint8Array(bytes)], { type: "image/png" }), `image-${part}.png`))
      const started = performance.now()
      const response = await fetch(`${server.baseUrl}/api/feedback`, {
        method: "POST",
        body: form,
        headers: { "x-forwarded-for": `10.77.${index >> 8}.${index & 255}` }
      })
      await response.arrayBuffer()
      latencies.push(performance.now() - started)
      if (response.status !== 201) failed++
    }
    const worker = async () => {
      while (next < SUBMISSIONS) await submitOne(next++)
    }
    const started = performance.now()
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    const elapsedSeconds = (performance.now() - started) / 1000

    const login = await fetch(`${server.baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    const listLatencies: number[] = []
    for (let read = 0; read < LIST_READS; read++) {
      const listStarted = performance.now()
      const response = await fetch(`${server.baseUrl}/api/feedback?pageSize=50`, { headers: { authorization: `Bearer ${token}` } })
      await response.arrayBuffer()
      listLatencies.push(performance.now() - listStarted)
    }
    await server.stop()

    latencies.sort((a, b) => a - b)
    listLatencies.sort((a, b) => a - b)
    const figures: FeedbackFigures = {
      submissions: SUBMISSIONS,
      concurrency: CONCURRENCY,
      imageBytes: images.reduce((sum, bytes) => sum + bytes.length, 0),
      submissionsPerSecond: Math.round((SUBMISSIONS / elapsedSeconds) * 10) / 10,
      submitP50Ms: percentile(latencies, 0.5),
      submitP99Ms: percentile(latencies, 0.99),
      failed,
      listP50Ms: percentile(listLatencies, 0.5)
    }
    const lines = [
      `POST /api/feedback with 2 images (${figures.imageBytes} bytes, files and folder fsynced before the row): ${figures.submissionsPerSecond} submissions/s, ` +
        `latency p50 ${figures.submitP50Ms} ms, p99 ${figures.submitP99Ms} ms (${SUBMISSIONS} submissions, ${CONCURRENCY} in flight; ${failed} not 201)`,
      `GET /api/feedback?pageSize=50 with ${SUBMISSIONS} stored: p50 ${figures.listP50Ms} ms (${LIST_READS} sequential reads)`
    ]
    if (failed) lines.push(`WARNING: ${failed} feedback submissions were not answered 201.`)
    return { figures, lines }
  } finally {
    server.kill()
  }
}
