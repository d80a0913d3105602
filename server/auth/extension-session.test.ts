import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { readOutbox, startTestApp, type TestApp } from "../test-support"

const PASSWORD = "Blue-Harbor-42!"

let subject: TestApp
let now = Date.UTC(2026, 10, 22, 9, 0, 0)
let ipCounter = 0
let emailCounter = 0

async function call(method: "GET" | "POST", url: string, options: { body?: unknown; token?: string } = {}) {
  const response = await subject.app.inject({
    method,
    url,
    remoteAddress: `10.7.0.${++ipCounter % 250}`,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body !== undefined ? { payload: options.body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}

/** A verified account signed in on the site: its access and refresh tokens. */
async function siteSession() {
  const email = `extension${++emailCounter}@example.com`
  await call("POST", "/api/auth/register", { body: { email, password: PASSWORD, name: "Grace Hopper", termsAccepted: true, privacyPolicyAccepted: true } })
  const link = (await readOutbox(subject.dataDir)).find((message) => message.to.includes(email) && message.subject.startsWith("Verify"))!.link!
  await call("POST", "/api/auth/verify-email", { body: { oobCode: new URL(link).searchParams.get("oobCode") } })
  const { body } = await call("POST", "/api/auth/login", { body: { email, password: PASSWORD } })
  return { email, token: body.data.token as string, refreshToken: body.data.refreshToken as string }
}

async function extensionSession(siteToken: string) {
  const { status, body } = await call("POST", "/api/auth/extension-session", { token: siteToken })
  expect(status).toBe(200)
  return body.data as { user: { email: string }; token: string; refreshToken: string; expiresAt: number }
}

async function sessionClients(email: string) {
  const rows = await subject.database.db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["sessions.client"])
    .where("users.email", "=", email)
    .execute()
  return rows.map((row) => row.client).sort()
}

beforeAll(async () => {
  subject = await startTestApp({ PUBLIC_URL: "http://localhost:8787" }, { clock: () => now })
})
afterAll(async () => subject?.close())
beforeEach(() => {
  now += 10 * 60_000
})

describe("POST /api/auth/extension-session", () => {
  it("answers 401 without a token or with a bad one", async () => {
    const missing = await call("POST", "/api/auth/extension-session")
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } })
    expect((await call("POST", "/api/auth/extension-session", { token: "not.a.jwt" })).status).toBe(401)
  })

  it("refuses a refresh token in place of the access token", async () => {
    const site = await siteSession()
    expect((await call("POST", "/api/auth/extension-session", { token: site.refreshToken })).status).toBe(401)
  })

  it("opens a new session with client extension and its own tokens", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)
    expect(extension).toMatchObject({ user: { email: site.email }, token: expect.any(String), refreshToken: expect.any(String), expiresAt: expect.any(Number) })
    // Seconds since the epoch, like /api/auth/login and /api/auth/refresh.
    expect(extension.expiresAt).toBe(Math.floor(now / 1000) + 3600)
    expect(extension.token).not.toBe(site.token)
    expect(extension.refreshToken).not.toBe(site.refreshToken)
    expect(await sessionClients(site.email)).toEqual(["extension", "site"])
    expect((await call("GET", "/api/auth/profile", { token: extension.token })).status).toBe(200)
  })

  it("keeps the refresh families apart: rotating and reusing one leaves the other working", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)

    const siteRotated = await call("POST", "/api/auth/refresh", { body: { refreshToken: site.refreshToken } })
    expect(siteRotated.status).toBe(200)
    const extensionRotated = await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })
    expect(extensionRotated.status).toBe(200)

    // A reuse of the site's retired refresh token (outside the grace window) revokes the site's family only.
    now += 5 * 60_000
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: site.refreshToken } })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: siteRotated.body.data.refreshToken } })).status).toBe(401)
    const extensionAgain = await call("POST", "/api/auth/refresh", { body: { refreshToken: extensionRotated.body.data.refreshToken } })
    expect(extensionAgain.status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: extensionAgain.body.data.token })).status).toBe(200)

    // And the other way round.
    const other = await siteSession()
    const otherExtension = await extensionSession(other.token)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: otherExtension.refreshToken } })).status).toBe(200)
    now += 5 * 60_000
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: otherExtension.refreshToken } })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: other.token })).status).toBe(200)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: other.refreshToken } })).status).toBe(200)
  })

  it("survives the site's logout, and the extension's logout leaves the site signed in", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)
    expect((await call("POST", "/api/auth/logout", { token: site.token, body: { refreshToken: site.refreshToken } })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: site.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/extension-session", { token: site.token })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: extension.token })).status).toBe(200)
    const refreshed = await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })
    expect(refreshed.status).toBe(200)

    const second = await siteSession()
    const secondExtension = await extensionSession(second.token)
    expect((await call("POST", "/api/auth/logout", { token: secondExtension.token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: secondExtension.token })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: second.token })).status).toBe(200)
  })
})
