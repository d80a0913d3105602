/**
 * The route table's authorisation matrix inside an organisation: every route under /api/organizations/current has a
 * rule here (a new one without fails the first test) and answers by it for someone in no organisation, a site admin,
 * another organisation's owner, and Acme's member, admin and owner. A refusal changes nothing of Acme's, its logo files
 * included, and nothing of Acme reaches another organisation's owner. Acme has claimed a domain (its record in a DNS
 * server on loopback) and set up single sign-on with an OpenID provider on loopback, so that every owner's call can pass. Anonymous and forged tokens are the general
 * matrix's (server/route-table.test.ts).
 */
import fs from "node:fs/promises"
import path from "node:path"

import type { RouteOptions } from "fastify"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { Organization } from "~core/organizations"

import { type DnsStandIn, signedInUser, startDnsStandIn, startTestApp, type TestApp } from "../test-kit"
import { startIdentityProvider, type TestIdentityProvider } from "./sso/sso-test-kit"

/** The least a caller's role in Acme must be for the route. */
type Need = "member" | "manage" | "owner"
type Person = { id: string; token: string; email: string }
interface World {
  acme: Organization
  owner: Person
  admin: Person
  member: Person
  target: Person
  invitationId: string
  otherOwner: Person
  siteAdmin: Person
  outsider: Person
  /** Claimed by Acme, its TXT record in the DNS server: the owner can verify it. */
  domain: string
  /** A live SCIM token of Acme's, which the owner can revoke. */
  scimTokenId: string
}
type Body = ((world: World) => object) | "logo"

const ORGANIZATION_RULES: Record<string, { need: Need; body?: Body }> = {
  "GET /api/organizations/current": { need: "member" },
  "PATCH /api/organizations/current": { need: "manage", body: () => ({ name: "Renamed", accentColor: "#123456" }) },
  "DELETE /api/organizations/current": { need: "owner" },
  "PUT /api/organizations/current/logo": { need: "manage", body: "logo" },
  "POST /api/organizations/current/invitations": { need: "manage", body: () => ({ email: "new-hire@example.com", role: "member" }) },
  "GET /api/organizations/current/invitations": { need: "manage" },
  "GET /api/organizations/current/activity": { need: "member" },
  "DELETE /api/organizations/current/invitations/:id": { need: "manage" },
  "PATCH /api/organizations/current/members/:userId": { need: "manage", body: () => ({ role: "admin" }) },
  "DELETE /api/organizations/current/members/:userId": { need: "manage" },
  "POST /api/organizations/current/transfer": { need: "owner", body: (world) => ({ userId: world.target.id }) },
  "GET /api/organizations/current/domains": { need: "manage" },
  "POST /api/organizations/current/domains": { need: "owner", body: () => ({ domain: "new-route.example" }) },
  "POST /api/organizations/current/domains/:domain/verify": { need: "owner" },
  "DELETE /api/organizations/current/domains/:domain": { need: "owner" },
  "GET /api/organizations/current/sso": { need: "manage" },
  "PUT /api/organizations/current/sso": { need: "owner", body: () => ({ issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }) },
  "DELETE /api/organizations/current/sso": { need: "owner" },
  "POST /api/organizations/current/sso/test": { need: "owner", body: () => ({ issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }) },
  "GET /api/organizations/current/scim-tokens": { need: "manage" },
  "POST /api/organizations/current/scim-tokens": { need: "owner" },
  "DELETE /api/organizations/current/scim-tokens/:id": { need: "owner" }
}

const ROLES_BELOW: Record<Need, ("member" | "admin")[]> = { member: [], manage: ["member"], owner: ["member", "admin"] }
const LOWEST_ALLOWED: Record<Need, "member" | "admin" | "owner"> = { member: "member", manage: "admin", owner: "owner" }

let subject: TestApp
let dns: DnsStandIn
let provider: TestIdentityProvider
let domains = 0
const routes: { method: string; url: string }[] = []
let logoForm: { payload: Buffer; type: string }

beforeAll(async () => {
  dns = await startDnsStandIn()
  provider = await startIdentityProvider()
  subject = await startTestApp(
    { DNS_SERVERS: dns.address, SSO_ALLOW_INSECURE_ISSUER: "true" },
    {
      onRoute: (route: RouteOptions) => {
        if (!route.url.startsWith("/api/organizations/current")) return
        for (const method of [route.method].flat()) if (method !== "HEAD") routes.push({ method, url: route.url })
      }
    }
  )
  const picture = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#20a040" } }).png().toBuffer()
  const form = new FormData()
  form.append("logo", new Blob([new Uint8Array(picture)], { type: "image/png" }), "logo.png")
  const request = new Request("http://localhost/", { method: "PUT", body: form })
  logoForm = { payload: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! }
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
  await dns?.close()
})

const call = (method: string, url: string, token: string, body?: object | "logo") => {
  const payload = body === "logo" ? logoForm : body ? { payload: JSON.stringify(body), type: "application/json" } : null
  return subject.app.inject({
    method: method as "GET",
    url,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { "content-type": payload.type } : {}) },
    ...(payload ? { payload: payload.payload } : {})
  })
}

async function person(plan: "free" | "enterprise" = "free"): Promise<Person> {
  const user = await signedInUser(subject.app, plan)
  const { email } = await subject.database.db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow()
  return { ...user, email }
}

