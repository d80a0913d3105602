/**
 * Each event from its real cause, received by the subscribed endpoints only and verified with standardwebhooks: an
 * API key made and revoked, a member joining and removed, a subscription changed (test mode), and the month's AI
 * requests crossing 80 % and 100 %, once each under a burst of 20, for a person and for an organisation's pool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { completion, PNG_DATA_URL, sendJson, startStandIn, startTestApp, type TestApp } from "../test-kit"
import { organizationTestKit } from "../organizations/organization-test-kit"
import { SHORT_TIMINGS, startReceiver, verified, webhookCalls, type Receiver } from "./webhook-test-kit"

let subject: TestApp
let receiver: Receiver
let provider: Awaited<ReturnType<typeof startStandIn>>

beforeAll(async () => {
  receiver = await startReceiver()
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("A square.")))
  const env = { WEBHOOKS_ALLOW_LOOPBACK: "true", OPENAI_API_KEY: "sk-test-secret-key-0123456789", OPENAI_BASE_URL: `${provider.url}/v1`, VQA_MODEL: "house-vision-1" }
  subject = await startTestApp(env, { webhookTimings: SHORT_TIMINGS, visionModel: { providerTimeoutMs: 15_000, maxModelCallsInFlight: 100 } })
})
afterAll(async () => {
  await subject?.close()
  await receiver?.close()
  await provider?.close()
})

const { person, organizationWith, join, call: orgCall } = organizationTestKit(() => subject)
const { call, addHook, until } = webhookCalls(() => subject)

/** The events the receiver got for `secret`'s endpoint, verified with it; waits until there are `count`. */
async function eventsOf(secret: string, count: number) {
  const mine = () => receiver.delivered().filter((entry) => {
    try {
      verified(secret, entry)
      return true
    } catch {
      return false
    }
  })
  await until(() => mine().length, (length) => length >= count, `${count} events`)
  await subject.app.webhooks.idle()
  return mine().map((entry) => entry.event)
}

const ask = (token: string) => subject.app.inject({ method: "POST", url: "/api/analyze/ask", headers: { authorization: `Bearer ${token}` }, payload: { image: { dataUrl: PNG_DATA_URL }, question: "What is it?" } })

describe("events from their causes", () => {
  it("api_key.created and api_key.revoked reach the person's endpoint that subscribed, not another", async () => {
    const pro = await person("pro")
    const hook = await addHook(pro, receiver.url, ["api_key.created", "api_key.revoked"])
    const deaf = await addHook(pro, receiver.url, ["member.joined"])
    const created = await call("POST", "/api/keys", pro, { name: "nightly script" })
    expect(created.status).toBe(201)
    const keyId = created.body.data.id as string
    expect((await call("DELETE", `/api/keys/${keyId}`, pro)).status).toBe(200)
    const events = await eventsOf(hook.secret, 2)
    expect(events.map((event) => event.type)).toEqual(["api_key.created", "api_key.revoked"])
    expect(events[0]!.data).toMatchObject({ userId: pro.id, keyId, name: "nightly script" })
    expect(Date.parse(events[0]!.timestamp)).not.toBeNaN()
    expect(await eventsOf(deaf.secret, 0)).toEqual([])
  })

  it("member.joined and member.removed reach the organisation's endpoint", async () => {
    const owner = await person("enterprise")
    const organization = await organizationWith(owner, "Eventful")
    const hook = await addHook(owner, receiver.url, ["member.joined", "member.removed"])
    const newcomer = await person()
    await join(owner, newcomer, "member")
    expect((await orgCall("DELETE", `/api/organizations/current/members/${newcomer.id}`, owner)).status).toBe(200)
    const events = await eventsOf(hook.secret, 2)
    expect(events).toMatchObject([
      { type: "member.joined", data: { organizationId: organization.id, userId: newcomer.id, email: newcomer.email, role: "member" } },
      { type: "member.removed", data: { organizationId: organization.id, userId: newcomer.id, role: "member", reason: "removed" } }
    ])
  })

  it("subscription.updated is sent when the subscription record changes (a cancellation in test mode)", async () => {
    const buyer = await person("free")
    const card = { planId: "pro", annual: false, cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: "Ada", email: buyer.email, billingAddress: "1 Main Street", country: "US" }
    expect((await call("POST", "/api/billing/test-payment", buyer, card)).status).toBe(201)
    const hook = await addHook(buyer, receiver.url, ["subscription.updated"])
    expect((await call("POST", "/api/billing/cancel", buyer)).status).toBe(200)
    const [event] = await eventsOf(hook.secret, 1)
    expect(event).toMatchObject({ type: "subscription.updated", data: { userId: buyer.id, previousPlan: "pro", plan: "pro", status: "active", cancelAtPeriodEnd: true } })
  })
})

describe("usage.threshold", () => {
  it("is sent at 80 % and 100 % of a person's month, once each, when 20 requests arrive at once", async () => {
    // Enterprise without an organisation: the limit an admin set (Pro is unlimited).
    const pro = await person("enterprise")
    await subject.database.db.updateTable("users").set({ request_limit: 10 }).where("id", "=", pro.id).execute()
    const hook = await addHook(pro, receiver.url, ["usage.threshold"])
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(pro.token)))
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(10)
    // More requests after the limit announce nothing more.
    expect((await ask(pro.token)).statusCode).toBe(429)
    const events = await eventsOf(hook.secret, 2)
    expect(events.map((event) => event.data).sort((a, b) => Number(a.threshold) - Number(b.threshold))).toEqual([
      { scope: "user", userId: pro.id, threshold: 80, used: 8, limit: 10, month: new Date().toISOString().slice(0, 7) },
      { scope: "user", userId: pro.id, threshold: 100, used: 10, limit: 10, month: new Date().toISOString().slice(0, 7) }
    ])
  })

  it("is not sent once the owner's plan no longer comes with webhooks", async () => {
    const lapsed = await person("enterprise")
    const hook = await addHook(lapsed, receiver.url, ["usage.threshold"])
    // The subscription ended: Free, whose month is 10 requests too.
    await subject.database.db.updateTable("users").set({ subscription_status: "canceled" }).where("id", "=", lapsed.id).execute()
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask(lapsed.token)))
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(10)
    const queued = await subject.database.db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", hook.id).execute()
    expect(queued).toEqual([])
  })

  it("is sent for an organisation's pool to the organisation's endpoint, once each, whoever of its members asks", async () => {
    const owner = await person("enterprise")
    const organization = await organizationWith(owner, "Poolside")
    const member = await person()
    await join(owner, member, "member")
    await subject.database.db.updateTable("organizations").set({ request_limit: 5 }).where("id", "=", organization.id).execute()
    const hook = await addHook(owner, receiver.url, ["usage.threshold"])
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => ask(index % 2 ? owner.token : member.token)))
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5)
    const events = await eventsOf(hook.secret, 2)
    expect(events.map((event) => [event.type, event.data.scope, event.data.organizationId, event.data.threshold, event.data.used]).sort()).toEqual([
      ["usage.threshold", "organization", organization.id, 100, 5],
      ["usage.threshold", "organization", organization.id, 80, 4]
    ])
  })
})
