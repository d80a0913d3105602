/**
 * The person who pays: an organisation's pool draws on its subscriber's Enterprise subscription, whoever owns it. So
 * while it does, the subscriber can be neither removed nor demoted to member, nor leave, and the refusal says why;
 * once the subscription no longer funds the pool, they can. A subscriber whose subscription still pays for another
 * organisation is told so when creating one, not that they belong to one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { Organization } from "~core/organizations"

import { startTestApp, type TestApp } from "../test-kit"
import { organizationTestKit, type Person } from "./organization-test-kit"

let subject: TestApp
beforeAll(async () => {
  subject = await startTestApp({}, { clock: Date.now })
})
afterAll(async () => subject?.close())

const { person, call, organizationWith, join } = organizationTestKit(() => subject)

const memberRoles = async (who: Person) => ((await call("GET", "/api/organizations/current", who)).body.data as Organization).members.map((member) => [member.userId, member.role])
const setPlan = (who: Person, plan: "free" | "enterprise") => subject.database.db.updateTable("users").set({ plan_id: plan }).where("id", "=", who.id).execute()

/** Acme, made by `payer`, who then passed the ownership to `owner` and is an admin; `member` is a member. */
async function acmeAfterTransfer() {
  const payer = await person("enterprise")
  await subject.database.db.updateTable("users").set({ name: "Ada Lovelace" }).where("id", "=", payer.id).execute()
  const organization = await organizationWith(payer, "Acme")
  const [owner, member] = [await person(), await person()]
  await join(payer, owner, "admin")
  await join(payer, member)
  expect((await call("POST", "/api/organizations/current/transfer", payer, { userId: owner.id })).body.data.role).toBe("admin")
  return { organization, payer, owner, member }
}

describe("the subscriber who funds the pool", () => {
  it("can be neither removed, demoted nor leave while their subscription funds it; the refusal says who pays", async () => {
    const { organization, payer, owner, member } = await acmeAfterTransfer()
    const before = await memberRoles(owner)

    const removed = await call("DELETE", `/api/organizations/current/members/${payer.id}`, owner)
    expect([removed.status, removed.body.error.code]).toEqual([409, "SUBSCRIBER_FUNDS_POOL"])
    expect(removed.body.error.message).toMatch(/^Ada Lovelace pays for this organisation's Enterprise plan: they cannot be removed while it funds the pool\./)
    const demoted = await call("PATCH", `/api/organizations/current/members/${payer.id}`, owner, { role: "member" })
    expect([demoted.status, demoted.body.error.code]).toEqual([409, "SUBSCRIBER_FUNDS_POOL"])
    expect(demoted.body.error.message).toMatch(/^Ada Lovelace pays for this organisation's Enterprise plan: they stay an admin while it funds the pool\./)
    const left = await call("DELETE", `/api/organizations/current/members/${payer.id}`, payer)
    expect([left.status, left.body.error.code]).toEqual([409, "SUBSCRIBER_FUNDS_POOL"])
    expect(left.body.error.message).toMatch(/^You pay for this organisation's Enterprise plan: you cannot leave while it funds the pool\./)

    // Nothing changed: the payer still sees the organisation and draws on its pool; others are removed as ever.
    expect(await memberRoles(owner)).toEqual(before)
    expect((await call("GET", "/api/organizations/current", payer)).status).toBe(200)
    expect((await call("PATCH", `/api/organizations/current/members/${payer.id}`, owner, { role: "admin" })).status).toBe(200)
    expect((await call("DELETE", `/api/organizations/current/members/${member.id}`, owner)).status).toBe(200)
    // The site's transfer dialog names who pays from this.
    expect(organization.subscriberId).toBe(payer.id)
  })

  it("can be removed once their subscription no longer funds the pool", async () => {
    const { payer, owner } = await acmeAfterTransfer()
    await setPlan(payer, "free")
    expect((await call("PATCH", `/api/organizations/current/members/${payer.id}`, owner, { role: "member" })).status).toBe(200)
    expect((await call("DELETE", `/api/organizations/current/members/${payer.id}`, owner)).status).toBe(200)
    expect((await call("GET", "/api/organizations/current", payer)).status).toBe(404)

    // Back on Enterprise, their subscription pays for Acme again: they are told that, not that they belong to one.
    await setPlan(payer, "enterprise")
    const created = await call("POST", "/api/organizations", payer, { name: "Payer's own" })
    expect([created.status, created.body.error.code]).toEqual([409, "SUBSCRIBER_FUNDS_POOL"])
    expect(created.body.error.message).toMatch(/^Your Enterprise subscription pays for Acme, though you are no longer one of its members\./)
    // Invited back, they may rejoin it.
    await setPlan(payer, "free")
    await join(owner, payer)
    expect((await memberRoles(owner)).find(([userId]) => userId === payer.id)).toEqual([payer.id, "member"])
  })
})
