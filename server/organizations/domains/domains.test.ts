/**
 * An organisation's e-mail domains through the API, with a DNS server on loopback (DNS_SERVERS): the owner claims a
 * domain and is given the record, verify finds it (or says what is missing or that DNS did not answer), one
 * organisation at most verifies a domain (also when two verify at once), the limit holds under a burst, and each
 * change is audited. Runs on the embedded database and, in api-postgres, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MAX_ORGANIZATION_DOMAINS, type OrganizationDomain } from "~core/organization-domains"

import { startDnsStandIn, startTestApp, type DnsStandIn, type TestApp } from "../../test-kit"
import { organizationTestKit } from "../organization-test-kit"
import { OUTBOUND_CHECKS_PER_HOUR } from "../outbound-checks"

let dns: DnsStandIn
let subject: TestApp

beforeAll(async () => {
  dns = await startDnsStandIn()
  subject = await startTestApp({ DNS_SERVERS: dns.address }, { clock: Date.now })
})
afterAll(async () => {
  await subject?.close()
  await dns?.close()
})

const { person, call, organizationWith, join, auditedKinds } = organizationTestKit(() => subject)

async function owner(name = "Acme") {
  const who = await person("enterprise")
  const organization = await organizationWith(who, name)
  return { who, organization }
}

describe("an organisation's e-mail domains", () => {
  it("are claimed by the owner with the record to add, verified by it, listed, and removed; each audited", async () => {
    const { who, organization } = await owner()
    const claimed = await call("POST", "/api/organizations/current/domains", who, { domain: "  Acme-Corp.EXAMPLE. " })
    expect(claimed.status).toBe(201)
    const domain = claimed.body.data as OrganizationDomain
    expect(domain).toEqual({ domain: "acme-corp.example", verified: false, verifiedAt: null, record: { type: "TXT", name: "_image-query-ai.acme-corp.example", value: expect.stringMatching(/^iqa-verify=[\w-]{20,}$/) } })
    expect((await call("POST", "/api/organizations/current/domains", who, { domain: "acme-corp.example" })).body.error.code).toBe("DOMAIN_ALREADY_ADDED")

    const verify = () => call("POST", "/api/organizations/current/domains/acme-corp.example/verify", who)
    const missing = await verify()
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatchObject({ code: "DOMAIN_NOT_VERIFIED", message: expect.stringContaining("No TXT record was found at _image-query-ai.acme-corp.example") })
    dns.txt.set("_image-query-ai.acme-corp.example", ["v=spf1 -all", "iqa-verify=someone-elses-token"])
    expect((await verify()).body.error.message).toContain("does not hold")
    dns.silent = true
    const unreachable = await verify()
    dns.silent = false
    expect(unreachable.status).toBe(503)
    expect(unreachable.body.error.code).toBe("DNS_UNAVAILABLE")

    dns.txt.set("_image-query-ai.acme-corp.example", ["v=spf1 -all", domain.record.value])
    const verified = await verify()
    expect(verified.status).toBe(200)
    expect(verified.body.data).toMatchObject({ domain: "acme-corp.example", verified: true, verifiedAt: expect.any(String) })
    expect((await call("GET", "/api/organizations/current/domains", who)).body.data.domains).toEqual([verified.body.data])

    expect((await call("DELETE", "/api/organizations/current/domains/acme-corp.example", who)).status).toBe(200)
    expect((await call("DELETE", "/api/organizations/current/domains/acme-corp.example", who)).status).toBe(404)
    expect(await auditedKinds(organization.id, "organization.domain_%")).toEqual(["organization.domain_added", "organization.domain_verified", "organization.domain_removed"])
  })

  it("refuses what is not a domain, members who are not the owner, and people outside an organisation", async () => {
    const { who } = await owner()
    for (const domain of ["localhost", "127.0.0.1", "example.com:8080", "exa mple.com", "a@b.com", ""]) {
      const refused = await call("POST", "/api/organizations/current/domains", who, { domain })
      expect(refused.status, domain).toBe(400)
      expect(refused.body.error.code).toBe("VALIDATION_FAILED")
    }
    const admin = await person()
    await join(who, admin, "admin")
    const member = await person()
    await join(who, member)
    expect((await call("POST", "/api/organizations/current/domains", admin, { domain: "admin.example" })).status).toBe(403)
    expect((await call("GET", "/api/organizations/current/domains", admin)).status).toBe(200)
    expect((await call("GET", "/api/organizations/current/domains", member)).status).toBe(403)
    expect((await call("GET", "/api/organizations/current/domains", await person())).status).toBe(404)
  })

  it("is verified by one organisation at most, also when two verify it at the same moment", async () => {
    const first = await owner("First")
    const second = await owner("Second")
    const records = await Promise.all(
      [first, second].map(async ({ who }) => (await call("POST", "/api/organizations/current/domains", who, { domain: "shared.example" })).body.data as OrganizationDomain)
    )
    dns.txt.set("_image-query-ai.shared.example", records.map((record) => record.record.value))
    const answers = await Promise.all([first, second].flatMap(({ who }) => Array.from({ length: 10 }, () => call("POST", "/api/organizations/current/domains/shared.example/verify", who))))
    expect(answers.every((answer) => answer.status === 200 || answer.body.error?.code === "DOMAIN_TAKEN")).toBe(true)
    // One organisation's requests all see it verified; the other's are all refused.
    const [firstVerified, secondVerified] = [answers.slice(0, 10), answers.slice(10)].map((ones) => ones.every((answer) => answer.status === 200))
    expect([firstVerified, secondVerified].filter(Boolean)).toHaveLength(1)
    const loser = firstVerified ? answers.slice(10) : answers.slice(0, 10)
    expect(loser.every((answer) => answer.body.error?.code === "DOMAIN_TAKEN")).toBe(true)
    const verified = await subject.database.db.selectFrom("organization_domains").select("organization_id").where("domain", "=", "shared.example").where("verified_at", "is not", null).execute()
    expect(verified).toEqual([{ organization_id: (firstVerified ? first : second).organization.id }])
  })

  it(`holds the limit of ${MAX_ORGANIZATION_DOMAINS} domains under 20 parallel claims`, async () => {
    const { who } = await owner()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => call("POST", "/api/organizations/current/domains", who, { domain: `d${index}.example` })))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_ORGANIZATION_DOMAINS)
    expect(answers.filter((answer) => answer.body.error?.code === "TOO_MANY_DOMAINS")).toHaveLength(20 - MAX_ORGANIZATION_DOMAINS)
    expect((await call("GET", "/api/organizations/current/domains", who)).body.data.domains).toHaveLength(MAX_ORGANIZATION_DOMAINS)
  })

  it("lets an organisation make the server ask DNS at most OUTBOUND_CHECKS_PER_HOUR times an hour, under a burst", async () => {
    const { who } = await owner()
    expect((await call("POST", "/api/organizations/current/domains", who, { domain: "burst.example" })).status).toBe(201)
    const answers = await Promise.all(Array.from({ length: OUTBOUND_CHECKS_PER_HOUR + 10 }, () => call("POST", "/api/organizations/current/domains/burst.example/verify", who)))
    expect(answers.filter((answer) => answer.body.error?.code === "DOMAIN_NOT_VERIFIED")).toHaveLength(OUTBOUND_CHECKS_PER_HOUR)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10)
  })
})
