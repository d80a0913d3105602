import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { APP_VERSION } from "../../src/core/version"
import { openTestDatabase, startTestApp, type TestApp } from "../test-support"

describe("GET /api/status", () => {
  let subject: TestApp
  let now = Date.UTC(2026, 10, 22, 12, 0, 0)

  beforeAll(async () => {
    subject = await startTestApp({}, { clock: () => now })
  })
  afterAll(async () => subject.close())

  it("answers the wrapper with the database health and the app version", async () => {
    now += 42_000
    const response = await subject.app.inject({ method: "GET", url: "/api/status" })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    expect(response.headers["cache-control"]).toBe("no-store")
    const body = response.json()
    expect(body.success).toBe(true)
    expect(body.data).toMatchObject({
      name: "Image Query AI",
      version: APP_VERSION,
      uptimeSeconds: 42,
      checks: { database: { status: "ok" } }
    })
    expect(body.data.checks.database.latencyMs).toBeGreaterThanOrEqual(0)
    expect(APP_VERSION).toBe("1.0.0")
  })

  it("reports an unreachable database as 503 with the report, not a crash", async () => {
    const database = await openTestDatabase()
    const broken = await startTestApp({}, { database })
    try {
      await database.close()
      const response = await broken.app.inject({ method: "GET", url: "/api/status" })
      expect(response.statusCode).toBe(503)
      const body = response.json()
      expect(body.success).toBe(false)
      expect(body.error).toEqual({ code: "SERVICE_UNAVAILABLE", message: "The database is not reachable." })
      expect(body.data.checks.database.status).toBe("error")
    } finally {
      await broken.app.close()
    }
  })
})
