import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startTestApp, type TestApp } from "../test-kit"

let subject: TestApp
let adminToken: string
let userToken: string
let ip = 0

async function call(method: "GET" | "PUT" | "POST", url: string, body?: unknown, token?: string) {
  const response = await subject.app.inject({
    method,
    url,
    remoteAddress: `10.20.0.${++ip % 250}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body !== undefined ? { payload: body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}

async function signInAs(email: string, password: string) {
  return (await call("POST", "/api/auth/login", { email, password })).body.data.token as string
}

beforeAll(async () => {
  subject = await startTestApp({ ADMIN_EMAIL: "admin@example.com", ADMIN_PASSWORD: "Stone-Harvest-2026!" })
  adminToken = await signInAs("admin@example.com", "Stone-Harvest-2026!")
  await call("POST", "/api/auth/register", { email: "user@example.com", password: "Blue-Harbor-42!", name: "User", termsAccepted: true, privacyPolicyAccepted: true })
  await subject.database.db.updateTable("users").set({ email_verified_at: new Date() }).where("email", "=", "user@example.com").execute()
  userToken = await signInAs("user@example.com", "Blue-Harbor-42!")
})
afterAll(async () => subject?.close())

describe("GET /api/password-policy/config", () => {
  it("gives anyone the rules, and an admin the messages and options too", async () => {
    const anonymous = await call("GET", "/api/password-policy/config")
    expect(anonymous.status).toBe(200)
    expect(Object.keys(anonymous.body.data)).toEqual(["config"])
    expect(anonymous.body.data.config.rules.minLength).toMatchObject({ enabled: true, required: true, value: 8, errorCode: "PASSWORD_TOO_SHORT" })
    expect((await call("GET", "/api/password-policy/config", undefined, userToken)).body).toEqual(anonymous.body)

    const admin = await call("GET", "/api/password-policy/config", undefined, adminToken)
    expect(admin.body.data.options).toEqual({ strictMode: false, allowOverride: false, logViolations: true, rateLimitAttempts: 5, lockoutDuration: 900000 })
    expect(admin.body.data.messages).toEqual({})
  })
})

describe("changing the policy", () => {
  it.each([
    ["PUT", "/api/password-policy/config"],
    ["PUT", "/api/password-policy/rules"]
  ] as const)("%s %s needs a token (401) and the admin role (403)", async (method, url) => {
    const anonymous = await call(method, url, { ruleName: "minLength", value: 12 })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error.code).toBe("UNAUTHORIZED")
    const user = await call(method, url, { ruleName: "minLength", value: 12 }, userToken)
    expect(user.status).toBe(403)
    expect(user.body.error.code).toBe("FORBIDDEN")
  })

  it("applies a rule change to the next registration", async () => {
    const tenCharacters = "Ab-3fGh!kQ"
    const register = (email: string) =>
      call("POST", "/api/auth/register", { email, password: tenCharacters, name: "New", termsAccepted: true, privacyPolicyAccepted: true })
    expect((await register("before@example.com")).status).toBe(201)

    const updated = await call("PUT", "/api/password-policy/rules", { ruleName: "minLength", value: 12 }, adminToken)
    expect(updated.status).toBe(200)
    expect(updated.body.data.config.rules.minLength.value).toBe(12)
    expect((await call("GET", "/api/password-policy/config")).body.data.config.rules.minLength.value).toBe(12)

    const refused = await register("after@example.com")
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("PASSWORD_TOO_SHORT")

    await call("PUT", "/api/password-policy/rules", { ruleName: "minLength", value: 8 }, adminToken)
  })

  it("saves rules, messages and options together", async () => {
    const current = (await call("GET", "/api/password-policy/config", undefined, adminToken)).body.data
    const saved = await call(
      "PUT",
      "/api/password-policy/config",
      { config: current.config, messages: { PASSWORD_TOO_SHORT: "Longer, please" }, options: { ...current.options, rateLimitAttempts: 7 } },
      adminToken
    )
    expect(saved.status).toBe(200)
    expect(saved.body.data.options.rateLimitAttempts).toBe(7)
    const refused = await call("POST", "/api/auth/register", { email: "short@example.com", password: "Ab-3", name: "S", termsAccepted: true, privacyPolicyAccepted: true })
    expect(refused.body.error.details).toContain("Longer, please")
    await call("PUT", "/api/password-policy/config", { config: current.config, messages: {}, options: current.options }, adminToken)
  })

  it.each([
    ["an unknown rule", { ruleName: "mustBeHappy", enabled: true }],
    ["a bad value", { ruleName: "minLength", value: -3 }],
    ["a changed error code", { ruleName: "minLength", errorCode: "NOPE" }],
    ["an unsafe regex", { ruleName: "requireUppercase", regex: "(a+)+$" }],
    ["no body", undefined]
  ])("refuses %s and leaves the stored policy as it was", async (_label, body) => {
    const before = (await call("GET", "/api/password-policy/config", undefined, adminToken)).body
    const response = await call("PUT", "/api/password-policy/rules", body, adminToken)
    expect(response.status).toBe(400)
    expect(response.body.success).toBe(false)
    expect((await call("GET", "/api/password-policy/config", undefined, adminToken)).body).toEqual(before)
  })

  it("refuses a config whose maximum is below its minimum", async () => {
    const current = (await call("GET", "/api/password-policy/config", undefined, adminToken)).body.data
    const rules = { ...current.config.rules, maxLength: { ...current.config.rules.maxLength, value: 4 } }
    const response = await call("PUT", "/api/password-policy/config", { config: { ...current.config, rules }, options: current.options }, adminToken)
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe("VALIDATION_FAILED")
  })
})
