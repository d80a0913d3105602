/**
 * An organisation that requires two-step sign-in (requireMfa): only its owner turns it on or off, and only with a
 * second factor of their own; the change is audited once; the owner and admins see who has two-step sign-in on, a
 * plain member does not. While it is on, a member without a second factor (the owner too) is refused the pool with
 * 403 MFA_ENROLLMENT_REQUIRED naming the organisation, and nothing is counted, even under a burst of 20 requests at
 * once; with a second factor their requests draw from it again. Runs on the embedded database and, in the
 * api-postgres project, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { Organization } from "~core/organizations"

import { completion, PNG_DATA_URL, sendJson, startStandIn, startTestApp, turnOnTwoStep, type TestApp } from "../test-kit"
import { organizationTestKit, type Person } from "./organization-test-kit"

let provider: Awaited<ReturnType<typeof startStandIn>>
let subject: TestApp

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("Hallo")))
  subject = await startTestApp(
    { OPENAI_API_KEY: "sk-test-organizations-0123456789", OPENAI_BASE_URL: `${provider.url}/v1` },
    // Many calls of one account at once: the burst below is about the pool's rule, not the calls in flight.
    { clock: Date.now, visionModel: { maxModelCallsInFlight: 100 } }
  )
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
})

const { person, call, organizationWith, join } = organizationTestKit(() => subject)

const translate = (who: Person) => call("POST", "/api/analyze/translate", who, { text: "Hello", targetLanguage: "de" })
const ask = (who: Person) => call("POST", "/api/analyze/ask", who, { image: { dataUrl: PNG_DATA_URL }, question: "What is in this picture?" })
const view = async (who: Person) => (await call("GET", "/api/organizations/current", who)).body.data as Organization
const withTwoStep = async (who: Person) => {
  await turnOnTwoStep(subject.app, who.token)
  return who
}

/** What the pool and the member's share of it counted this month, straight from the counters. */
async function counted(organizationId: string, userId: string) {
  const db = subject.database.db
  const pool = await db.selectFrom("organization_usage").select("used").where("organization_id", "=", organizationId).executeTakeFirst()
  const share = await db.selectFrom("organization_member_usage").select("used").where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst()
  return { pool: pool?.used ?? 0, share: share?.used ?? 0 }
}

const requireMfaEvents = (organizationId: string) =>
  subject.database.db
    .selectFrom("audit_events")
    .select(["actor_id", "detail"])
    .where("kind", "=", "organization.require_mfa_set")
    .where((eb) => eb(eb.ref("detail", "->>").key("organizationId" as never), "=", organizationId))
    .orderBy("id")
    .execute()

/** An organisation with an admin and a member, whose owner has two-step sign-in on. */
async function team(name: string) {
  const owner = await withTwoStep(await person("enterprise"))
  const organization = await organizationWith(owner, name)
  const admin = await person()
  const member = await person()
  await join(owner, admin, "admin")
  await join(owner, member)
  return { owner, admin, member, organization }
}

describe("an organisation's two-step sign-in rule", () => {
  it("is set by the owner alone, with a second factor of their own, and audited once per change", async () => {
    const { owner, admin, member, organization } = await team("Acme")
    for (const who of [admin, member]) {
      const refused = await call("PATCH", "/api/organizations/current", who, { requireMfa: true })
      expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([403, "FORBIDDEN", "Only the organisation's owner can do this."])
    }
    // The admin may still rename it: the rule alone is the owner's.
    expect((await call("PATCH", "/api/organizations/current", admin, { name: "Acme Ltd" })).status).toBe(200)
    const bad = await call("PATCH", "/api/organizations/current", owner, { requireMfa: "yes" })
    expect([bad.status, bad.body.error.code, bad.body.error.details]).toEqual([400, "VALIDATION_FAILED", ["requireMfa: requireMfa must be true or false"]])
    expect((await view(owner)).requireMfa).toBe(false)

    const on = await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })
    expect([on.status, (on.body.data as Organization).requireMfa]).toEqual([200, true])
    expect((await view(member)).requireMfa).toBe(true)
    // Sent again, nothing changes and nothing more is audited.
    expect((await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })).status).toBe(200)
    expect((await call("PATCH", "/api/organizations/current", owner, { requireMfa: false })).body.data.requireMfa).toBe(false)
    expect(await requireMfaEvents(organization.id)).toEqual([
      { actor_id: owner.id, detail: { organizationId: organization.id, requireMfa: true } },
      { actor_id: owner.id, detail: { organizationId: organization.id, requireMfa: false } }
    ])
    // The organisation's activity says it too.
    const activity = (await call("GET", "/api/organizations/current/activity", member)).body.data as { kind: string }[]
    expect(activity.filter((event) => event.kind === "organization.require_mfa_set")).toHaveLength(2)
  })

  it("is not turned on by an owner without two-step sign-in, whom it would shut out too", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner, "Initech")
    const refused = await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })
    expect([refused.status, refused.body.error.code]).toEqual([403, "MFA_ENROLLMENT_REQUIRED"])
    expect(refused.body.error.message).toMatch(/^Turn on two-step sign-in for your own account first/)
    expect((await view(owner)).requireMfa).toBe(false)
    await withTwoStep(owner)
    expect((await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })).body.data.requireMfa).toBe(true)
  })

  it("shows the owner and admins who has two-step sign-in on, and a plain member nobody's", async () => {
    const { owner, admin, member } = await team("Globex")
    const onOf = (organization: Organization) => organization.members.map((entry) => [entry.userId, entry.twoStep])
    const expected = [
      [owner.id, true],
      [admin.id, false],
      [member.id, false]
    ]
    expect(onOf(await view(owner))).toEqual(expected)
    expect(onOf(await view(admin))).toEqual(expected)
    expect((await view(member)).members.every((entry) => !("twoStep" in entry))).toBe(true)
    await withTwoStep(member)
    expect(onOf(await view(owner))[2]).toEqual([member.id, true])
  })
})

