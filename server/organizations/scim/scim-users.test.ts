/**
 * /scim/v2/Users as identity providers call it with an organisation's token: create (201 with meta; a taken userName
 * 409 uniqueness; an existing account in no organisation joins), list with filters and pages, get, PUT, PATCH in
 * Microsoft Entra ID's form (paths, capitalised ops, booleans as strings) and in Okta's (a value object), DELETE, and
 * another organisation's token seeing nothing. Every answer is application/scim+json; refusals in SCIM's error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { SCIM_ERROR_SCHEMA, SCIM_LIST_SCHEMA, SCIM_PATCH_SCHEMA, SCIM_USER_SCHEMA } from "~core/scim"

import { startTestApp, type TestApp } from "../../test-kit"
import { scimTestKit } from "./scim-test-kit"

let subject: TestApp

beforeAll(async () => {
  subject = await startTestApp({}, { clock: Date.now })
})
afterAll(async () => subject?.close())

const { person, call, scim, provisionedOrganization, newUser, auditedKinds, join } = scimTestKit(() => subject)
const patchOf = (...Operations: object[]) => ({ schemas: [SCIM_PATCH_SCHEMA], Operations })

describe("SCIM users", () => {
  it("creates a member without a password, address verified, with its meta; a taken userName is 409 uniqueness", async () => {
    const { organization, owner, token } = await provisionedOrganization()
    const body = newUser()
    const created = await scim("POST", "/Users", token, body)
    expect(created.status).toBe(201)
    expect(created.type).toContain("application/scim+json")
    const id = created.body!.id as string
    expect(created.body).toEqual({
      schemas: [SCIM_USER_SCHEMA],
      id,
      externalId: body.externalId,
      userName: body.userName,
      name: { formatted: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace" },
      displayName: "Ada Lovelace",
      emails: [{ value: body.userName, type: "work", primary: true }],
      active: true,
      meta: { resourceType: "User", created: expect.any(String), lastModified: expect.any(String), location: expect.stringMatching(new RegExp(`/scim/v2/Users/${id}$`)) }
    })
    const account = await subject.database.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow()
    expect([account.password_hash, account.email_verified_at !== null]).toEqual([null, true])
    const members = (await call("GET", "/api/organizations/current", owner)).body.data.members as { userId: string; role: string }[]
    expect(members).toContainEqual(expect.objectContaining({ userId: id, role: "member" }))

    const again = await scim("POST", "/Users", token, { ...body, userName: body.userName.toUpperCase() }, "application/json")
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ schemas: [SCIM_ERROR_SCHEMA], status: "409", scimType: "uniqueness", detail: expect.any(String) })
    expect(await auditedKinds(organization.id, "scim.%")).toEqual(["scim.user_created"])
  })

  it("adds an existing account in no organisation, and refuses one of another organisation as uniqueness", async () => {
    const { token } = await provisionedOrganization()
    const loner = await person()
    const joined = await scim("POST", "/Users", token, newUser({ userName: loner.email, emails: undefined }))
    expect([joined.status, joined.body!.id]).toEqual([201, loner.id])
    // Their address is theirs: SCIM did not create the account, so it does not change it.
    const renamed = await scim("PATCH", `/Users/${loner.id}`, token, patchOf({ op: "replace", path: "userName", value: "taken-over@acme.example" }))
    expect([renamed.status, renamed.body!.scimType]).toEqual([400, "mutability"])

    const other = await provisionedOrganization("Globex")
    const elsewhere = await person()
    await join(other.owner, elsewhere)
    const refused = await scim("POST", "/Users", token, newUser({ userName: elsewhere.email }))
    expect([refused.status, refused.body!.scimType]).toEqual([409, "uniqueness"])
    const paying = await scim("POST", "/Users", token, newUser({ userName: (await person("pro")).email }))
    expect([paying.status, paying.body!.scimType]).toEqual([409, "uniqueness"])
  })

  it("lists with filters on userName, emails.value and externalId, and pages with startIndex and count", async () => {
    const { owner, token } = await provisionedOrganization()
    const bodies = [newUser(), newUser(), newUser()]
    for (const body of bodies) expect((await scim("POST", "/Users", token, body)).status).toBe(201)

    const all = await scim("GET", "/Users", token)
    expect(all.body).toMatchObject({ schemas: [SCIM_LIST_SCHEMA], totalResults: 4, startIndex: 1, itemsPerPage: 4 })
    expect((all.body!.Resources as { userName: string }[]).map((user) => user.userName)).toEqual([owner.email, ...bodies.map((body) => body.userName)])

    const page = await scim("GET", "/Users?startIndex=2&count=2", token)
    expect(page.body).toMatchObject({ totalResults: 4, startIndex: 2, itemsPerPage: 2 })
    expect((page.body!.Resources as { userName: string }[]).map((user) => user.userName)).toEqual([bodies[0]!.userName, bodies[1]!.userName])

    const byUserName = await scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "${bodies[1]!.userName.toUpperCase()}"`)}`, token)
    expect([byUserName.body!.totalResults, byUserName.body!.Resources[0].userName]).toEqual([1, bodies[1]!.userName])
    const byEmail = await scim("GET", `/Users?filter=${encodeURIComponent(`emails.value eq "${bodies[2]!.userName}"`)}`, token)
    expect(byEmail.body!.Resources.map((user: { userName: string }) => user.userName)).toEqual([bodies[2]!.userName])
    const byExternalId = await scim("GET", `/Users?filter=${encodeURIComponent(`externalId eq "${bodies[0]!.externalId}"`)}`, token)
    expect(byExternalId.body!.Resources.map((user: { userName: string }) => user.userName)).toEqual([bodies[0]!.userName])
    const nobody = await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "nobody@acme.example"')}`, token)
    expect(nobody.body).toEqual({ schemas: [SCIM_LIST_SCHEMA], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] })

    for (const filter of ['name.givenName co "A"', "userName sw x", 'title eq "x"', "garbage"]) {
      const refused = await scim("GET", `/Users?filter=${encodeURIComponent(filter)}`, token)
      expect([refused.status, refused.body!.scimType], filter).toEqual([400, "invalidFilter"])
    }
  })

  it("gets and replaces a user with PUT", async () => {
    const { token } = await provisionedOrganization()
    const body = newUser()
    const { id } = (await scim("POST", "/Users", token, body)).body! as { id: string }
    expect((await scim("GET", `/Users/${id}`, token)).body!.userName).toBe(body.userName)
    const address = `renamed-${body.userName}`
    const replaced = await scim("PUT", `/Users/${id}`, token, { ...body, userName: address, name: { givenName: "Augusta", familyName: "King" }, externalId: "okta-new" })
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ id, userName: address, name: { formatted: "Augusta King", givenName: "Augusta", familyName: "King" }, externalId: "okta-new", active: true })
    expect((await scim("GET", `/Users/${id}`, token)).body).toEqual(replaced.body)
    expect((await subject.database.db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirstOrThrow()).email).toBe(address)
  })

  it("patches in Microsoft Entra ID's form: paths, capitalised ops, booleans as strings, emails[type eq \"work\"].value", async () => {
    const { organization, token } = await provisionedOrganization()
    const { id, userName } = (await scim("POST", "/Users", token, newUser())).body! as { id: string; userName: string }
    const patched = await scim(
      "PATCH",
      `/Users/${id}`,
      token,
      patchOf(
        { op: "Replace", path: "name.givenName", value: "Grace" },
        { op: "Replace", path: "name.familyName", value: "Hopper" },
        { op: "Add", path: "externalId", value: "entra-7" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: `grace-${userName}` },
        { op: "Add", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Navy" },
        { op: "Replace", path: "active", value: "False" }
      )
    )
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ userName: `grace-${userName}`, name: { formatted: "Grace Hopper", givenName: "Grace", familyName: "Hopper" }, externalId: "entra-7", active: false })
    expect((await scim("PATCH", `/Users/${id}`, token, patchOf({ op: "Replace", path: "active", value: "True" }))).body!.active).toBe(true)
    expect(await auditedKinds(organization.id, "scim.%")).toEqual(["scim.user_created", "scim.user_deactivated", "scim.user_updated", "scim.user_reactivated"])
  })

  it("patches in Okta's form: a value object without a path", async () => {
    const { token } = await provisionedOrganization()
    const { id, userName } = (await scim("POST", "/Users", token, newUser())).body! as { id: string; userName: string }
    const off = await scim("PATCH", `/Users/${id}`, token, patchOf({ op: "replace", value: { active: false } }))
    expect([off.status, off.body!.active]).toEqual([200, false])
    const renamed = await scim("PATCH", `/Users/${id}`, token, patchOf({ op: "replace", value: { active: true, name: { familyName: "Byron" }, emails: [{ value: `byron-${userName}`, primary: true, type: "work" }] } }))
    expect(renamed.body).toMatchObject({ active: true, userName: `byron-${userName}`, name: { givenName: "Ada", familyName: "Byron", formatted: "Ada Byron" } })
  })

  it("deletes a user (204), who then answers 404 and is no longer a member; the account stays", async () => {
    const { owner, token } = await provisionedOrganization()
    const { id } = (await scim("POST", "/Users", token, newUser())).body! as { id: string }
    const deleted = await scim("DELETE", `/Users/${id}`, token)
    expect([deleted.status, deleted.body]).toEqual([204, null])
    expect((await scim("GET", `/Users/${id}`, token)).status).toBe(404)
    expect((await scim("DELETE", `/Users/${id}`, token)).status).toBe(404)
    const members = (await call("GET", "/api/organizations/current", owner)).body.data.members as { userId: string }[]
    expect(members.map((member) => member.userId)).not.toContain(id)
    expect(await subject.database.db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst()).toEqual({ id })
  })

  it("never suspends or removes the owner", async () => {
    const { owner, token } = await provisionedOrganization()
    expect((await scim("PATCH", `/Users/${owner.id}`, token, patchOf({ op: "replace", value: { active: false } }))).status).toBe(403)
    expect((await scim("DELETE", `/Users/${owner.id}`, token)).status).toBe(403)
    expect((await call("GET", "/api/organizations/current", owner)).status).toBe(200)
  })

  it("shows a token nothing of another organisation: its users answer 404", async () => {
    const acme = await provisionedOrganization()
    const globex = await provisionedOrganization("Globex")
    const { id } = (await scim("POST", "/Users", acme.token, newUser())).body! as { id: string }
    for (const [method, body] of [["GET"], ["PUT", newUser()], ["PATCH", patchOf({ op: "replace", value: { active: false } })], ["DELETE"]] as const) {
      const answer = await scim(method, `/Users/${id}`, globex.token, body)
      expect([answer.status, answer.body!.schemas], method).toEqual([404, [SCIM_ERROR_SCHEMA]])
    }
    const listed = await scim("GET", "/Users", globex.token)
    expect(JSON.stringify(listed.body)).not.toContain(id)
    expect((await scim("GET", `/Users/${id}`, acme.token)).body!.active).toBe(true)
  })

  it("answers a missing or bad token 401 and bad bodies 400, in SCIM's error shape, never 500", async () => {
    const { token } = await provisionedOrganization()
    const { id } = (await scim("POST", "/Users", token, newUser())).body! as { id: string }
    const signedIn = await person("enterprise")
    for (const bad of [null, "iqa_scim_forged", signedIn.token]) {
      const answer = await scim("GET", "/Users", bad)
      expect([answer.status, answer.type.includes("application/scim+json"), answer.body!.schemas], String(bad)).toEqual([401, true, [SCIM_ERROR_SCHEMA]])
    }
    const cases: [string, string, unknown, string][] = [
      ["POST", "/Users", "{not json", "invalidSyntax"],
      ["POST", "/Users", [], "invalidSyntax"],
      ["POST", "/Users", { userName: "not an address" }, "invalidValue"],
      ["POST", "/Users", { userName: 42 }, "invalidValue"],
      ["POST", "/Users", newUser({ active: "perhaps" }), "invalidValue"],
      ["PUT", `/Users/${id}`, {}, "invalidValue"],
      ["PATCH", `/Users/${id}`, { Operations: [] }, "invalidValue"],
      ["PATCH", `/Users/${id}`, patchOf({ op: "move", path: "active", value: false }), "invalidValue"],
      ["PATCH", `/Users/${id}`, patchOf({ op: "replace", path: "emails[", value: "x" }), "invalidPath"],
      ["PATCH", `/Users/${id}`, patchOf({ op: "replace", value: "not an object" }), "invalidValue"],
      ["PATCH", `/Users/${id}`, patchOf({ op: "replace", path: "active", value: "maybe" }), "invalidValue"],
      ["PATCH", `/Users/${id}`, patchOf({ op: "replace", path: "userName", value: "nope" }), "invalidValue"]
    ]
    for (const [method, url, body, scimType] of cases) {
      const answer = await scim(method as "POST", url, token, body)
      expect([answer.status, answer.body!.scimType, answer.body!.schemas], `${method} ${JSON.stringify(body)}`).toEqual([400, scimType, [SCIM_ERROR_SCHEMA]])
    }
    expect((await scim("GET", "/Users/not-a-uuid", token)).status).toBe(404)
    const text = await scim("POST", "/Users", token, "userName=x", "text/plain")
    expect([text.status, text.body!.scimType]).toEqual([400, "invalidSyntax"])
    const xml = await scim("POST", "/Users", token, "<user/>", "application/xml")
    expect([xml.status, xml.body!.schemas]).toEqual([415, [SCIM_ERROR_SCHEMA]])
  })

  it("serves ServiceProviderConfig, ResourceTypes and Schemas", async () => {
    const config = await scim("GET", "/ServiceProviderConfig", null)
    expect(config.type).toContain("application/scim+json")
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 100 }, authenticationSchemes: [{ type: "oauthbearertoken" }] })
    expect((await scim("GET", "/ResourceTypes", null)).body).toMatchObject({ totalResults: 1, Resources: [{ id: "User", endpoint: "/Users", schema: SCIM_USER_SCHEMA }] })
    expect((await scim("GET", "/ResourceTypes/User", null)).body!.id).toBe("User")
    const schemas = await scim("GET", "/Schemas", null)
    expect(schemas.body!.Resources[0].attributes.map((attribute: { name: string }) => attribute.name)).toEqual(["userName", "name", "displayName", "emails", "active", "externalId"])
    expect((await scim("GET", `/Schemas/${SCIM_USER_SCHEMA}`, null)).body!.id).toBe(SCIM_USER_SCHEMA)
    expect((await scim("GET", "/Schemas/urn:nothing", null)).status).toBe(404)
  })
})
