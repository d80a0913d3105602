/**
 * What the organisation API tests share: people on a plan (signed in), calls as one of them, the code of the
 * invitation e-mailed to an address, an organisation made by its subscriber and a member joined by invitation.
 * Test-only: imported by the *.test.ts files of this folder.
 */
import { expect } from "vitest"

import type { Organization } from "~core/organizations"

import { signIn } from "../auth/account-service"
import { readOutbox, signedInUser, type TestApp } from "../test-kit"

export type Person = { id: string; token: string; email: string }
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/** The kit on the file's app, read when a helper runs (the app starts in the file's beforeAll). */
export function organizationTestKit(subject: () => TestApp) {
  const db = () => subject().database.db

  async function person(plan: "free" | "pro" | "enterprise" = "free"): Promise<Person> {
    const user = await signedInUser(subject().app, plan)
    const { email } = await db().selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow()
    return { ...user, email }
  }

  /** A new session for `who`: after the app's clock has moved past their access token's hour. */
  async function signInAgain(who: Person): Promise<Person> {
    const row = await db().selectFrom("users").selectAll().where("id", "=", who.id).executeTakeFirstOrThrow()
    return { ...who, token: (await signIn(subject().app, row)).token }
  }

  async function call(method: Method, url: string, who: Person, body?: unknown) {
    const response = await subject().app.inject({ method, url, headers: { authorization: `Bearer ${who.token}` }, ...(body === undefined ? {} : { payload: body as object }) })
    return { status: response.statusCode, body: response.json() }
  }

  /** The code of the newest invitation e-mailed to `email`, once the outbox has sent it. */
  async function invitationCode(email: string): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const mail = (await readOutbox(subject().dataDir)).filter((message) => message.to.includes(email)).pop()
      const code = mail?.link && new URL(mail.link).searchParams.get("code")
      if (code) return code
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no invitation reached ${email}`)
  }

  async function organizationWith(owner: Person, name = "Acme") {
    const created = await call("POST", "/api/organizations", owner, { name })
    expect(created.status).toBe(201)
    return created.body.data as Organization
  }

  async function join(owner: Person, invitee: Person, role: "admin" | "member" = "member") {
    expect((await call("POST", "/api/organizations/current/invitations", owner, { email: invitee.email, role })).status).toBe(201)
    const accepted = await call("POST", "/api/organizations/invitations/accept", invitee, { code: await invitationCode(invitee.email) })
    expect(accepted.status).toBe(200)
    return accepted.body.data as Organization
  }

  /** The kinds of the organisation's audited events whose kind is like `pattern` ("organization.domain_%"), oldest first. */
  async function auditedKinds(organizationId: string, pattern: string): Promise<string[]> {
    const events = await db()
      .selectFrom("audit_events")
      .select("kind")
      .where((eb) => eb(eb.ref("detail", "->>").key("organizationId" as never), "=", organizationId))
      .where("kind", "like", pattern)
      .orderBy("id")
      .execute()
    return events.map((event) => event.kind)
  }

  return { person, signInAgain, call, invitationCode, organizationWith, join, auditedKinds }
}
