/**
 * Disabling an account through PATCH /api/admin/users/:id: its sessions end at once, its refresh token and API keys
 * are refused, its sign-in answers 403 ACCOUNT_DISABLED only after the right password (a wrong one is answered as
 * ever, so an address reveals nothing), sign-ins racing the disable leave no live session; enabling restores sign-in.
 * Each change is audited. (Two instances: instances.test.ts; Google sign-in: disabled-google.test.ts.)
 */
import { describe, expect, it } from "vitest"

import { ACCOUNT_DISABLED_MESSAGE } from "~core/admin/admin-users"

import { STRONG } from "../../auth/auth-test-kit"
import { adminUsersTestKit } from "./admin-users-test-kit"

const { kit, call, db, rootToken, person, auditOf } = adminUsersTestKit()

const disable = (id: string, token: string, disabled = true) => call("PATCH", `/api/admin/users/${id}`, token, { disabled })

describe("a disabled account", () => {
  it("loses its sessions and refresh token at once, and its sign-in answers ACCOUNT_DISABLED only after the right password", async () => {
    const token = await rootToken()
    const someone = await person()
    const disabled = await disable(someone.id, token)
    expect(disabled.status).toBe(200)
    expect(disabled.body.data.user).toMatchObject({ disabled: true, disabledAt: new Date(kit.now).toISOString() })
    expect(disabled.body.data.sessions).toEqual([])

    expect((await call("GET", "/api/auth/profile", someone.token)).status).toBe(401)
    const refreshed = await call("POST", "/api/auth/refresh", undefined, { refreshToken: someone.refreshToken })
    expect(refreshed.status).toBe(401)

    const right = await kit.login(someone.email, STRONG)
    expect(right.status).toBe(403)
    expect(right.body).toEqual({ success: false, error: { code: "ACCOUNT_DISABLED", message: ACCOUNT_DISABLED_MESSAGE } })
    const wrong = await kit.login(someone.email, "Not-The-Password-1!")
    const unknown = await kit.login(kit.newEmail(), "Not-The-Password-1!")
    expect([wrong.status, wrong.body.error.code]).toEqual([401, "INVALID_CREDENTIALS"])
    expect(Object.keys(wrong.body.error).sort()).toEqual(Object.keys(unknown.body.error).sort())

    const enabled = await disable(someone.id, token, false)
    expect(enabled.body.data.user).toMatchObject({ disabled: false, disabledAt: null })
    const again = await kit.login(someone.email, STRONG)
    expect(again.status).toBe(200)
    expect((await call("GET", "/api/auth/profile", again.body.data.token as string)).status).toBe(200)

    expect((await auditOf(someone.id)).map((row) => [row.kind, row.detail])).toEqual([
      ["admin.account_disabled", { sessionsEnded: 1 }],
      ["admin.account_enabled", {}]
    ])
  })

  it("is refused on a token signed before the disable and on a refresh, even if its session were somehow live", async () => {
    const token = await rootToken()
    const someone = await person()
    // The account disabled without the admin route (as a row another instance changed a moment ago): the user row alone refuses.
    await db().updateTable("users").set({ disabled_at: new Date(kit.now) }).where("id", "=", someone.id).execute()
    expect((await call("GET", "/api/auth/profile", someone.token)).status).toBe(401)
    const refreshed = await call("POST", "/api/auth/refresh", undefined, { refreshToken: someone.refreshToken })
    expect([refreshed.status, refreshed.body.error.code]).toEqual([403, "ACCOUNT_DISABLED"])
    expect((await disable(someone.id, token, false)).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", someone.token)).status).toBe(200)
  })

  it("stops its API keys at once with 403 ACCOUNT_DISABLED, and they work again once it is enabled", async () => {
    const token = await rootToken()
    const someone = await person()
    expect((await call("POST", "/api/billing/trial", someone.token, { planId: "pro" })).status).toBe(201)
    const created = await call("POST", "/api/keys", someone.token, { name: "ci", currentPassword: STRONG })
    expect(created.status).toBe(201)
    const key = created.body.data.key as string
    expect((await call("GET", "/api/v1/usage", key)).status).toBe(200)
    expect((await disable(someone.id, token)).status).toBe(200)
    const refused = await call("GET", "/api/v1/usage", key)
    expect([refused.status, refused.body.error.code]).toEqual([403, "ACCOUNT_DISABLED"])
    expect((await disable(someone.id, token, false)).status).toBe(200)
    expect((await call("GET", "/api/v1/usage", key)).status).toBe(200)
  })

  it("leaves no live session when 20 sign-ins race the disable", async () => {
    const token = await rootToken()
    const someone = await person()
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => kit.login(someone.email, STRONG)),
      disable(someone.id, token),
      ...Array.from({ length: 10 }, () => kit.login(someone.email, STRONG))
    ])
    for (const answer of answers) expect([200, 403, 429]).toContain(answer.status)
    const live = await db().selectFrom("sessions").select("id").where("user_id", "=", someone.id).where("revoked_at", "is", null).execute()
    expect(live).toEqual([])
    for (const answer of answers.filter((answer) => answer.body.data?.token)) {
      expect((await call("GET", "/api/auth/profile", answer.body.data.token as string)).status).toBe(401)
    }
  })

  it("records the last sign-in of an account on each sign-in", async () => {
    const someone = await person()
    kit.now += 60_000
    expect((await kit.login(someone.email, STRONG)).status).toBe(200)
    const row = await db().selectFrom("users").select("last_sign_in_at").where("id", "=", someone.id).executeTakeFirstOrThrow()
    expect(row.last_sign_in_at?.getTime()).toBe(kit.now)
  })
})
