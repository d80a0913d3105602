import fs from "node:fs/promises"
import path from "node:path"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { APP_VERSION } from "./version"

import { makeTempDir, openTestDatabase, startTestApp, type TestApp } from "../test-kit"

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

  it("reports a real check for each of the five services of the status page", async () => {
    const webRoot = await makeTempDir("iqa-web-")
    await fs.writeFile(path.join(webRoot, "index.html"), "<!doctype html><title>site</title>")
    const built = await startTestApp({ WEB_ROOT: webRoot })
    try {
      const response = await built.app.inject({ method: "GET", url: "/api/status" })
      expect(response.statusCode).toBe(200)
      const { services, checkedAt } = response.json().data
      expect(services.map((service: { name: string }) => service.name)).toEqual([
        "Website",
        "API",
        "Database",
        "Authentication",
        "Payment Processing"
      ])
      for (const service of services) expect(service.status, service.name).toBe("operational")
      expect(Date.parse(checkedAt)).not.toBeNaN()
    } finally {
      await built.close()
      await fs.rm(webRoot, { recursive: true, force: true })
    }
  })

  it("shows a missing web build as a Website outage without failing the API", async () => {
    const emptyRoot = await makeTempDir("iqa-web-")
    const unbuilt = await startTestApp({ WEB_ROOT: emptyRoot })
    try {
      const response = await unbuilt.app.inject({ method: "GET", url: "/api/status" })
      expect(response.statusCode).toBe(200)
      const website = response.json().data.services.find((service: { id: string }) => service.id === "website")
      expect(website).toMatchObject({ status: "outage", message: "The web site has not been built, so its pages cannot be served." })
      expect(website.lastIncident).toBeTypeOf("string")
    } finally {
      await unbuilt.close()
      await fs.rm(emptyRoot, { recursive: true, force: true })
    }
  })

  it("shows a closed database as a Database outage while the other services keep their own state", async () => {
    const database = await openTestDatabase()
    const broken = await startTestApp({}, { database })
    try {
      await database.close()
      const response = await broken.app.inject({ method: "GET", url: "/api/status" })
      expect(response.statusCode).toBe(503)
      const states = Object.fromEntries(
        response.json().data.services.map((service: { id: string; status: string }) => [service.id, service.status])
      )
      expect(states).toMatchObject({ api: "operational", database: "outage", authentication: "operational", payments: "operational" })
    } finally {
      await broken.app.close()
    }
  })
})
