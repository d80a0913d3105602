/**
 * Signing in through an organisation's identity provider, against a real OpenID provider on loopback (oidc-provider):
 * start → the provider → callback → the one-time code → the session, a new person joined just in time, an existing
 * account joined, and every refusal the callback owes: a forged or replayed state, a wrong nonce, an expired, foreign
 * or strangely signed ID token, an address the provider did not verify or off the organisation's domains, a domain
 * not verified. Runs on the embedded database and, in api-postgres, PostgreSQL. Enforcement: sso-enforcement.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startDnsStandIn, startTestApp, type DnsStandIn, type TestApp } from "../../test-kit"
import { organizationTestKit, type Person } from "../organization-test-kit"
import { ssoCompanyKit, startIdentityProvider, type TestIdentityProvider } from "./sso-test-kit"

let dns: DnsStandIn
let provider: TestIdentityProvider
let subject: TestApp

beforeAll(async () => {
  dns = await startDnsStandIn()
  provider = await startIdentityProvider()
  subject = await startTestApp({ DNS_SERVERS: dns.address, SSO_ALLOW_INSECURE_ISSUER: "true", WEBHOOKS_ALLOW_LOOPBACK: "true" }, { clock: Date.now })
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
  await dns?.close()
})

const { person, call, organizationWith, auditedKinds } = organizationTestKit(() => subject)
const { companyWithSso, post, startAndSignIn, callback, signInThroughSso } = ssoCompanyKit(() => ({ subject, dns, provider }))

describe("signing in through the organisation's identity provider", () => {
  it("sends the browser to the provider with PKCE, state and nonce, then makes a verified member of a new person", async () => {
    const { owner, organization, domain } = await companyWithSso()
    // The organisation's systems hear of the member who joined (a receiver that is never reached: the queue is read).
    expect((await call("POST", "/api/webhooks", owner, { url: "http://127.0.0.1:9/hook", events: ["member.joined"] })).status).toBe(201)
    const email = `ada@${domain}`
    const started = await post("/api/auth/sso/start", { email: email.toUpperCase() })
    const redirect = new URL(started.json().data.redirectUrl)
    expect(redirect.origin).toBe(provider.issuer)
    expect(Object.fromEntries(redirect.searchParams)).toMatchObject({
      client_id: provider.clientId,
      response_type: "code",
      redirect_uri: "http://localhost:8787/api/auth/sso/callback",
      code_challenge_method: "S256",
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
      scope: "openid email profile"
    })

    const fragment = await signInThroughSso(email)
    expect(fragment.get("error")).toBeNull()
    const code = fragment.get("code")!
    const completed = await post("/api/auth/sso/complete", { code })
    expect(completed.statusCode, completed.body).toBe(200)
    const session = completed.json().data
    expect(session).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String), user: { email, name: "Ada Lovelace", emailVerified: true, organization: { id: organization.id, role: "member" } } })
    // The code is good once.
    expect((await post("/api/auth/sso/complete", { code })).json().error.code).toBe("INVALID_OR_EXPIRED_CODE")

    const row = await subject.database.db.selectFrom("users").select(["password_hash", "email_verified_at"]).where("email", "=", email).executeTakeFirstOrThrow()
    expect(row.password_hash).toBeNull()
    expect(row.email_verified_at).not.toBeNull()
    expect(await auditedKinds(organization.id, "organization.member_%")).toEqual(["organization.member_joined"])
    expect(await auditedKinds(organization.id, "sso.%")).toEqual(["sso.signed_in"])
    const queued = await subject.database.db.selectFrom("webhook_deliveries").select(["event_type", "payload"]).where("event_type", "=", "member.joined").execute()
    expect(queued.map((delivery) => JSON.parse(delivery.payload).data)).toContainEqual({ organizationId: organization.id, userId: session.user.id, email, role: "member", via: "sso" })
    // Signing in again finds the member: no second account, no second membership.
    const again = await post("/api/auth/sso/complete", { code: (await signInThroughSso(email)).get("code")! })
    expect(again.json().data.user.organization.id).toBe(organization.id)
  })

  it("signs an existing account in and joins it to the organisation; one in another organisation is refused", async () => {
    const { organization, domain } = await companyWithSso()
    const existing = await person()
    const email = `grace@${domain}`
    await subject.database.db.updateTable("users").set({ email }).where("id", "=", existing.id).execute()
    const completed = await post("/api/auth/sso/complete", { code: (await signInThroughSso(email)).get("code")! })
    expect(completed.json().data.user).toMatchObject({ id: existing.id, organization: { id: organization.id, role: "member" } })

    const other = await companyWithSso()
    expect((await signInThroughSso(`grace@${other.domain}`, { sub: "someone-else" })).get("code")).toBeTruthy()
    const elsewhere: Person = await person("enterprise")
    await organizationWith(elsewhere, "Elsewhere")
    const address = `owner@${domain}`
    await subject.database.db.updateTable("users").set({ email: address }).where("id", "=", elsewhere.id).execute()
    expect((await signInThroughSso(address)).get("error")).toBe("otherOrganization")
  })

  it("answers a second factor's step when the account has one, as password login does", async () => {
    const { domain } = await companyWithSso()
    const email = `two-step@${domain}`
    const first = await post("/api/auth/sso/complete", { code: (await signInThroughSso(email)).get("code")! })
    const userId = first.json().data.user.id as string
    await subject.database.db.insertInto("totp_factors").values({ user_id: userId, secret_sealed: "sealed", enabled_at: new Date(), created_at: new Date() }).execute()
    const second = await post("/api/auth/sso/complete", { code: (await signInThroughSso(email)).get("code")! })
    expect(second.json().data).toMatchObject({ mfaRequired: true, mfaToken: expect.any(String), methods: expect.arrayContaining(["totp"]) })
  })

  it("refuses an address whose domain is not verified, or that has no single sign-on", async () => {
    const { owner, domain } = await companyWithSso()
    const unverified = `pending-${domain}`
    expect((await call("POST", "/api/organizations/current/domains", owner, { domain: unverified })).status).toBe(201)
    for (const email of [`ada@${unverified}`, "ada@nobody-set-this-up.example"]) {
      const refused = await post("/api/auth/sso/start", { email })
      expect(refused.statusCode).toBe(404)
      expect(refused.json().error).toMatchObject({ code: "SSO_NOT_CONFIGURED", message: expect.stringContaining("Single sign-on is not set up for") })
    }
    expect((await post("/api/auth/sso/start", { email: "not an address" })).statusCode).toBe(400)
    expect((await post("/api/auth/sso/complete", { code: "made-up" })).json().error.code).toBe("INVALID_OR_EXPIRED_CODE")
  })

  it("refuses a forged state, and a state used once already", async () => {
    const { domain } = await companyWithSso()
    provider.signInAs({ sub: "forger", email: `forger@${domain}` })
    const back = await startAndSignIn(`forger@${domain}`)
    const forged = new URL(back)
    forged.searchParams.set("state", "a-state-this-server-never-gave")
    expect((await callback(forged)).get("error")).toBe("expired")
    const noState = new URL(back)
    noState.searchParams.delete("state")
    expect((await callback(noState)).get("error")).toBe("expired")
    expect((await callback(back)).get("code")).toBeTruthy()
    expect((await callback(back)).get("error")).toBe("expired")
  })

  it("gives one session for a state and for a code, when 20 callbacks or 20 exchanges arrive at once", async () => {
    const { domain } = await companyWithSso()
    provider.signInAs({ sub: "racer", email: `racer@${domain}` })
    const back = await startAndSignIn(`racer@${domain}`)
    // Each from an address of its own, as 20 browsers: the per-address sign-in limit is not what is tested here.
    const callbacks = await Promise.all(Array.from({ length: 20 }, (_, index) => subject.app.inject({ method: "GET", url: back.pathname + back.search, remoteAddress: `10.46.0.${index + 1}` })))
    const codes = callbacks.map((answer) => new URLSearchParams(new URL(answer.headers.location as string).hash.slice(1)).get("code")).filter(Boolean)
    expect(codes).toHaveLength(1)
    const exchanges = await Promise.all(
      Array.from({ length: 20 }, (_, index) => subject.app.inject({ method: "POST", url: "/api/auth/sso/complete", payload: { code: codes[0]! }, remoteAddress: `10.46.1.${index + 1}` }))
    )
    expect(exchanges.filter((answer) => answer.statusCode === 200)).toHaveLength(1)
    expect(exchanges.filter((answer) => answer.json().error?.code === "INVALID_OR_EXPIRED_CODE")).toHaveLength(19)
  })

  it("refuses an ID token with a wrong nonce, expired, for another audience, or not signed by the provider's keys", async () => {
    const { domain } = await companyWithSso()
    const email = `eve@${domain}`
    const now = Math.floor(Date.now() / 1000)
    const forgeries = [
      { name: "wrong nonce", change: (claims: Record<string, unknown>) => ({ ...claims, nonce: "another-nonce" }) },
      { name: "expired", change: (claims: Record<string, unknown>) => ({ ...claims, iat: now - 7200, exp: now - 3600 }) },
      { name: "foreign audience", change: (claims: Record<string, unknown>) => ({ ...claims, aud: "another-client" }) },
      { name: "another issuer", change: (claims: Record<string, unknown>) => ({ ...claims, iss: "https://evil.example" }) }
    ]
    try {
      for (const forgery of forgeries) {
        provider.tamper(forgery.change)
        expect((await signInThroughSso(email)).get("error"), forgery.name).toBe("rejected")
      }
      provider.tamper((claims) => claims, "stranger")
      expect((await signInThroughSso(email)).get("error"), "a stranger's signature").toBe("rejected")
      // The same token signed again by the provider's own key passes: the refusals above are the changes'.
      provider.tamper((claims) => claims)
      expect((await signInThroughSso(email)).get("code")).toBeTruthy()
    } finally {
      provider.tamper(null)
    }
    expect(await subject.database.db.selectFrom("users").select("id").where("email", "=", `${email}`).execute()).toHaveLength(1)
  })

  it("refuses an address the provider did not verify (Entra's xms_edov counts), or one off the organisation's verified domains", async () => {
    const { domain } = await companyWithSso()
    expect((await signInThroughSso(`unverified@${domain}`, { email_verified: false })).get("error")).toBe("unverifiedEmail")
    // Microsoft Entra ID's ID tokens carry no email_verified, but its optional claim xms_edov.
    try {
      provider.tamper(({ email_verified: _dropped, ...claims }) => ({ ...claims, xms_edov: true }))
      expect((await signInThroughSso(`entra@${domain}`)).get("code")).toBeTruthy()
      provider.tamper(({ email_verified: _dropped, ...claims }) => claims)
      expect((await signInThroughSso(`unsaid@${domain}`)).get("error")).toBe("unverifiedEmail")
    } finally {
      provider.tamper(null)
    }
    // The provider vouches for an address of another domain than the one the person typed.
    provider.signInAs({ sub: "stranger", email: "stranger@elsewhere.example", email_verified: true })
    expect((await callback(await startAndSignIn(`stranger@${domain}`))).get("error")).toBe("wrongDomain")
    const made = await subject.database.db.selectFrom("users").select("id").where("email", "in", [`unverified@${domain}`, `unsaid@${domain}`, "stranger@elsewhere.example"]).execute()
    expect(made).toEqual([])
  })
})
