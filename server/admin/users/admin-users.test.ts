/**
 * The admin panel's accounts through the API: admin-only; the list's search, filters, orders and pages; bad input in
 * the wrapper; a user's page; role changes and the last-admin rule, alone and under a burst of 20; a resent
 * verification link; sessions ended; the audited request limit. Disabling has its own file (disabled-accounts.test.ts).
 */
import { describe, expect, it } from "vitest"

import type { AdminUserDetail, AdminUserList } from "~core/admin/admin-users"

import { adminUsersTestKit, ROOT } from "./admin-users-test-kit"

const { kit, call, db, rootToken, person, admin, auditOf } = adminUsersTestKit()

/** `count` accounts named `name` made by the database, one minute apart, the last made newest. */
async function manyAccounts(name: string, count: number) {
  const base = kit.now - 24 * 60 * 60_000
  const rows = Array.from({ length: count }, (_, index) => ({
    email: `${name.toLowerCase()}-${index}@example.com`,
    name,
    password_hash: null,
    created_at: new Date(base + index * 60_000),
    updated_at: new Date(base + index * 60_000)
  }))
  return db().insertInto("users").values(rows).returning(["id", "email"]).execute()
}

describe("GET /api/admin/users", () => {
  it("is for admins only: 401 without a session, 403 for another account", async () => {
    const someone = await person()
    for (const [url, method] of [
      ["/api/admin/users", "GET"],
      [`/api/admin/users/${someone.id}`, "GET"],
      [`/api/admin/users/${someone.id}`, "PATCH"],
      [`/api/admin/users/${someone.id}/resend-verification`, "POST"],
      [`/api/admin/users/${someone.id}/end-sessions`, "POST"]
    ] as const) {
      const body = method === "PATCH" ? { role: "admin" } : undefined
      expect((await call(method, url, undefined, body)).status).toBe(401)
      const refused = await call(method, url, someone.token, body)
      expect([refused.status, refused.body.error.code]).toEqual([403, "FORBIDDEN"])
    }
    expect((await db().selectFrom("users").select("role").where("id", "=", someone.id).executeTakeFirstOrThrow()).role).toBe("user")
  })

  it("finds by a part of the address or the name in any case, pages 50 at a time, newest first, with the total", async () => {
    const token = await rootToken()
    const made = await manyAccounts("Zebulon", 55)
    const first = await call("GET", "/api/admin/users?query=ZEBUL", token)
    expect(first.status).toBe(200)
    const page1 = first.body.data as AdminUserList
    expect([page1.total, page1.page, page1.users.length]).toEqual([55, 1, 50])
    expect(page1.users[0]).toEqual({
      id: made[54]!.id,
      email: "zebulon-54@example.com",
      name: "Zebulon",
      role: "user",
      plan: "free",
      verified: false,
      disabled: false,
      createdAt: expect.any(String),
      lastSignInAt: null
    })
    const page2 = (await call("GET", "/api/admin/users?query=zebulon&page=2", token)).body.data as AdminUserList
    expect([page2.total, page2.page, page2.users.map((user) => user.email)]).toEqual([55, 2, ["zebulon-4@example.com", "zebulon-3@example.com", "zebulon-2@example.com", "zebulon-1@example.com", "zebulon-0@example.com"]])
    expect((await call("GET", "/api/admin/users?query=zebulon-17%40", token)).body.data.users.map((user: { email: string }) => user.email)).toEqual(["zebulon-17@example.com"])
    // % and _ are letters to the search, not wildcards.
    expect((await call("GET", "/api/admin/users?query=%25", token)).body.data.total).toBe(0)
    expect((await call("GET", "/api/admin/users?query=zebulon_", token)).body.data.total).toBe(0)
  })

  it("filters by plan, role, verification and disabled, and sorts by last sign-in with the never-signed-in last", async () => {
    const token = await rootToken()
    const [paying, cancelled, fresh] = await manyAccounts("Quillon", 3)
    await db().updateTable("users").set({ plan_id: "enterprise" }).where("id", "=", paying!.id).execute()
    await db().updateTable("users").set({ plan_id: "pro", subscription_status: "canceled", email_verified_at: new Date(kit.now) }).where("id", "=", cancelled!.id).execute()
    await db().updateTable("users").set({ role: "admin", disabled_at: new Date(kit.now), last_sign_in_at: new Date(kit.now - 60_000) }).where("id", "=", fresh!.id).execute()
    await db().updateTable("users").set({ last_sign_in_at: new Date(kit.now - 120_000) }).where("id", "=", paying!.id).execute()
    const emails = async (filter: string) => ((await call("GET", `/api/admin/users?query=quillon&${filter}`, token)).body.data as AdminUserList).users.map((user) => user.email.slice(0, 9))
    expect(await emails("plan=enterprise")).toEqual(["quillon-0"])
    // A cancelled subscription leaves the account on Free.
    expect(await emails("plan=free")).toEqual(["quillon-2", "quillon-1"])
    expect(await emails("plan=pro")).toEqual([])
    expect(await emails("role=admin")).toEqual(["quillon-2"])
    expect(await emails("verified=true")).toEqual(["quillon-1"])
    expect(await emails("verified=false&disabled=false")).toEqual(["quillon-0"])
    expect(await emails("disabled=true")).toEqual(["quillon-2"])
    expect(await emails("sort=lastSignIn")).toEqual(["quillon-2", "quillon-0", "quillon-1"])
    expect(await emails("sort=created")).toEqual(["quillon-2", "quillon-1", "quillon-0"])
  })

  it("refuses bad input in the wrapper with 400", async () => {
    const token = await rootToken()
    for (const query of ["plan=gold", "role=owner", "verified=yes", "disabled=1", "sort=name", "page=0", "page=two", "page=1.5", "colour=red", `query=${"x".repeat(201)}`]) {
      const refused = await call("GET", `/api/admin/users?${query}`, token)
      expect([query, refused.status, refused.body.success, refused.body.error.code]).toEqual([query, 400, false, "VALIDATION_FAILED"])
    }
    const nonsense = await call("GET", "/api/admin/users/not-a-uuid", token)
    expect([nonsense.status, nonsense.body.error.code]).toEqual([400, "VALIDATION_FAILED"])
    const someone = await person()
    for (const body of [{}, { role: "owner" }, { disabled: "yes" }, { role: "admin", colour: "red" }]) {
      const refused = await call("PATCH", `/api/admin/users/${someone.id}`, token, body)
      expect([refused.status, refused.body.error.code]).toEqual([400, "VALIDATION_FAILED"])
    }
  })
})

