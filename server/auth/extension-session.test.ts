import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { readOutbox, startTestApp, type TestApp } from "../test-kit"

const PASSWORD = "Blue-Harbor-42!"
const NEW_PASSWORD = "Quiet-Meadow-73?"
const DAY = 24 * 60 * 60_000

let subject: TestApp
let now = Date.UTC(2026, 10, 22, 9, 0, 0)
let ipCounter = 0
let emailCounter = 0

async function call(method: "GET" | "POST" | "DELETE", url: string, options: { body?: unknown; token?: string } = {}) {
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
  await subject.app.outbox.idle()
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

async function liveSessionClients(email: string) {
  const rows = await subject.database.db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["sessions.client"])
    .where("users.email", "=", email)
    .where("sessions.revoked_at", "is", null)
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

  it("keeps the refresh families apart: the extension's refreshes and its reuse leave the site working", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)

    const siteRotated = await call("POST", "/api/auth/refresh", { body: { refreshToken: site.refreshToken } })
    expect(siteRotated.status).toBe(200)
    const extensionRotated = await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })
    expect(extensionRotated.status).toBe(200)

    // A reuse of the extension's retired refresh token (outside the grace window) revokes the extension's family only.
    now += 5 * 60_000
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: extensionRotated.body.data.refreshToken } })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: site.token })).status).toBe(200)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: siteRotated.body.data.refreshToken } })).status).toBe(200)
  })

  it("ends with the site session's reuse detection", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: site.refreshToken } })).status).toBe(200)
    now += 5 * 60_000
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: site.refreshToken } })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: extension.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })).status).toBe(401)
  })

  it("ends with the site's logout, and the extension's logout leaves the site signed in", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)
    expect((await call("POST", "/api/auth/logout", { token: site.token, body: { refreshToken: site.refreshToken } })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: site.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/extension-session", { token: site.token })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: extension.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })).status).toBe(401)

    const second = await siteSession()
    const secondExtension = await extensionSession(second.token)
    expect((await call("POST", "/api/auth/logout", { token: secondExtension.token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: secondExtension.token })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: second.token })).status).toBe(200)
  })

  it("is opened only from a site session, never from an extension session", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)
    const refused = await call("POST", "/api/auth/extension-session", { token: extension.token })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({
      success: false,
      error: { code: "FORBIDDEN", message: "The extension's session can only be opened from a website session. Please sign in on the website." }
    })
    expect(await liveSessionClients(site.email)).toEqual(["extension", "site"])
    expect((await call("GET", "/api/auth/profile", { token: extension.token })).status).toBe(200)
  })

  it("replaces the extension session the same site session opened before", async () => {
    const site = await siteSession()
    const first = await extensionSession(site.token)
    const second = await extensionSession(site.token)
    expect((await call("GET", "/api/auth/profile", { token: first.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: first.refreshToken } })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: second.token })).status).toBe(200)
    expect(await liveSessionClients(site.email)).toEqual(["extension", "site"])

    // Another site session of the same account has an extension session of its own.
    const other = (await call("POST", "/api/auth/login", { body: { email: site.email, password: PASSWORD } })).body.data
    const otherExtension = await extensionSession(other.token)
    expect((await call("GET", "/api/auth/profile", { token: second.token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: otherExtension.token })).status).toBe(200)
  })

  it("leaves exactly one live extension session after 20 opens at once from one site session", async () => {
    const site = await siteSession()
    const results = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/auth/extension-session", { token: site.token })))
    expect(results.every((result) => result.status === 200)).toBe(true)
    expect(await liveSessionClients(site.email)).toEqual(["extension", "site"])
    const live = await Promise.all(results.map((result) => call("GET", "/api/auth/profile", { token: result.body.data.token })))
    expect(live.filter((answer) => answer.status === 200)).toHaveLength(1)
  })

  it("ends with a password reset, a change of password and the account's deletion", async () => {
    const reset = await siteSession()
    const resetExtension = await extensionSession(reset.token)
    await call("POST", "/api/auth/forgot-password", { body: { email: reset.email } })
    await subject.app.outbox.idle()
    const link = (await readOutbox(subject.dataDir)).find((message) => message.to.includes(reset.email) && message.subject.startsWith("Reset"))!.link!
    const oobCode = new URL(link).searchParams.get("oobCode")
    expect((await call("POST", "/api/auth/reset-password", { body: { oobCode, newPassword: NEW_PASSWORD } })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: resetExtension.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: resetExtension.refreshToken } })).status).toBe(401)

    // The extension session of the very site session that changes the password ends too.
    const changer = await siteSession()
    const changerExtension = await extensionSession(changer.token)
    const changed = await call("POST", "/api/auth/change-password", { token: changer.token, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })
    expect(changed.status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: changer.token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: changerExtension.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: changerExtension.refreshToken } })).status).toBe(401)
    // The site opens a new one on its next page load.
    expect((await call("GET", "/api/auth/profile", { token: (await extensionSession(changer.token)).token })).status).toBe(200)

    const leaver = await siteSession()
    const leaverExtension = await extensionSession(leaver.token)
    expect((await call("DELETE", "/api/auth/account", { token: leaver.token, body: { password: PASSWORD } })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: leaverExtension.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: leaverExtension.refreshToken } })).status).toBe(401)
  })

  it("does not outlive its site session's absolute lifetime, however often it is refreshed", async () => {
    const site = await siteSession()
    const signedInAt = now
    let siteRefreshToken = site.refreshToken
    let siteToken = site.token
    for (const day of [29, 58, 80]) {
      now = signedInAt + day * DAY
      const refreshed = await call("POST", "/api/auth/refresh", { body: { refreshToken: siteRefreshToken } })
      expect(refreshed.status).toBe(200)
      siteRefreshToken = refreshed.body.data.refreshToken
      siteToken = refreshed.body.data.token
    }
    const extension = await extensionSession(siteToken)

    now = signedInAt + 90 * DAY - 30 * 60_000
    const refreshed = await call("POST", "/api/auth/refresh", { body: { refreshToken: extension.refreshToken } })
    expect(refreshed.status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: refreshed.body.data.token })).status).toBe(200)
    // The access token itself would last another half hour; the session does not.
    now = signedInAt + 90 * DAY
    expect((await call("GET", "/api/auth/profile", { token: refreshed.body.data.token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: refreshed.body.data.refreshToken } })).status).toBe(401)
  })
})

