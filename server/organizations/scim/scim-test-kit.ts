/**
 * What the SCIM API tests share: an Enterprise organisation with a SCIM token made through the API by its owner, and
 * calls to /scim/v2 as an identity provider makes them (application/scim+json, the token as a bearer).
 * Test-only: imported by the *.test.ts files of this folder.
 */
import { expect } from "vitest"

import { SCIM_USER_SCHEMA } from "~core/scim"

import type { TestApp } from "../../test-kit"
import { organizationTestKit, type Person } from "../organization-test-kit"

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

export function scimTestKit(subject: () => TestApp) {
  const kit = organizationTestKit(subject)

  async function scimToken(owner: Person): Promise<string> {
    const created = await kit.call("POST", "/api/organizations/current/scim-tokens", owner)
    expect(created.status).toBe(201)
    return (created.body.data as { token: string }).token
  }

  /** A call to /scim/v2: `body` as JSON text unless it is a string already (a broken body). */
  async function scim(method: Method, url: string, token: string | null, body?: unknown, contentType = "application/scim+json") {
    const response = await subject().app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": contentType }) },
      ...(body === undefined ? {} : { payload: typeof body === "string" ? body : JSON.stringify(body) })
    })
    return { status: response.statusCode, type: String(response.headers["content-type"]), body: response.body ? response.json() : null }
  }

  /** An Enterprise owner's organisation and a SCIM token of it. */
  async function provisionedOrganization(name = "Acme") {
    const owner = await kit.person("enterprise")
    const organization = await kit.organizationWith(owner, name)
    return { owner, organization, token: await scimToken(owner) }
  }

  let counter = 0
  /** A new person as Okta would send them, at an address no test used. */
  function newUser(extra: Record<string, unknown> = {}) {
    const email = `scim-${++counter}-${Math.random().toString(36).slice(2, 8)}@acme.example`
    return { schemas: [SCIM_USER_SCHEMA], userName: email, name: { givenName: "Ada", familyName: "Lovelace" }, emails: [{ value: email, type: "work", primary: true }], active: true, externalId: `okta-${counter}`, ...extra }
  }

  return { ...kit, scimToken, scim, provisionedOrganization, newUser }
}