describe("an account's page and actions", () => {
  it("shows the profile, sign-in methods, subscription, usage, live sessions and organisation; 404 for an unknown id", async () => {
    const token = await rootToken()
    const someone = await person()
    await kit.login(someone.email, someone.password)
    const answer = await call("GET", `/api/admin/users/${someone.id}`, token)
    expect(answer.status).toBe(200)
    const page = answer.body.data as AdminUserDetail
    expect(page.user).toMatchObject({ id: someone.id, email: someone.email, name: "Ada Lovelace", role: "user", plan: "free", verified: true, disabled: false, disabledAt: null, requestLimit: null })
    expect(page.user.lastSignInAt).toBe(new Date(kit.now).toISOString())
    expect(page.signInMethods).toEqual(["email"])
    expect(page.subscription).toMatchObject({ plan: "free", status: "active" })
    expect(page.usage).toMatchObject({ used: 0, limit: expect.any(Number), source: "own" })
    expect(page.sessions).toHaveLength(2)
    expect(page.sessions[0]).toEqual({ id: expect.any(String), client: "site", createdAt: expect.any(String), lastUsedAt: expect.any(String), expiresAt: expect.any(String) })
    expect(page.organization).toBeNull()
    const unknown = await call("GET", "/api/admin/users/00000000-0000-4000-8000-000000000000", token)
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOT_FOUND"])
  })

  it("changes a role, which applies at once, and audits who, on whom, from where and what", async () => {
    const token = await rootToken()
    const { id: rootId } = await db().selectFrom("users").select("id").where("email", "=", ROOT.email).executeTakeFirstOrThrow()
    const someone = await person()
    const promoted = await call("PATCH", `/api/admin/users/${someone.id}`, token, { role: "admin" }, "203.0.113.9")
    expect([promoted.status, promoted.body.data.user.role]).toEqual([200, "admin"])
    expect((await call("GET", "/api/admin/users", someone.token)).status).toBe(200)
    expect((await call("PATCH", `/api/admin/users/${someone.id}`, token, { role: "user" })).status).toBe(200)
    expect((await call("GET", "/api/admin/users", someone.token)).status).toBe(403)
    // The same role again changes nothing and writes nothing.
    expect((await call("PATCH", `/api/admin/users/${someone.id}`, token, { role: "user" })).status).toBe(200)
    expect(await auditOf(someone.id)).toEqual([
      { kind: "admin.role_changed", actor_id: rootId, subject_id: someone.id, detail: { from: "user", to: "admin" }, ip: "203.0.113.9" },
      { kind: "admin.role_changed", actor_id: rootId, subject_id: someone.id, detail: { from: "admin", to: "user" }, ip: expect.any(String) }
    ])
  })

  it("resends a verification link to an unverified address only, through the outbox, audited", async () => {
    const token = await rootToken()
    const email = kit.newEmail()
    expect((await kit.register(email)).status).toBe(201)
    const { id } = await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    const before = (await kit.mailTo(email)).length
    const resent = await call("POST", `/api/admin/users/${id}/resend-verification`, token)
    expect([resent.status, resent.body.data]).toEqual([200, { sent: true, email }])
    expect((await kit.mailTo(email)).filter((message) => message.subject.startsWith("Verify"))).toHaveLength(before + 1)
    expect((await kit.verify(email)).status).toBe(200)
    const again = await call("POST", `/api/admin/users/${id}/resend-verification`, token)
    expect([again.status, again.body.error.code]).toEqual([409, "ALREADY_VERIFIED"])
    expect((await auditOf(id)).map((row) => row.kind)).toEqual(["admin.verification_resent"])
  })

  it("ends every session of an account, the website's and the extension's, audited with how many", async () => {
    const token = await rootToken()
    const someone = await person()
    const second = (await kit.login(someone.email, someone.password)).body.data.token as string
    const ended = await call("POST", `/api/admin/users/${someone.id}/end-sessions`, token)
    expect([ended.status, ended.body.data]).toEqual([200, { ended: 2 }])
    for (const session of [someone.token, second]) expect((await call("GET", "/api/auth/profile", session)).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", undefined, { refreshToken: someone.refreshToken })).status).toBe(401)
    expect((await auditOf(someone.id)).map((row) => [row.kind, row.detail])).toEqual([["admin.sessions_ended", { sessionsEnded: 2 }]])
  })

  it("sets an Enterprise account's monthly request limit, audited with what it was", async () => {
    const token = await rootToken()
    const someone = await person()
    await db().updateTable("users").set({ plan_id: "enterprise" }).where("id", "=", someone.id).execute()
    const set = await call("PUT", `/api/admin/users/${someone.id}/request-limit`, token, { limit: 500 })
    expect([set.status, set.body.data]).toEqual([200, { id: someone.id, email: someone.email, plan: "enterprise", requestLimit: 500, appliesToPlan: true }])
    expect((await call("PUT", `/api/admin/users/${someone.id}/request-limit`, token, { limit: null })).status).toBe(200)
    expect((await call("PUT", "/api/admin/users/nobody/request-limit", token, { limit: 5 })).status).toBe(404)
    expect((await auditOf(someone.id)).map((row) => [row.kind, row.detail])).toEqual([
      ["admin.request_limit_set", { from: null, to: 500, plan: "enterprise" }],
      ["admin.request_limit_set", { from: 500, to: null, plan: "enterprise" }]
    ])
  })
})

describe("the last admin", () => {
  /** Leaves `keep` as the only active admins, and gives the others back their role afterwards. */
  async function onlyAdmins(keep: string[], work: () => Promise<void>) {
    const others = await db().updateTable("users").set({ role: "user" }).where("role", "=", "admin").where("id", "not in", keep).returning("id").execute()
    try {
      await work()
    } finally {
      if (others.length) await db().updateTable("users").set({ role: "admin" }).where("id", "in", others.map((row) => row.id)).execute()
    }
  }

  it("cannot be demoted or disabled, by themself or anyone: 409 LAST_ADMIN, nothing changed or audited", async () => {
    const only = await admin()
    await onlyAdmins([only.id], async () => {
      for (const body of [{ role: "user" }, { disabled: true }, { role: "user", disabled: true }]) {
        const refused = await call("PATCH", `/api/admin/users/${only.id}`, only.token, body)
        expect([refused.status, refused.body.error.code]).toEqual([409, "LAST_ADMIN"])
      }
      // A disabled admin is no admin to count on: enabling them is no loss, and another admin can then be demoted.
      expect((await call("GET", "/api/admin/users", only.token)).status).toBe(200)
    })
    expect(await auditOf(only.id)).toEqual([])
    expect(await db().selectFrom("users").select(["role", "disabled_at"]).where("id", "=", only.id).executeTakeFirstOrThrow()).toEqual({ role: "admin", disabled_at: null })
  })

  it("holds when two admins demote and disable each other with 20 requests at once: one admin is left", async () => {
    const [first, second] = [await admin(), await admin()]
    await onlyAdmins([first.id, second.id], async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => {
          const [actor, target] = index % 2 ? [first, second] : [second, first]
          return call("PATCH", `/api/admin/users/${target.id}`, actor.token, index % 4 < 2 ? { role: "user" } : { disabled: true })
        })
      )
      for (const answer of answers) expect([200, 401, 403, 409], JSON.stringify(answer.body)).toContain(answer.status)
      expect(answers.some((answer) => answer.status === 200)).toBe(true)
      const left = await db().selectFrom("users").select("id").where("role", "=", "admin").where("disabled_at", "is", null).execute()
      expect(left).toHaveLength(1)
    })
  })
})