/** Acme (owner, admin, member, and a member the member routes act on, one invitation pending), Globex, and two outsiders. */
async function acmeWorld(): Promise<World> {
  const db = subject.database.db
  const owner = await person("enterprise")
  const created = await call("POST", "/api/organizations", owner.token, { name: "Acme" })
  const acme = (created.json() as { data: Organization }).data
  const [admin, member, target] = [await person(), await person(), await person()]
  await db
    .insertInto("organization_members")
    .values([admin, member, target].map((who, index) => ({ organization_id: acme.id, user_id: who.id, role: index === 0 ? ("admin" as const) : ("member" as const), joined_at: new Date() })))
    .execute()
  const invited = await call("POST", "/api/organizations/current/invitations", owner.token, { email: "pending@example.com", role: "member" })
  const invitationId = (invited.json() as { data: { id: string } }).data.id
  const otherOwner = await person("enterprise")
  expect((await call("POST", "/api/organizations", otherOwner.token, { name: "Globex" })).statusCode).toBe(201)
  const siteAdmin = await person()
  await db.updateTable("users").set({ role: "admin" }).where("id", "=", siteAdmin.id).execute()
  const domain = `acme-${++domains}.example`
  const claimed = await call("POST", "/api/organizations/current/domains", owner.token, { domain })
  const { record } = (claimed.json() as { data: { record: { name: string; value: string } } }).data
  dns.txt.set(record.name, [record.value])
  const sso = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }
  expect((await call("PUT", "/api/organizations/current/sso", owner.token, sso)).statusCode).toBe(200)
  const scimToken = await call("POST", "/api/organizations/current/scim-tokens", owner.token)
  const scimTokenId = (scimToken.json() as { data: { id: string } }).data.id
  return { acme, owner, admin, member, target, invitationId, otherOwner, siteAdmin, outsider: await person(), domain, scimTokenId }
}

/** Everything stored of Acme: its row, members, invitations, pool and logo files. */
async function acmeState(world: World) {
  const db = subject.database.db
  const id = world.acme.id
  const logos = await fs.readdir(path.join(subject.dataDir, "uploads", "organization-logos")).catch(() => [])
  return {
    organization: await db.selectFrom("organizations").selectAll().where("id", "=", id).execute(),
    members: await db.selectFrom("organization_members").selectAll().where("organization_id", "=", id).orderBy("user_id").execute(),
    invitations: await db.selectFrom("organization_invitations").selectAll().where("organization_id", "=", id).orderBy("id").execute(),
    usage: await db.selectFrom("organization_usage").selectAll().where("organization_id", "=", id).execute(),
    domains: await db.selectFrom("organization_domains").selectAll().where("organization_id", "=", id).orderBy("domain").execute(),
    sso: await db.selectFrom("organization_sso").selectAll().where("organization_id", "=", id).execute(),
    scimTokens: await db.selectFrom("scim_tokens").selectAll().where("organization_id", "=", id).orderBy("id").execute(),
    logos: logos.filter((name) => name.startsWith(id)).sort()
  }
}

const errorOf = (response: { statusCode: number; body: string }) => [response.statusCode, (JSON.parse(response.body) as { error?: { code?: string } }).error?.code]

describe("the organisation routes' matrix", () => {
  it("gives every route under /api/organizations/current a rule", () => {
    expect(routes.map((route) => `${route.method} ${route.url}`).filter((key) => !ORGANIZATION_RULES[key])).toEqual([])
    expect(routes.length).toBe(Object.keys(ORGANIZATION_RULES).length)
  })

  it("answers by the caller's role in Acme; outsiders, a site admin and another organisation's owner reach nothing of it", async () => {
    for (const route of routes) {
      const name = `${route.method} ${route.url}`
      const { need, body: bodyOf } = ORGANIZATION_RULES[name]!
      // A world per route: the allowed call at the end may change Acme (delete it, remove the member).
      const world = await acmeWorld()
      const body = typeof bodyOf === "function" ? bodyOf(world) : bodyOf
      const url = route.url.replace(":userId", world.target.id).replace(":id", route.url.includes("/scim-tokens/") ? world.scimTokenId : world.invitationId).replace(":domain", world.domain)
      const before = await acmeState(world)

      for (const who of [world.outsider, world.siteAdmin]) expect(errorOf(await call(route.method, url, who.token, body)), `${name} by an outsider`).toEqual([404, "NOT_FOUND"])
      const otherOwner = await call(route.method, url, world.otherOwner.token, body)
      // With an id of Acme's it is not found; without, it acts on Globex, and nothing of Acme is in the answer.
      if (route.url.includes(":")) expect(errorOf(otherOwner), `${name} by Globex's owner`).toEqual([404, "NOT_FOUND"])
      for (const trace of [world.acme.id, world.owner.email, world.target.email, "Acme"]) expect(otherOwner.body, `${name} by Globex's owner`).not.toContain(trace)
      if (name === "POST /api/organizations/current/transfer") expect(errorOf(otherOwner), name).toEqual([404, "NOT_FOUND"])
      for (const role of ROLES_BELOW[need]) expect(errorOf(await call(route.method, url, world[role].token, body)), `${name} by Acme's ${role}`).toEqual([403, "FORBIDDEN"])
      expect(await acmeState(world), `${name}: a refusal changed Acme`).toEqual(before)

      const allowed = await call(route.method, url, world[LOWEST_ALLOWED[need]].token, body)
      expect([200, 201], `${name} by Acme's ${LOWEST_ALLOWED[need]}: ${allowed.body.slice(0, 200)}`).toContain(allowed.statusCode)
    }
  }, 120_000)
})