describe("the pool of an organisation that requires two-step sign-in", () => {
  it("refuses a member without a second factor, naming the organisation and counting nothing, until they turn it on", async () => {
    const { owner, member, organization } = await team("Umbrella")
    expect((await translate(member)).status).toBe(200)
    expect(await counted(organization.id, member.id)).toEqual({ pool: 1, share: 1 })
    await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })
    const providerCalls = provider.requests.length

    for (const refused of [await translate(member), await ask(member)]) {
      expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([
        403,
        "MFA_ENROLLMENT_REQUIRED",
        "Umbrella requires two-step sign-in. Turn it on in your dashboard to use the team's plan."
      ])
    }
    // A question about an image's address is refused before the image is fetched (this app would refuse the address).
    const byAddress = await call("POST", "/api/analyze/ask", member, { image: { url: "http://127.0.0.1:9/picture.png" }, question: "What is in this picture?" })
    expect([byAddress.status, byAddress.body.error.code]).toEqual([403, "MFA_ENROLLMENT_REQUIRED"])
    expect(await counted(organization.id, member.id)).toEqual({ pool: 1, share: 1 })
    expect(provider.requests.length).toBe(providerCalls)

    await withTwoStep(member)
    expect((await translate(member)).status).toBe(200)
    expect((await ask(member)).status).toBe(200)
    expect(await counted(organization.id, member.id)).toEqual({ pool: 3, share: 3 })
    // The owner's own requests draw from the pool with the owner's second factor.
    expect((await translate(owner)).status).toBe(200)
  })

  it("binds the owner too: without a second factor they are refused like anyone", async () => {
    const { owner, organization } = await team("Soylent")
    await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })
    // As turning it off on the dashboard leaves the account (server/auth/mfa/mfa-store.ts removeSecondFactor).
    await subject.database.db.deleteFrom("totp_factors").where("user_id", "=", owner.id).execute()
    const refused = await translate(owner)
    expect([refused.status, refused.body.error.code]).toEqual([403, "MFA_ENROLLMENT_REQUIRED"])
    expect(await counted(organization.id, owner.id)).toEqual({ pool: 0, share: 0 })
    // The owner can still lift the rule.
    expect((await call("PATCH", "/api/organizations/current", owner, { requireMfa: false })).status).toBe(200)
    expect((await translate(owner)).status).toBe(200)
  })

  it("counts nothing of a burst of 20 requests at once from a member without a second factor", async () => {
    const { owner, member, organization } = await team("Hooli")
    await call("PATCH", "/api/organizations/current", owner, { requireMfa: true })
    const providerCalls = provider.requests.length
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? translate(member) : ask(member))))
    expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual(Array.from({ length: 20 }, () => [403, "MFA_ENROLLMENT_REQUIRED"]))
    expect(await counted(organization.id, member.id)).toEqual({ pool: 0, share: 0 })
    expect((await view(owner)).pool.used).toBe(0)
    expect(provider.requests.length).toBe(providerCalls)
  })
})
