/** Sessions (rotation, expiry, logout) and the profile, status and account routes. */
import { decodeJwt } from "jose"
import { describe, expect, it } from "vitest"

import { LAST_ADMIN_MESSAGE } from "~core/admin/admin-users"

import { authTestKit, STRONG, STRONGER, DAY } from "./auth-test-kit"
import { signAccessToken } from "./tokens"

const kit = authTestKit()
const { call, register, login, signedUpUser } = kit

describe("sessions", () => {
  it("rotates refresh tokens, answers a twin refresh within the grace window with an access token only and revokes on later reuse", async () => {
    const { token, refreshToken } = await signedUpUser()
    const first = await call("POST", "/api/auth/refresh", { body: { refreshToken } })
    expect(first.status).toBe(200)
    expect(first.body.data.token).toEqual(expect.any(String))
    expect(first.body.data.refreshToken).not.toBe(refreshToken)

    kit.now += 10_000
    const twin = await call("POST", "/api/auth/refresh", { body: { refreshToken } })
    expect(twin.status).toBe(200)
    // Never the newest refresh token: whoever holds a copy of the old one must not obtain it.
    expect(twin.body.data).toEqual({ token: expect.any(String), refreshToken: null, expiresAt: Math.floor(kit.now / 1000) + 3600 })
    expect((await call("GET", "/api/auth/profile", { token: twin.body.data.token })).status).toBe(200)
    const serialised = JSON.stringify(twin.body)
    expect(serialised).not.toContain(first.body.data.refreshToken)
    const stored = await kit.subject.database.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow()
    expect(Object.keys(stored)).not.toContain("grace_token")

    kit.now += 30_000
    const reuse = await call("POST", "/api/auth/refresh", { body: { refreshToken } })
    expect(reuse.status).toBe(401)
    expect(reuse.body.error.code).toBe("SESSION_EXPIRED")
    // The whole family is gone: the newest token and the access tokens too.
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: first.body.data.refreshToken } })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
  })

  it("keeps sessions apart: refreshing one does not disturb another", async () => {
    const { email } = await signedUpUser()
    const second = (await login(email)).body.data
    const third = (await login(email)).body.data
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: second.refreshToken } })).status).toBe(200)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: third.refreshToken } })).status).toBe(200)
  })

  it("refuses expired and forged access tokens", async () => {
    const { token } = await signedUpUser()
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: token.slice(0, -4) + "AAAA" })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: "not.a.jwt" })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile")).status).toBe(401)
    kit.now += 3601_000
    const expired = await call("GET", "/api/auth/profile", { token })
    expect(expired.status).toBe(401)
    expect(expired.body.error.code).toBe("UNAUTHORIZED")
  })

  it("refuses a token whose session belongs to another user, even signed with our key", async () => {
    const alice = await signedUpUser()
    const bob = await signedUpUser()
    const aliceClaims = decodeJwt(alice.token)
    const bobSession = decodeJwt(bob.token).sid as string
    // A token for Alice naming Bob's live session: whoever could sign one must not ride on Bob's session.
    const crossed = await signAccessToken({ userId: aliceClaims.sub!, role: "user", sessionId: bobSession }, kit.subject.app.tokenSecret, kit.now)
    expect((await call("GET", "/api/auth/profile", { token: crossed.token })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: alice.token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: bob.token })).status).toBe(200)
  })

  it("ends a session at its absolute lifetime, however often it is refreshed", async () => {
    const { refreshToken } = await signedUpUser()
    const signedInAt = kit.now
    let current = refreshToken
    for (const day of [29, 58, 87]) {
      kit.now = signedInAt + day * DAY
      const refreshed = await call("POST", "/api/auth/refresh", { body: { refreshToken: current } })
      expect(refreshed.status).toBe(200)
      current = refreshed.body.data.refreshToken
    }
    kit.now = signedInAt + 90 * DAY - 10 * 60_000
    const last = await call("POST", "/api/auth/refresh", { body: { refreshToken: current } })
    expect(last.status).toBe(200)
    kit.now = signedInAt + 90 * DAY
    const ended = await call("POST", "/api/auth/refresh", { body: { refreshToken: last.body.data.refreshToken } })
    expect(ended.status).toBe(401)
    expect(ended.body.error.code).toBe("SESSION_EXPIRED")
    // The access token is not yet an hour old, but its session is over.
    expect((await call("GET", "/api/auth/profile", { token: last.body.data.token })).status).toBe(401)
  })

  it("logs out: the session's access and refresh tokens stop working", async () => {
    const { token, refreshToken } = await signedUpUser()
    const response = await call("POST", "/api/auth/logout", { token })
    expect(response.body).toEqual({ success: true, data: { loggedOut: true } })
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken } })).status).toBe(401)
    expect((await call("POST", "/api/auth/logout")).status).toBe(200)
  })
})

