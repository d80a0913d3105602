/**
 * What SCIM's active: false does to a member: their site and extension sessions end, their API key answers 403
 * ACCOUNT_SUSPENDED, a new sign-in is refused, and the pool gives them nothing; active: true restores them (they sign
 * in again). DELETE removes them from the organisation and ends their sessions; the account stays. On PostgreSQL, a
 * second instance on the same database refuses the suspended member on its very next call.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import { API_KEY_PREFIX } from "~core/api-keys"

import { signIn } from "../../auth/account-service"
import { createSession } from "../../auth/session-store"
import { signAccessToken } from "../../auth/tokens"
import { findUserById } from "../../auth/user-store"
import { openDatabase } from "../../db/database"
import { quotaSourceOf } from "../../quota/quota-service"
import { copyPostgresTemplate, startTestApp, type TestApp } from "../../test-kit"
import { SCIM_PATCH_SCHEMA } from "~core/scim"
import { scimTestKit } from "./scim-test-kit"

let subject: TestApp

beforeAll(async () => {
  subject = await startTestApp({}, { clock: Date.now })
})
afterAll(async () => subject?.close())

const { scim, provisionedOrganization, newUser, auditedKinds } = scimTestKit(() => subject)
const deactivate = { schemas: [SCIM_PATCH_SCHEMA], Operations: [{ op: "Replace", path: "active", value: "False" }] }
const reactivate = { schemas: [SCIM_PATCH_SCHEMA], Operations: [{ op: "replace", value: { active: true } }] }

async function get(app: TestApp["app"], url: string, token: string) {
  const response = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } })
  return { status: response.statusCode, code: (response.json() as { error?: { code: string } }).error?.code }
}

/** A provisioned member signed in on the site and in the extension, and an API key of theirs. */
async function signedInMember(token: string) {
  const { id } = (await scim("POST", "/Users", token, newUser())).body! as { id: string }
  // A member's own plan is Free, which has no API keys: Pro is set here only so that the key can be shown to work first.
  await subject.database.db.updateTable("users").set({ plan_id: "pro" }).where("id", "=", id).execute()
  const site = (await signIn(subject.app, (await findUserById(subject.database.db, id))!)).token
  const extension = await subject.app.inject({ method: "POST", url: "/api/auth/extension-session", headers: { authorization: `Bearer ${site}` } })
  const key = await subject.app.inject({ method: "POST", url: "/api/keys", headers: { authorization: `Bearer ${site}` }, payload: { name: "ci" } })
  const apiKey = (key.json() as { data: { key: string } }).data.key
  expect(apiKey.startsWith(API_KEY_PREFIX)).toBe(true)
  return { id, site, extension: (extension.json() as { data: { token: string } }).data.token, apiKey }
}

