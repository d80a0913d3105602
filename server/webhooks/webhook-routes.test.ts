/**
 * /api/webhooks: a Pro person's own endpoints and an Enterprise organisation's (its owner and admins), the secret shown
 * once and kept sealed, the plan and role refusals, another account's endpoint 404, the SSRF guard on the URL, the cap
 * under a burst, the audit log, and a test event received signed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MAX_WEBHOOK_ENDPOINTS } from "~core/webhooks"

import { signedInUser, startTestApp, type TestApp } from "../test-kit"
import { organizationTestKit } from "../organizations/organization-test-kit"
import { SHORT_TIMINGS, startReceiver, verified, webhookCalls, type Receiver } from "./webhook-test-kit"

let subject: TestApp
let receiver: Receiver

beforeAll(async () => {
  receiver = await startReceiver()
  subject = await startTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }, { webhookTimings: SHORT_TIMINGS })
})
afterAll(async () => {
  await subject?.close()
  await receiver?.close()
})

const { person, organizationWith, join } = organizationTestKit(() => subject)
const { call, addHook, deliveries, until } = webhookCalls(() => subject)

describe("a Pro person's webhooks", () => {
  it("adds one with its secret shown once and sealed, lists it without the secret, and removes it, each change audited", async () => {
    const pro = await person("pro")
    const created = await addHook(pro, receiver.url, ["api_key.created", "api_key.revoked"])
    expect(created).toMatchObject({ url: receiver.url, events: ["api_key.created", "api_key.revoked"], owner: "user" })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32)

    const stored = await subject.database.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow()
    expect(stored.secret_sealed).not.toContain(created.secret.slice(6))
    expect(stored.user_id).toBe(pro.id)

    const listed = await call("GET", "/api/webhooks", pro)
    expect(listed.status).toBe(200)
    expect(listed.body.data).toEqual([{ id: created.id, url: receiver.url, events: created.events, owner: "user", createdAt: created.createdAt }])
    expect(JSON.stringify(listed.body)).not.toContain("whsec_")

    expect((await call("DELETE", `/api/webhooks/${created.id}`, pro)).body).toEqual({ success: true, data: { deleted: true } })
    expect((await call("GET", "/api/webhooks", pro)).body.data).toEqual([])
    expect((await call("DELETE", `/api/webhooks/${created.id}`, pro)).status).toBe(404)

    const audited = await subject.database.db.selectFrom("audit_events").select(["kind", "target"]).where("actor_id", "=", pro.id).orderBy("id").execute()
    expect(audited).toEqual([
      { kind: "webhook.created", target: receiver.url },
      { kind: "webhook.deleted", target: receiver.url }
    ])
  })

  it("sends a test event, signed, shown in the deliveries as delivered with the receiver's status code", async () => {
    const pro = await person("pro")
    const hook = await addHook(pro, receiver.url, ["usage.threshold"])
    const queued = await call("POST", `/api/webhooks/${hook.id}/test`, pro)
    expect(queued.status).toBe(201)
    const deliveryId = queued.body.data.deliveryId as string
    expect(deliveryId).toMatch(/^msg_/)
    const [delivery] = await until(() => deliveries(pro, hook.id), (rows) => rows[0]?.status === "delivered", "the test delivery")
    expect(delivery).toMatchObject({ id: deliveryId, event: "webhook.test", status: "delivered", attempts: 1, lastStatusCode: 200, nextAttemptAt: null })
    const entry = receiver.received.find((received) => received.id === deliveryId)!
    expect(verified(hook.secret, entry)).toMatchObject({ type: "webhook.test", data: { endpointId: hook.id } })
    // Another endpoint's secret does not verify it.
    const other = await addHook(pro, receiver.url, ["usage.threshold"])
    expect(() => verified(other.secret, entry)).toThrow()
  })

  it("refuses Free 403 PLAN_REQUIRED in words, and answers 404 for another account's endpoint", async () => {
    const free = await person("free")
    const refused = await call("POST", "/api/webhooks", free, { url: receiver.url, events: ["api_key.created"] })
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe("PLAN_REQUIRED")
    expect(refused.body.error.message).toMatch(/Pro plan/)
    expect((await call("GET", "/api/webhooks", free)).status).toBe(403)

    const owner = await person("pro")
    const stranger = await person("pro")
    const hook = await addHook(owner, receiver.url, ["api_key.created"])
    for (const [method, path] of [["DELETE", ""], ["POST", "/test"], ["GET", "/deliveries"]] as const) {
      expect((await call(method, `/api/webhooks/${hook.id}${path}`, stranger)).status).toBe(404)
    }
    expect((await call("GET", "/api/webhooks/not-an-id/deliveries", stranger)).status).toBe(404)
    expect((await call("GET", "/api/webhooks", owner)).body.data).toHaveLength(1)
  })

  it("refuses a URL that is not https, not public, or names no host: 400 URL_NOT_ALLOWED with the reason", async () => {
    const pro = await person("pro")
    // Without WEBHOOKS_ALLOW_LOOPBACK, as in production (its own token secret: a session of its own).
    const production = await startTestApp({}, { database: subject.database })
    const there = await signedInUser(production.app, "pro")
    try {
      const post = async (url: string) => {
        const answer = await production.app.inject({ method: "POST", url: "/api/webhooks", headers: { authorization: `Bearer ${there.token}` }, payload: { url, events: ["api_key.created"] } })
        return { status: answer.statusCode, ...(answer.json().error as { code: string; message: string }) }
      }
      expect(await post("http://hooks.example.com/in")).toMatchObject({ status: 400, code: "URL_NOT_ALLOWED", message: "Only https:// webhook URLs are allowed." })
      for (const url of ["https://127.0.0.1/hook", "https://10.0.0.7/hook", "https://[::1]/hook", "https://169.254.169.254/latest", "https://localhost/hook"]) {
        expect(await post(url), url).toMatchObject({ status: 400, code: "URL_NOT_ALLOWED", message: "The webhook URL points to a private, local or reserved network address." })
      }
      expect(await post("https://user:pass@example.com/hook")).toMatchObject({ status: 400, code: "URL_NOT_ALLOWED" })
      expect(await post("not a url")).toMatchObject({ status: 400, code: "URL_NOT_ALLOWED" })
      expect(await post("https://no-such-host.invalid/hook")).toMatchObject({ status: 400, code: "URL_NOT_ALLOWED", message: "The webhook URL's host could not be found." })
    } finally {
      await production.app.close()
    }
    expect((await call("POST", "/api/webhooks", pro, { url: receiver.url, events: [] })).status).toBe(400)
    expect((await call("POST", "/api/webhooks", pro, { url: receiver.url, events: ["nothing.happened"] })).status).toBe(400)
    expect((await call("GET", "/api/webhooks", pro)).body.data).toEqual([])
  })

  it(`holds ${MAX_WEBHOOK_ENDPOINTS} endpoints at most, under 20 requests at once`, async () => {
    const pro = await person("pro")
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/webhooks", pro, { url: receiver.url, events: ["api_key.created"] })))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS)
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.code)).toEqual(Array(20 - MAX_WEBHOOK_ENDPOINTS).fill("WEBHOOK_LIMIT_REACHED"))
    expect((await call("GET", "/api/webhooks", pro)).body.data).toHaveLength(MAX_WEBHOOK_ENDPOINTS)
  })
})

describe("an organisation's webhooks", () => {
  it("are managed by the owner and admins of an Enterprise organisation, refused to a member and to a Free organisation", async () => {
    const owner = await person("enterprise")
    const organization = await organizationWith(owner, "Hookworks")
    const admin = await person()
    const member = await person()
    await join(owner, admin, "admin")
    await join(owner, member, "member")

    const hook = await addHook(admin, receiver.url, ["member.joined"])
    expect(hook.owner).toBe("organization")
    expect((await call("GET", "/api/webhooks", owner)).body.data.map((row: { id: string }) => row.id)).toEqual([hook.id])
    const refused = await call("POST", "/api/webhooks", member, { url: receiver.url, events: ["member.joined"] })
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe("FORBIDDEN")
    expect((await call("GET", "/api/webhooks", member)).status).toBe(403)
    expect((await call("DELETE", `/api/webhooks/${hook.id}`, member)).status).toBe(403)

    const audited = await subject.database.db.selectFrom("audit_events").select("kind").where("kind", "like", "webhook.%").where("actor_id", "=", admin.id).execute()
    expect(audited.map((row) => row.kind)).toEqual(["webhook.created"])
    const detail = await subject.database.db.selectFrom("audit_events").select("detail").where("actor_id", "=", admin.id).where("kind", "=", "webhook.created").executeTakeFirstOrThrow()
    expect(detail.detail).toMatchObject({ organizationId: organization.id, endpointId: hook.id })

    // The subscriber's plan ends: the organisation is no longer Enterprise.
    await subject.database.db.updateTable("users").set({ plan_id: "free" }).where("id", "=", owner.id).execute()
    expect((await call("GET", "/api/webhooks", owner)).body.error.code).toBe("PLAN_REQUIRED")
  })
})
