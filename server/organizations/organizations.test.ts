/**
 * Organisations through the API: an Enterprise subscriber makes one, invites by e-mail (the link from the outbox),
 * the invitee accepts; refusals for another address, an expired, withdrawn or used code, a plan of one's own; what
 * each role may do; removal ending the pool at once; the pool's limit under 20 members' requests at once; leaving,
 * transferring and deleting.
 */
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { Invitation, Organization } from "~core/organizations"

import { completion, readOutbox, sendJson, startStandIn, startTestApp, type TestApp } from "../test-kit"
import { organizationTestKit, type Person } from "./organization-test-kit"

let provider: Awaited<ReturnType<typeof startStandIn>>
let subject: TestApp

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("Hallo")))
  subject = await startTestApp(
    { OPENAI_API_KEY: "sk-test-organizations-0123456789", OPENAI_BASE_URL: `${provider.url}/v1` },
    { clock: Date.now, visionModel: { maxModelCallsInFlight: 100 } }
  )
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
})

const { person, call, invitationCode, organizationWith, join } = organizationTestKit(() => subject)

const translate = (who: Person) => call("POST", "/api/analyze/translate", who, { text: "Hello", targetLanguage: "de" })

describe("organisations", () => {
  it("is made by an Enterprise subscriber, who owns it; others are told the plan it needs", async () => {
    for (const plan of ["free", "pro"] as const) {
      const refused = await call("POST", "/api/organizations", await person(plan), { name: "Acme" })
      expect([refused.status, refused.body.error.code]).toEqual([403, "PLAN_REQUIRED"])
    }
    const owner = await person("enterprise")
    const organization = await organizationWith(owner)
    expect(organization).toMatchObject({ name: "Acme", role: "owner", pool: { limit: null, used: 0 }, brand: { name: "Acme", logoUrl: null, accentColor: null } })
    expect(organization.members).toEqual([{ userId: owner.id, email: owner.email, name: "Grace Hopper", role: "owner", usedThisMonth: 0, twoStep: false }])
    expect(organization.requireMfa).toBe(false)
    const twice = await call("POST", "/api/organizations", owner, { name: "Acme 2" })
    expect([twice.status, twice.body.error.code]).toEqual([409, "ALREADY_IN_ORGANIZATION"])
    expect((await call("GET", "/api/organizations/current", await person())).status).toBe(404)
    const badColour = await call("PATCH", "/api/organizations/current", owner, { accentColor: "red" })
    expect([badColour.status, badColour.body.error.code]).toEqual([400, "VALIDATION_FAILED"])
    expect((await call("PATCH", "/api/organizations/current", owner, { accentColor: "#12AB34" })).body.data.brand.accentColor).toBe("#12ab34")
    // The profile carries the membership and its brand, for the dashboard and the extension's header.
    const profile = (await call("GET", "/api/auth/profile", owner)).body.data.user
    expect(profile.organization).toEqual({ id: organization.id, name: "Acme", role: "owner", brand: { name: "Acme", logoUrl: null, accentColor: "#12ab34" } })
    expect((await call("GET", "/api/auth/profile", await person())).body.data.user.organization).toBeNull()
  })

  it("lets the invited address accept once, and refuses another address, a withdrawn, an expired code and a plan of one's own", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner, "Initech")
    const invitee = await person()
    const invitation = (await call("POST", "/api/organizations/current/invitations", owner, { email: invitee.email.toUpperCase(), role: "admin" })).body.data as Invitation
    expect(invitation).toMatchObject({ email: invitee.email, role: "admin" })
    const code = await invitationCode(invitee.email)
    const mail = (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(invitee.email)).pop()!
    expect(mail.subject).toBe("Grace Hopper invited you to Initech on Image Query AI")

    const stranger = await call("POST", "/api/organizations/invitations/accept", await person(), { code })
    expect([stranger.status, stranger.body.error.code]).toEqual([403, "INVITATION_NOT_FOR_YOU"])
    const joined = await call("POST", "/api/organizations/invitations/accept", invitee, { code })
    expect([joined.status, joined.body.data.role]).toEqual([200, "admin"])
    const again = await call("POST", "/api/organizations/invitations/accept", invitee, { code })
    expect([again.status, again.body.error.code]).toEqual([400, "INVALID_OR_EXPIRED_CODE"])

    // Withdrawn.
    const withdrawn = await person()
    const pending = (await call("POST", "/api/organizations/current/invitations", owner, { email: withdrawn.email, role: "member" })).body.data as Invitation
    const withdrawnCode = await invitationCode(withdrawn.email)
    expect((await call("GET", "/api/organizations/current/invitations", owner)).body.data.map((item: Invitation) => item.email)).toEqual([withdrawn.email])
    expect((await call("DELETE", `/api/organizations/current/invitations/${pending.id}`, owner)).status).toBe(200)
    expect((await call("POST", "/api/organizations/invitations/accept", withdrawn, { code: withdrawnCode })).body.error.code).toBe("INVALID_OR_EXPIRED_CODE")

    // Expired after 7 days.
    const late = await person()
    await call("POST", "/api/organizations/current/invitations", owner, { email: late.email, role: "member" })
    const lateCode = await invitationCode(late.email)
    // Its 7 days over (moved back in the database: a clock moved on would end the sessions too).
    const invitedAt = new Date(Date.now() - 7 * 24 * 60 * 60_000 - 1000)
    await subject.database.db.updateTable("organization_invitations").set({ created_at: invitedAt, expires_at: new Date(Date.now() - 1000) }).where("email", "=", late.email).execute()
    const expired = await call("POST", "/api/organizations/invitations/accept", late, { code: lateCode })
    expect([expired.status, expired.body.error.code]).toEqual([400, "INVALID_OR_EXPIRED_CODE"])
    expect(expired.body.error.message).toContain("expired")

    // A plan of one's own must end first; a member of another organisation is refused when invited.
    const subscriber = await person("pro")
    await call("POST", "/api/organizations/current/invitations", owner, { email: subscriber.email, role: "member" })
    const paid = await call("POST", "/api/organizations/invitations/accept", subscriber, { code: await invitationCode(subscriber.email) })
    expect([paid.status, paid.body.error.code]).toEqual([409, "CANCEL_SUBSCRIPTION_FIRST"])
    const otherOwner = await person("enterprise")
    await organizationWith(otherOwner, "Globex")
    const taken = await call("POST", "/api/organizations/current/invitations", owner, { email: otherOwner.email, role: "member" })
    expect([taken.status, taken.body.error.code]).toEqual([409, "ALREADY_IN_ORGANIZATION"])
  })

  it("lets each role do what it may, and no more", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner, "Umbrella")
    const admin = await person()
    const member = await person()
    const other = await person()
    await join(owner, admin, "admin")
    await join(owner, member)
    await join(admin, other)
    // [who, method, url, body, expected status]
    const table: [Person, "POST" | "PATCH" | "DELETE", string, unknown, number][] = [
      [member, "POST", "/api/organizations/current/invitations", { email: "new@example.com", role: "member" }, 403],
      [member, "PATCH", `/api/organizations/current/members/${other.id}`, { role: "admin" }, 403],
      [member, "DELETE", `/api/organizations/current/members/${other.id}`, undefined, 403],
      [member, "PATCH", "/api/organizations/current", { name: "Mine" }, 403],
      [admin, "PATCH", `/api/organizations/current/members/${owner.id}`, { role: "member" }, 403],
      [admin, "DELETE", `/api/organizations/current/members/${owner.id}`, undefined, 403],
      [admin, "POST", "/api/organizations/current/transfer", { userId: admin.id }, 403],
      [admin, "DELETE", "/api/organizations/current", undefined, 403],
      [owner, "DELETE", `/api/organizations/current/members/${owner.id}`, undefined, 403],
      [admin, "PATCH", `/api/organizations/current/members/${other.id}`, { role: "admin" }, 200],
      [admin, "PATCH", "/api/organizations/current", { name: "Umbrella Corp" }, 200],
      [admin, "DELETE", `/api/organizations/current/members/${other.id}`, undefined, 200],
      [member, "DELETE", `/api/organizations/current/members/${member.id}`, undefined, 200]
    ]
    for (const [who, method, url, body, status] of table) expect([method, url, (await call(method, url, who, body)).status]).toEqual([method, url, status])
    // Every member sees the changes: who, what, whom, when; newest first.
    const activity = (await call("GET", "/api/organizations/current/activity", admin)).body.data as { kind: string; actor: { email: string } | null; subject: { email: string } | null }[]
    expect(activity[0]).toMatchObject({ kind: "organization.member_left", actor: { email: member.email }, subject: { email: member.email } })
    expect(activity.map((event) => event.kind)).toContain("organization.role_changed")
    expect(activity.at(-1)!.kind).toBe("organization.created")
    const after = (await call("GET", "/api/organizations/current", owner)).body.data as Organization
    expect(after.name).toBe("Umbrella Corp")
    expect(after.members.map((item) => [item.userId, item.role])).toEqual([
      [owner.id, "owner"],
      [admin.id, "admin"]
    ])
    // Transfer: the former owner becomes an admin; then the new owner deletes it, and everyone is on their own plan.
    expect((await call("POST", "/api/organizations/current/transfer", owner, { userId: admin.id })).body.data.role).toBe("admin")
    expect((await call("DELETE", "/api/organizations/current", admin)).status).toBe(200)
    expect((await call("GET", "/api/organizations/current", owner)).status).toBe(404)
    const audit = await subject.database.db.selectFrom("audit_events").select("kind").where("kind", "like", "organization.%").where("actor_id", "in", [owner.id, admin.id, member.id]).execute()
    expect(new Set(audit.map((row) => row.kind))).toEqual(
      new Set(["organization.created", "organization.member_invited", "organization.member_joined", "organization.role_changed", "organization.renamed", "organization.member_removed", "organization.member_left", "organization.ownership_transferred", "organization.deleted"])
    )
  })

  it("gives another organisation's owner nothing of this one: its members and invitations are not found", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner, "Wayne")
    const member = await person()
    await join(owner, member)
    const pending = (await call("POST", "/api/organizations/current/invitations", owner, { email: "later@example.com", role: "member" })).body.data as Invitation
    const rival = await person("enterprise")
    await organizationWith(rival, "Oscorp")
    expect((await call("PATCH", `/api/organizations/current/members/${member.id}`, rival, { role: "admin" })).status).toBe(404)
    expect((await call("DELETE", `/api/organizations/current/members/${member.id}`, rival)).status).toBe(404)
    expect((await call("POST", "/api/organizations/current/transfer", rival, { userId: member.id })).status).toBe(404)
    expect((await call("DELETE", `/api/organizations/current/invitations/${pending.id}`, rival)).status).toBe(404)
    const wayne = (await call("GET", "/api/organizations/current", owner)).body.data as Organization
    expect(wayne.members.map((item) => [item.userId, item.role])).toEqual([
      [owner.id, "owner"],
      [member.id, "member"]
    ])
    expect((await call("GET", "/api/organizations/current/invitations", owner)).body.data).toHaveLength(1)
  })

  it("holds its 25 seats when 30 invitations are sent at once", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner, "Cyberdyne")
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => call("POST", "/api/organizations/current/invitations", owner, { email: `seat${index}@cyberdyne.example`, role: "member" }))
    )
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(24)
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.code)).toEqual(Array(6).fill("ORGANIZATION_FULL"))
    expect((await call("GET", "/api/organizations/current/invitations", owner)).body.data).toHaveLength(24)
  })

  it("draws members' requests from one pool that 20 at once never pass, and a removed member's next request from their own plan", async () => {
    const owner = await person("enterprise")
    const organization = await organizationWith(owner, "Hooli")
    await subject.database.db.updateTable("organizations").set({ request_limit: 12 }).where("id", "=", organization.id).execute()
    const members: Person[] = []
    for (let index = 0; index < 19; index++) {
      const member = await person()
      await join(owner, member)
      members.push(member)
    }
    const answers = await Promise.all([owner, ...members].map((who) => translate(who)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(12)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(8)
    expect(refused[0]!.body.error.code).toBe("QUOTA_EXCEEDED")
    expect(refused[0]!.body.error.message).toContain("Hooli has used all 12 AI requests")

    const usage = (await call("GET", "/api/analyze/usage", members[0]!)).body.data
    expect(usage).toMatchObject({ used: 12, limit: 12, plan: "free", pool: { organizationId: organization.id, name: "Hooli", limit: 12, used: 12 } })
    const view = (await call("GET", "/api/organizations/current", owner)).body.data as Organization
    expect(view.pool).toEqual({ limit: 12, used: 12 })
    expect(view.members.reduce((total, member) => total + member.usedThisMonth, 0)).toBe(12)

    // A site admin raises the pool's limit: the next request passes, and the change is audited.
    const admin = await person()
    await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
    expect((await call("PUT", `/api/admin/organizations/${organization.id}/request-limit`, owner, { limit: 13 })).status).toBe(403)
    const raised = await call("PUT", `/api/admin/organizations/${organization.id}/request-limit`, admin, { limit: 13 })
    expect(raised.body.data).toMatchObject({ id: organization.id, name: "Hooli", subscriber: { id: owner.id, email: owner.email }, pool: { limit: 13, used: 12 } })
    expect(raised.body.data.members).toHaveLength(20)
    expect((await translate(members[1]!)).status).toBe(200)
    expect((await translate(members[2]!)).body.error.code).toBe("QUOTA_EXCEEDED")
    const limitSet = await subject.database.db.selectFrom("audit_events").select(["actor_id", "detail"]).where("kind", "=", "organization.limit_set").where("actor_id", "=", admin.id).executeTakeFirst()
    expect(limitSet?.detail).toMatchObject({ organizationId: organization.id, from: 12, to: 13 })

    // Removed: the next request is the member's own (Free: its monthly quota), at once.
    const removed = members[0]!
    expect((await call("DELETE", `/api/organizations/current/members/${removed.id}`, owner)).status).toBe(200)
    const own = (await call("GET", "/api/analyze/usage", removed)).body.data
    expect(own.pool).toBeNull()
    // Their own Free quota is as they left it: the pool's requests were never counted on it.
    expect(own).toMatchObject({ plan: "free", used: 0, limit: 10 })
    expect((await translate(removed)).status).toBe(200)
  })

  it("takes a logo checked by its bytes, squares it and serves it to anyone", async () => {
    const owner = await person("enterprise")
    await organizationWith(owner, "Stark")
    const member = await person()
    await join(owner, member)
    const upload = async (who: Person, bytes: Buffer, type: string) => {
      const form = new FormData()
      form.append("logo", new Blob([new Uint8Array(bytes)], { type }), "logo")
      const request = new Request("http://localhost/", { method: "PUT", body: form })
      const response = await subject.app.inject({
        method: "PUT",
        url: "/api/organizations/current/logo",
        headers: { authorization: `Bearer ${who.token}`, "content-type": request.headers.get("content-type")! },
        payload: Buffer.from(await request.arrayBuffer())
      })
      return { status: response.statusCode, body: response.json() }
    }
    const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c02040" } }).jpeg().toBuffer()
    expect((await upload(member, picture, "image/jpeg")).status).toBe(403)
    expect((await upload(owner, Buffer.from("not a picture"), "image/png")).body.error.code).toBe("INVALID_IMAGE")
    expect((await upload(owner, Buffer.concat([picture, Buffer.alloc(300 * 1024)]), "image/jpeg")).status).toBe(413)
    const uploaded = await upload(owner, picture, "image/jpeg")
    expect(uploaded.status).toBe(200)
    const logoUrl = (uploaded.body.data as Organization).brand.logoUrl!
    const served = await subject.app.inject({ method: "GET", url: new URL(logoUrl).pathname })
    expect([served.statusCode, served.headers["content-type"]]).toEqual([200, "image/png"])
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: "png", width: 256, height: 256 })
    // The member sees the same brand.
    expect(((await call("GET", "/api/organizations/current", member)).body.data as Organization).brand.logoUrl).toBe(logoUrl)
  })
})