describe("a member SCIM suspends", () => {
  it("loses their sessions and API key at once, draws nothing from the pool, cannot sign in, and is restored by active: true", async () => {
    const { organization, token } = await provisionedOrganization()
    const member = await signedInMember(token)
    const db = subject.database.db
    expect((await get(subject.app, "/api/auth/profile", member.site)).status).toBe(200)
    expect((await get(subject.app, "/api/analyze/usage", member.extension)).status).toBe(200)
    expect((await get(subject.app, "/api/v1/usage", member.apiKey)).status).toBe(200)
    expect((await quotaSourceOf(db, (await findUserById(db, member.id))!)).kind).toBe("pool")

    expect((await scim("PATCH", `/Users/${member.id}`, token, deactivate)).body!.active).toBe(false)
    expect((await get(subject.app, "/api/auth/profile", member.site)).status).toBe(401)
    expect((await get(subject.app, "/api/analyze/usage", member.extension)).status).toBe(401)
    expect(await get(subject.app, "/api/v1/usage", member.apiKey)).toEqual({ status: 403, code: "ACCOUNT_SUSPENDED" })
    expect((await quotaSourceOf(db, (await findUserById(db, member.id))!)).kind).toBe("own")
    await expect(signIn(subject.app, (await findUserById(db, member.id))!)).rejects.toMatchObject({ statusCode: 403, code: "ACCOUNT_SUSPENDED" })
    // A session opened at the moment of the suspension, past the sign-in's check, is refused on its first call.
    const session = await createSession(db, member.id, Date.now())
    const racing = (await signAccessToken({ userId: member.id, role: "user", sessionId: session.sessionId }, subject.app.tokenSecret, Date.now())).token
    expect(await get(subject.app, "/api/auth/profile", racing)).toEqual({ status: 403, code: "ACCOUNT_SUSPENDED" })

    expect((await scim("PATCH", `/Users/${member.id}`, token, reactivate)).body!.active).toBe(true)
    expect((await get(subject.app, "/api/v1/usage", member.apiKey)).status).toBe(200)
    expect((await quotaSourceOf(db, (await findUserById(db, member.id))!)).kind).toBe("pool")
    const again = (await signIn(subject.app, (await findUserById(db, member.id))!)).token
    expect((await get(subject.app, "/api/auth/profile", again)).status).toBe(200)
    expect(await auditedKinds(organization.id, "scim.%")).toEqual(["scim.user_created", "scim.user_deactivated", "scim.user_reactivated"])
  })

  it("is created suspended with active: false", async () => {
    const { token } = await provisionedOrganization()
    const created = await scim("POST", "/Users", token, newUser({ active: false }))
    expect([created.status, created.body!.active]).toEqual([201, false])
    await expect(signIn(subject.app, (await findUserById(subject.database.db, created.body!.id))!)).rejects.toMatchObject({ code: "ACCOUNT_SUSPENDED" })
  })

  it("removed by DELETE, loses their sessions and the pool, and keeps their account on its own", async () => {
    const { token } = await provisionedOrganization()
    const member = await signedInMember(token)
    expect((await scim("DELETE", `/Users/${member.id}`, token)).status).toBe(204)
    expect((await get(subject.app, "/api/auth/profile", member.site)).status).toBe(401)
    expect((await get(subject.app, "/api/analyze/usage", member.extension)).status).toBe(401)
    const user = (await findUserById(subject.database.db, member.id))!
    expect((await quotaSourceOf(subject.database.db, user)).kind).toBe("own")
    const alone = (await signIn(subject.app, user)).token
    expect((await get(subject.app, "/api/organizations/current", alone)).status).toBe(404)
  })
})

describe.runIf(Boolean(inject("postgresTemplate")))("two instances on one PostgreSQL database", () => {
  it("refuses the suspended member on the other instance's very next call", async () => {
    const database = (await copyPostgresTemplate())!
    const env = { TOKEN_SECRET: "scim-two-instances-secret-0123456789abcdef" }
    const first = await startTestApp(env, { clock: Date.now, database: await openDatabase({ databaseUrl: database.url }) })
    const second = await startTestApp(env, { clock: Date.now, database: await openDatabase({ databaseUrl: database.url }) })
    try {
      const kit = scimTestKit(() => first)
      const { token } = await kit.provisionedOrganization()
      const { id } = (await kit.scim("POST", "/Users", token, kit.newUser())).body! as { id: string }
      await first.database.db.updateTable("users").set({ plan_id: "pro" }).where("id", "=", id).execute()
      const site = (await signIn(first.app, (await findUserById(first.database.db, id))!)).token
      const key = await first.app.inject({ method: "POST", url: "/api/keys", headers: { authorization: `Bearer ${site}` }, payload: { name: "ci" } })
      const apiKey = (key.json() as { data: { key: string } }).data.key
      expect((await get(second.app, "/api/auth/profile", site)).status).toBe(200)
      expect((await get(second.app, "/api/v1/usage", apiKey)).status).toBe(200)

      expect((await kit.scim("PATCH", `/Users/${id}`, token, deactivate)).status).toBe(200)
      expect((await get(second.app, "/api/auth/profile", site)).status).toBe(401)
      expect(await get(second.app, "/api/v1/usage", apiKey)).toEqual({ status: 403, code: "ACCOUNT_SUSPENDED" })
      expect((await kit.scim("PATCH", `/Users/${id}`, token, reactivate)).status).toBe(200)
      expect((await get(second.app, "/api/v1/usage", apiKey)).status).toBe(200)
    } finally {
      await second.close()
      await first.close()
      await database.drop()
    }
  })
})
