/**
 * An organisation's SCIM tokens through the API: created by the owner only (shown once, stored hashed), listed by the
 * owner and admins without the token, revoked (and then refused by /scim/v2), capped at MAX_SCIM_TOKENS even under a
 * burst of parallel creations, refused once the organisation's Enterprise subscription has ended, and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MAX_SCIM_TOKENS, SCIM_ERROR_SCHEMA, SCIM_RATE_LIMIT } from "~core/scim"

import { hashToken } from "../../auth/tokens"
import { startTestApp, type TestApp } from "../../test-kit"
import { scimTestKit } from "./scim-test-kit"

let subject: TestApp

beforeAll(async () => {
  subject = await startTestApp({}, { clock: Date.now })
})
afterAll(async () => subject?.close())

const { person, call, organizationWith, join, auditedKinds, scim, provisionedOrganization } = scimTestKit(() => subject)
const TOKENS = "/api/organizations/current/scim-tokens"

describe("an organisation's SCIM tokens", () => {
  it("are created by the owner alone, shown once and stored hashed, listed to admins without the token, revoked, and audited", async () => {
    const owner = await person("enterprise")
    const organization = await organizationWith(owner)
    const admin = await person()
    const member = await person()
    await join(owner, admin, "admin")
    await join(owner, member)

    expect((await call("POST", TOKENS, admin)).status).toBe(403)
    expect((await call("POST", TOKENS, member)).status).toBe(403)
    expect((await call("POST", TOKENS, await person("enterprise"))).status).toBe(404)
    const created = await call("POST", TOKENS, owner)
    expect(created.status).toBe(201)
    const { id, token } = created.body.data as { id: string; token: string }
    expect(created.body.data).toEqual({ id, token, createdAt: expect.any(String), createdBy: owner.email, lastUsedAt: null })
    expect(token).toMatch(/^iqa_scim_/)

    const stored = await subject.database.db.selectFrom("scim_tokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow()
    expect(stored.token_hash).toBe(hashToken(token))
    expect(JSON.stringify(stored)).not.toContain(token)

    expect((await scim("GET", "/Users", token)).status).toBe(200)
    const listed = await call("GET", TOKENS, admin)
    expect(listed.status).toBe(200)
    expect(listed.body.data.tokens).toEqual([{ id, createdAt: expect.any(String), createdBy: owner.email, lastUsedAt: expect.any(String) }])
    expect(JSON.stringify(listed.body)).not.toContain(token)
    expect((await call("GET", TOKENS, member)).status).toBe(403)

    expect((await call("DELETE", `${TOKENS}/${id}`, admin)).status).toBe(403)
    expect((await call("DELETE", `${TOKENS}/${id}`, owner)).body.data).toEqual({ revoked: true })
    expect((await call("DELETE", `${TOKENS}/${id}`, owner)).status).toBe(404)
    expect((await call("DELETE", `${TOKENS}/not-a-uuid`, owner)).status).toBe(404)
    expect((await call("GET", TOKENS, owner)).body.data.tokens).toEqual([])
    const refused = await scim("GET", "/Users", token)
    expect(refused.status).toBe(401)
    expect(refused.type).toContain("application/scim+json")
    expect(refused.body).toEqual({ schemas: [SCIM_ERROR_SCHEMA], status: "401", detail: expect.any(String) })

    expect(await auditedKinds(organization.id, "organization.scim_token_%")).toEqual(["organization.scim_token_created", "organization.scim_token_revoked"])
  })

  it(`holds at ${MAX_SCIM_TOKENS} live tokens under 20 parallel creations, and makes room once one is revoked`, async () => {
    const owner = await person("enterprise")
    await organizationWith(owner)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", TOKENS, owner)))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_SCIM_TOKENS)
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.code)).toEqual(Array(20 - MAX_SCIM_TOKENS).fill("TOO_MANY_SCIM_TOKENS"))
    const tokens = (await call("GET", TOKENS, owner)).body.data.tokens as { id: string }[]
    expect(tokens).toHaveLength(MAX_SCIM_TOKENS)
    await call("DELETE", `${TOKENS}/${tokens[0]!.id}`, owner)
    expect((await call("POST", TOKENS, owner)).status).toBe(201)
  })

  it("share one rate per organisation: past it 429 in SCIM's shape with Retry-After, while another organisation's token goes on", async () => {
    const acme = await provisionedOrganization()
    const globex = await provisionedOrganization("Globex")
    const now = Date.now()
    // The minute's calls counted as the routes count them, without making them one by one.
    for (let call = 0; call < SCIM_RATE_LIMIT.requests; call++) await subject.app.limits.take(`scim-rate:${acme.organization.id}`, SCIM_RATE_LIMIT.requests, SCIM_RATE_LIMIT.windowMs, now)
    const refused = await subject.app.inject({ method: "GET", url: "/scim/v2/Users", headers: { authorization: `Bearer ${acme.token}` } })
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
    expect(refused.json()).toEqual({ schemas: [SCIM_ERROR_SCHEMA], status: "429", detail: expect.any(String) })
    expect((await scim("GET", "/Users", globex.token)).status).toBe(200)
  })

  it("are refused to an organisation whose Enterprise subscription has ended, while its tokens keep working", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner)
    const token = (await call("POST", TOKENS, owner)).body.data.token as string
    await subject.database.db.updateTable("users").set({ plan_id: "free" }).where("id", "=", owner.id).execute()
    const refused = await call("POST", TOKENS, owner)
    expect([refused.status, refused.body.error.code]).toEqual([403, "PLAN_REQUIRED"])
    // People who leave must still lose access: deprovisioning goes on.
    expect((await scim("GET", "/Users", token)).status).toBe(200)
  })
})
