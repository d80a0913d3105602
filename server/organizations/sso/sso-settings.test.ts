/**
 * An organisation's single sign-on settings through the API, against a real OpenID provider on loopback: saved by the
 * owner only once the provider's discovery document was read, the client secret sealed and never answered, refused
 * for an issuer that is not https on a public address or that is no provider, and audited.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startTestApp, type TestApp } from "../../test-kit"
import { organizationTestKit } from "../organization-test-kit"
import { OUTBOUND_CHECKS_PER_HOUR } from "../outbound-checks"
import { discoverProvider } from "./identity-provider"
import { startIdentityProvider, type TestIdentityProvider } from "./sso-test-kit"

let provider: TestIdentityProvider
let notAProvider: http.Server
let notAProviderUrl: string
/** A provider whose discovery document sends the token exchange to an address on a private network. */
let pointsInside: http.Server
let pointsInsideUrl: string
let subject: TestApp

beforeAll(async () => {
  provider = await startIdentityProvider()
  notAProvider = http.createServer((_request, response) => response.writeHead(404, { "content-type": "text/plain" }).end("not here"))
  await new Promise<void>((resolve) => notAProvider.listen(0, "127.0.0.1", resolve))
  notAProviderUrl = `http://127.0.0.1:${(notAProvider.address() as AddressInfo).port}`
  pointsInside = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ issuer: pointsInsideUrl, authorization_endpoint: `${pointsInsideUrl}/auth`, token_endpoint: "http://10.0.0.7/token", jwks_uri: `${pointsInsideUrl}/jwks`, response_types_supported: ["code"], subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] }))
  })
  await new Promise<void>((resolve) => pointsInside.listen(0, "127.0.0.1", resolve))
  pointsInsideUrl = `http://127.0.0.1:${(pointsInside.address() as AddressInfo).port}`
  subject = await startTestApp({ SSO_ALLOW_INSECURE_ISSUER: "true" }, { clock: Date.now })
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
  await new Promise((resolve) => notAProvider?.close(resolve))
  await new Promise((resolve) => pointsInside?.close(resolve))
})

const { person, call, organizationWith, join, auditedKinds } = organizationTestKit(() => subject)

describe("an organisation's single sign-on settings", () => {
  it("are saved by the owner once the provider answers, read by admins without the secret, removed, and audited", async () => {
    const owner = await person("enterprise")
    const organization = await organizationWith(owner)
    const admin = await person()
    await join(owner, admin, "admin")
    expect((await call("GET", "/api/organizations/current/sso", owner)).body.data).toEqual({ configured: false, issuer: null, clientId: null, enforced: false, updatedAt: null })

    const settings = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, enforced: true }
    expect((await call("PUT", "/api/organizations/current/sso", admin, settings)).status).toBe(403)
    const saved = await call("PUT", "/api/organizations/current/sso", owner, settings)
    expect(saved.status).toBe(200)
    expect(saved.body.data).toEqual({ configured: true, issuer: provider.issuer, clientId: provider.clientId, enforced: true, updatedAt: expect.any(String) })
    const read = await call("GET", "/api/organizations/current/sso", admin)
    expect(read.body.data).toEqual(saved.body.data)
    expect(JSON.stringify(read.body)).not.toContain(provider.clientSecret)
    const stored = await subject.database.db.selectFrom("organization_sso").selectAll().execute()
    expect(JSON.stringify(stored)).not.toContain(provider.clientSecret)

    expect((await call("DELETE", "/api/organizations/current/sso", owner)).body.data.configured).toBe(false)
    expect((await call("DELETE", "/api/organizations/current/sso", owner)).status).toBe(404)
    expect(await auditedKinds(organization.id, "organization.sso_%")).toEqual(["organization.sso_set", "organization.sso_removed"])
  })

  it("refuses a server that is no OpenID provider, and bad settings, saving nothing", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner)
    const refused = await call("PUT", "/api/organizations/current/sso", owner, { issuer: notAProviderUrl, clientId: "x", clientSecret: "y" })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("SSO_DISCOVERY_FAILED")
    expect(refused.body.error.message).toContain(`The provider's OpenID configuration could not be read from ${notAProviderUrl}`)
    for (const body of [{ issuer: "not a url", clientId: "x", clientSecret: "y" }, { issuer: provider.issuer, clientId: "", clientSecret: "y" }, { issuer: "ftp://example.com", clientId: "x", clientSecret: "y" }]) {
      expect((await call("PUT", "/api/organizations/current/sso", owner, body)).status).toBe(400)
    }
    expect((await call("GET", "/api/organizations/current/sso", owner)).body.data.configured).toBe(false)
  })

  it("takes only https issuers on public addresses unless SSO_ALLOW_INSECURE_ISSUER is set", async () => {
    const settings = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }
    await expect(discoverProvider(settings, false)).rejects.toMatchObject({ code: "SSO_ISSUER_NOT_ALLOWED", message: "The issuer must be an https:// address." })
    for (const issuer of ["https://127.0.0.1:8443", "https://10.0.0.7", "https://[::1]", "https://169.254.169.254"]) {
      await expect(discoverProvider({ ...settings, issuer }, false)).rejects.toMatchObject({ code: "SSO_ISSUER_NOT_ALLOWED", message: "The issuer must be on a public address, not on a private or local network." })
    }
    await expect(discoverProvider(settings, true)).resolves.toBeDefined()
    // Its discovery document may not send the server onto a private network either.
    await expect(discoverProvider({ ...settings, issuer: pointsInsideUrl }, true)).rejects.toMatchObject({ code: "SSO_ISSUER_NOT_ALLOWED" })
  })

  it("are tested by the owner without being saved: what the provider's document says, or why it failed", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner)
    const settings = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }
    const tested = await call("POST", "/api/organizations/current/sso/test", owner, settings)
    expect(tested.status).toBe(200)
    expect(tested.body.data).toEqual({ issuer: provider.issuer, authorizationEndpoint: `${provider.issuer}/auth` })
    expect((await call("GET", "/api/organizations/current/sso", owner)).body.data.configured).toBe(false)
    const failed = await call("POST", "/api/organizations/current/sso/test", owner, { ...settings, issuer: notAProviderUrl })
    expect(failed.body.error.code).toBe("SSO_DISCOVERY_FAILED")
  })

  it("lets an organisation make the server read providers at most OUTBOUND_CHECKS_PER_HOUR times an hour, under a burst", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner)
    const settings = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }
    const answers = await Promise.all(Array.from({ length: OUTBOUND_CHECKS_PER_HOUR + 10 }, () => call("POST", "/api/organizations/current/sso/test", owner, settings)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(OUTBOUND_CHECKS_PER_HOUR)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error.code)).toEqual(Array(10).fill("TOO_MANY_REQUESTS"))
    // Another organisation is not held back by this one.
    const other = await person("enterprise")
    await organizationWith(other, "Other")
    expect((await call("POST", "/api/organizations/current/sso/test", other, settings)).status).toBe(200)
  })
})