describe("POST /api/auth/logout-all", () => {
  it("needs a signed-in user", async () => {
    const refused = await call("POST", "/api/auth/logout-all")
    expect(refused.status).toBe(401)
    expect(refused.body.error.code).toBe("UNAUTHORIZED")
  })

  it("ends every session of the account, site and extension, the current one included, and no one else's", async () => {
    const site = await siteSession()
    const extension = await extensionSession(site.token)
    const other = (await call("POST", "/api/auth/login", { body: { email: site.email, password: PASSWORD } })).body.data
    const otherExtension = await extensionSession(other.token)
    const stranger = await siteSession()

    const answer = await call("POST", "/api/auth/logout-all", { token: otherExtension.token })
    expect(answer.body).toEqual({ success: true, data: { loggedOut: true } })
    for (const session of [site, extension, other, otherExtension]) {
      expect((await call("GET", "/api/auth/profile", { token: session.token })).status).toBe(401)
      expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: session.refreshToken } })).status).toBe(401)
    }
    expect(await liveSessionClients(site.email)).toEqual([])
    expect((await call("GET", "/api/auth/profile", { token: stranger.token })).status).toBe(200)
    expect((await call("POST", "/api/auth/login", { body: { email: site.email, password: PASSWORD } })).status).toBe(200)
  })
})