describe("profile, status and account", () => {
  it("reads and renames on both profile paths, and changes nothing else", async () => {
    const { email, token } = await signedUpUser()
    for (const path of ["/api/auth/profile", "/api/users/profile"]) {
      expect((await call("GET", path, { token })).body.data.user).toMatchObject({ email, role: "user" })
    }
    const renamed = await call("PUT", "/api/users/profile", { token, body: { name: "Ada King" } })
    expect(renamed.body.data.user.name).toBe("Ada King")
    for (const body of [{ role: "admin" }, { name: "X", role: "admin" }, { email: "other@example.com" }, { name: "" }, { name: "x".repeat(500) }, { plan_id: "pro" }]) {
      const refused = await call("PUT", "/api/auth/profile", { token, body })
      expect(refused.status).toBe(400)
    }
    expect((await call("GET", "/api/auth/profile", { token })).body.data.user).toMatchObject({ name: "Ada King", role: "user", email })
  })

  it("reports the sign-in methods", async () => {
    const { token } = await signedUpUser()
    expect((await call("GET", "/api/auth/auth-status", { token })).body.data).toEqual({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
  })

  it("deletes the account with its sessions once the current password is given again", async () => {
    const { email, token, refreshToken } = await signedUpUser()
    const missing = await call("DELETE", "/api/auth/account", { token })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toEqual({ code: "VALIDATION_FAILED", message: "Validation failed", details: ["password: Current password is required"] })
    const wrong = await call("DELETE", "/api/auth/account", { token, body: { password: "Nope-1234!" } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toEqual({ code: "INVALID_CREDENTIALS", message: "Current password is incorrect" })
    expect((await call("DELETE", "/api/auth/account", { token, body: { password: STRONG, extra: true } })).status).toBe(400)
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(200)

    expect((await call("DELETE", "/api/auth/account", { token, body: { password: STRONG } })).body).toEqual({ success: true, data: { deleted: true } })
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken } })).status).toBe(401)
    expect((await login(email)).body.error.code).toBe("INVALID_CREDENTIALS")
    expect((await register(email)).status).toBe(201)
  })

  it("deletes an account without a password only within 5 minutes of a sign-in", async () => {
    const { signIn } = await import("./account-service")
    const created = new Date(kit.now)
    const user = await kit.subject.database.db
      .insertInto("users")
      .values({ email: "google-only@example.com", name: "Goo", google_uid: "google-delete", email_verified_at: created, created_at: created, updated_at: created })
      .returningAll()
      .executeTakeFirstOrThrow()
    const stale = await signIn(kit.subject.app, user)
    kit.now += 5 * 60_000 + 1000
    const refused = await call("DELETE", "/api/auth/account", { token: stale.token })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toEqual({
      code: "REAUTHENTICATION_REQUIRED",
      message: "For your security, please sign in again, then delete your account within 5 minutes."
    })
    // A password is no way round it: the account has none.
    expect((await call("DELETE", "/api/auth/account", { token: stale.token, body: { password: STRONG } })).status).toBe(403)
    // Nor is an extension session freshly opened from the stale sign-in.
    const extension = (await call("POST", "/api/auth/extension-session", { token: stale.token })).body.data
    expect((await call("DELETE", "/api/auth/account", { token: extension.token })).body.error.code).toBe("REAUTHENTICATION_REQUIRED")
    expect((await call("GET", "/api/auth/profile", { token: stale.token })).status).toBe(200)

    const fresh = await signIn(kit.subject.app, user)
    kit.now += 4 * 60_000
    expect((await call("DELETE", "/api/auth/account", { token: fresh.token })).body).toEqual({ success: true, data: { deleted: true } })
    expect(await kit.subject.database.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined()
  })

  it("refuses the last active admin's own deletion (LAST_ADMIN), also when two admins delete themselves at once", async () => {
    const db = kit.subject.database.db
    const admins = [await signedUpUser(), await signedUpUser()]
    const emails = admins.map((admin) => admin.email)
    // Exactly these two are the active admins: the start-up admin steps down for the test and back after it.
    const bootstrapAdmins = await db.updateTable("users").set({ role: "user" }).where("role", "=", "admin").returning("id").execute()
    try {
      await db.updateTable("users").set({ role: "admin" }).where("email", "in", emails).execute()
      const answers = await Promise.all(admins.map(({ token }) => call("DELETE", "/api/auth/account", { token, body: { password: STRONG } })))
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
      expect(answers.find((answer) => answer.status === 409)!.body.error).toEqual({ code: "LAST_ADMIN", message: LAST_ADMIN_MESSAGE })
      const left = await db.selectFrom("users").select(["email", "role"]).where("email", "in", emails).execute()
      expect(left).toEqual([{ email: expect.any(String), role: "admin" }])

      // Alone, the last admin is refused again and keeps the account; once another account is an admin, it may go.
      const last = admins.find((admin) => admin.email === left[0]!.email)!
      const again = await call("DELETE", "/api/auth/account", { token: last.token, body: { password: STRONG } })
      expect([again.status, again.body.error.code]).toEqual([409, "LAST_ADMIN"])
      expect((await call("GET", "/api/auth/profile", { token: last.token })).status).toBe(200)
      await db.updateTable("users").set({ role: "admin" }).where("id", "in", bootstrapAdmins.map((row) => row.id)).execute()
      expect((await call("DELETE", "/api/auth/account", { token: last.token, body: { password: STRONG } })).status).toBe(200)
    } finally {
      if (bootstrapAdmins.length > 0) await db.updateTable("users").set({ role: "admin" }).where("id", "in", bootstrapAdmins.map((row) => row.id)).execute()
    }
  })

  it("adds e-mail sign-in to an account that has only federated sign-in", async () => {
    const now_ = new Date(kit.now)
    const created = await kit.subject.database.db
      .insertInto("users")
      .values({ email: "federated@example.com", name: "Fed", google_uid: "google-123", email_verified_at: now_, created_at: now_, updated_at: now_ })
      .returning("id")
      .executeTakeFirstOrThrow()
    const { signIn } = await import("./account-service")
    const user = await kit.subject.database.db.selectFrom("users").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow()
    const { token } = await signIn(kit.subject.app, user)
    expect((await call("GET", "/api/auth/auth-status", { token })).body.data).toEqual({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })
    expect((await call("POST", "/api/auth/link-email", { token, body: { email: "other@example.com", password: STRONG } })).status).toBe(400)
    expect((await call("POST", "/api/auth/link-email", { token, body: { email: "federated@example.com", password: "short" } })).body.error.code).toMatch(/^PASSWORD_/)
    const linked = await call("POST", "/api/auth/link-email", { token, body: { email: "federated@example.com", password: STRONG } })
    expect(linked.status).toBe(200)
    expect((await call("GET", "/api/auth/auth-status", { token })).body.data.providers).toEqual(["email", "google"])
    expect((await login("federated@example.com")).status).toBe(200)
    expect((await call("POST", "/api/auth/link-email", { token, body: { email: "federated@example.com", password: STRONGER } })).status).toBe(409)
  })
})
