import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startTestApp, type TestApp } from "../test-kit"

let subject: TestApp
let token: string
let ip = 0

const ENDPOINTS = [
  "/api/auth/register",
  "/api/auth/login",
  "/api/auth/refresh",
  "/api/auth/logout",
  "/api/auth/verify-email",
  "/api/auth/resend-verification",
  "/api/auth/sync-verification",
  "/api/auth/forgot-password",
  "/api/auth/reset-password",
  "/api/auth/change-password",
  "/api/auth/link-email"
] as const

const BAD_BODIES: [string, string][] = [
  ["not JSON", "{oops"],
  ["an array", "[1,2,3]"],
  ["a number", "42"],
  ["a string", '"hello"'],
  ["null", "null"],
  ["wrong types", JSON.stringify({ email: 1, password: true, name: [], oobCode: {}, refreshToken: 5, currentPassword: null, newPassword: 7 })],
  ["huge strings", JSON.stringify({ email: `${"a".repeat(100_000)}@example.com`, password: "p".repeat(200_000), name: "n".repeat(100_000), oobCode: "c".repeat(100_000), refreshToken: "r".repeat(100_000), currentPassword: "x".repeat(100_000), newPassword: "y".repeat(100_000) })],
  ["unknown fields", JSON.stringify({ role: "admin", isAdmin: true, plan_id: "enterprise" })]
]

async function counts() {
  const [users, sessions] = await Promise.all([
    subject.database.db.selectFrom("users").select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    subject.database.db.selectFrom("sessions").select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()
  ])
  return { users: Number(users.n), sessions: Number(sessions.n) }
}

beforeAll(async () => {
  subject = await startTestApp({ ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD: "Stone-Harvest-2026!" })
  const login = await subject.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "owner@example.com", password: "Stone-Harvest-2026!" } })
  token = login.json().data.token
})
afterAll(async () => subject?.close())

describe("bad input on every auth call", () => {
  for (const endpoint of ENDPOINTS) {
    // Logout takes no body, so a JSON null is as good as none there: it signs out (tested in auth-sessions.test.ts).
    const bodies = endpoint === "/api/auth/logout" ? BAD_BODIES.filter(([label]) => label !== "null") : BAD_BODIES
    it.each(bodies)(`${endpoint} answers %s with a 4xx wrapper and changes nothing`, async (_label, payload) => {
      const before = await counts()
      const response = await subject.app.inject({
        method: "POST",
        url: endpoint,
        payload,
        remoteAddress: `10.30.${Math.floor(++ip / 250)}.${ip % 250}`,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` }
      })
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400)
      expect(response.statusCode, response.body).toBeLessThan(500)
      const body = response.json()
      expect(body.success).toBe(false)
      expect(typeof body.error.code).toBe("string")
      expect(typeof body.error.message).toBe("string")
      expect(await counts()).toEqual(before)
    })
  }

  it.each(BAD_BODIES)("DELETE /api/auth/account answers %s with a 4xx wrapper and deletes nothing", async (_label, payload) => {
    const before = await counts()
    const response = await subject.app.inject({
      method: "DELETE",
      url: "/api/auth/account",
      payload,
      remoteAddress: `10.31.0.${++ip % 250}`,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` }
    })
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400)
    expect(response.statusCode, response.body).toBeLessThan(500)
    expect(response.json().success).toBe(false)
    expect(await counts()).toEqual(before)
  })

  it("still signs the admin in afterwards: nothing was changed", async () => {
    const login = await subject.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "owner@example.com", password: "Stone-Harvest-2026!" } })
    expect(login.statusCode).toBe(200)
    expect(login.json().data.user.role).toBe("admin")
  })
})
