import type { ServerResponse } from "node:http"

import type { FastifyInstance } from "fastify"
import Stripe from "stripe"
import { afterEach, describe, expect, it } from "vitest"

import { TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS } from "~core/billing"

import { signIn } from "../auth/account-service"
import { signedInUser, startStandIn, type RecordedRequest } from "../analyze/test-support"
import { readOutbox, startTestApp, type TestApp } from "../test-support"

const DAY_MS = 86_400_000
const START = Date.UTC(2026, 10, 23, 12, 0, 0)

let subject: TestApp | null = null
let now = START
const clock = () => now

afterEach(async () => {
  await subject?.close()
  subject = null
  now = START
})

async function start(env: Record<string, string> = {}) {
  subject = await startTestApp(env, { clock })
  return subject.app
}

const call = (app: FastifyInstance, method: "GET" | "POST", url: string, token?: string, payload?: unknown) =>
  app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) })

const card = (cardNumber: string, extra: Record<string, unknown> = {}) => ({
  planId: "pro",
  annual: false,
  email: "grace@example.com",
  cardNumber,
  expiryMonth: "12",
  expiryYear: "2030",
  cvc: "123",
  cardholderName: "Grace Hopper",
  billingAddress: "1 Navy Way",
  country: "US",
  ...extra
})

/** A fresh access token: the test clock moves weeks on, past any token's life. */
async function tokenNow(app: FastifyInstance, token: string): Promise<string> {
  const id = tokenUsers.get(token)
  if (!id) return token
  const user = await app.database.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow()
  const fresh = (await signIn(app, user)).token
  tokenUsers.set(fresh, id)
  return fresh
}
const tokenUsers = new Map<string, string>()
async function newUser(app: FastifyInstance) {
  const user = await signedInUser(app)
  tokenUsers.set(user.token, user.id)
  return user
}

const usage = async (app: FastifyInstance, token: string) => (await call(app, "GET", "/api/analyze/usage", await tokenNow(app, token))).json().data
const subscription = async (app: FastifyInstance, token: string) => (await call(app, "GET", "/api/billing/subscription", await tokenNow(app, token))).json().data

describe("test mode", () => {
  it("a test payment with 4242 makes the account Pro at once: the record, the user, the quota and an e-mail", async () => {
    const app = await start()
    const user = await newUser(app)
    expect((await usage(app, user.token)).limit).toBe(10)
    const paid = await call(app, "POST", "/api/billing/test-payment", user.token, card("4242 4242 4242 4242"))
    expect(paid.statusCode).toBe(201)
    expect(paid.json().data.subscription).toMatchObject({ plan: "pro", status: "active", interval: "month", cancelAtPeriodEnd: false, mode: "test", currentPeriodEnd: "2026-12-23T12:00:00.000Z" })
    expect((await usage(app, user.token)).limit).toBeNull()
    const profile = (await call(app, "GET", "/api/auth/profile", user.token)).json().data.user
    expect(profile.subscription).toEqual({ plan: { id: "pro", name: "Pro" }, status: "active" })
    await app.mailQueue.idle()
    expect((await readOutbox(subject!.dataDir)).map((mail) => mail.subject)).toContain("Your Image Query AI Pro subscription is active")
  })

  it("declines 4000 0000 0000 0002 with Stripe's message, refuses other cards and bad fields, and stores nothing", async () => {
    const app = await start()
    const user = await newUser(app)
    const declined = await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_DECLINED))
    expect(declined.statusCode).toBe(402)
    expect(declined.json().error).toMatchObject({ code: "CARD_DECLINED", message: "Your card was declined." })
    const real = await call(app, "POST", "/api/billing/test-payment", user.token, card("5555555555554444"))
    expect(real.json().error.code).toBe("TEST_CARD_REQUIRED")
    const bad = await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS, { cvc: "1", country: "FR", expiryYear: "2020" }))
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.details).toEqual(expect.arrayContaining(["cvc: The security code is 3 or 4 digits.", "country: Choose a country."]))
    for (const payload of [card(TEST_CARD_SUCCEEDS, { planId: "free" }), card(TEST_CARD_SUCCEEDS, { annual: "yes" }), { planId: "pro" }, [], card(TEST_CARD_SUCCEEDS, { cardNumber: "4".repeat(5000) })]) {
      const refused = await call(app, "POST", "/api/billing/test-payment", user.token, payload)
      expect(refused.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400)
      expect(refused.json().success).toBe(false)
    }
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "active", trialAvailable: true })
    expect(await app.database.db.selectFrom("subscriptions").selectAll().execute()).toEqual([])
  })

  it("20 payments at once make one subscription; the others are told it exists", async () => {
    const app = await start()
    const user = await newUser(app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1)
    expect(answers.filter((answer) => answer.json().error?.code === "ALREADY_SUBSCRIBED")).toHaveLength(19)
    await app.mailQueue.idle()
    expect((await readOutbox(subject!.dataDir)).filter((mail) => mail.subject.includes("subscription is active"))).toHaveLength(1)
  })

  it("a payment during the trial turns it into the paid plan, and the trial stays used", async () => {
    const app = await start()
    const user = await newUser(app)
    expect((await call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })).statusCode).toBe(201)
    expect((await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))).statusCode).toBe(201)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", interval: "month", trialEnd: null, trialAvailable: false })
  })

  it("20 trial starts at once start one trial; the others are told it is used", async () => {
    const app = await start()
    const user = await newUser(app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1)
    expect(answers.filter((answer) => answer.json().error?.code === "TRIAL_ALREADY_USED")).toHaveLength(19)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "trialing" })
  })

  it("the payment calls' per-IP limit holds under a burst: 25 payments at once from one address, 20 taken", async () => {
    const app = await start()
    const users = await Promise.all(Array.from({ length: 25 }, () => newUser(app)))
    const answers = await Promise.all(users.map((user) => call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(20)
    expect(answers.filter((answer) => answer.statusCode === 429).map((answer) => answer.json().error.code)).toEqual(Array(5).fill("RATE_LIMIT_EXCEEDED"))
    expect(await app.database.db.selectFrom("subscriptions").select("user_id").execute()).toHaveLength(20)
  })

  it("cancel keeps Pro to the period's end, then Free; resume before the end keeps it going", async () => {
    const app = await start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))
    const canceled = (await call(app, "POST", "/api/billing/cancel", user.token)).json().data.subscription
    expect(canceled).toMatchObject({ plan: "pro", cancelAtPeriodEnd: true, currentPeriodEnd: "2026-12-23T12:00:00.000Z" })
    expect((await call(app, "POST", "/api/billing/resume", user.token)).json().data.subscription.cancelAtPeriodEnd).toBe(false)
    await call(app, "POST", "/api/billing/cancel", user.token)
    now = START + 29 * DAY_MS
    expect((await usage(app, user.token)).limit).toBeNull()
    now = START + 31 * DAY_MS
    expect((await usage(app, user.token)).limit).toBe(10)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await call(app, "POST", "/api/billing/resume", await tokenNow(app, user.token))).json().error.code).toBe("NO_SUBSCRIPTION")
    await app.mailQueue.idle()
    expect((await readOutbox(subject!.dataDir)).map((mail) => mail.subject)).toContain("Your Image Query AI Pro subscription is cancelled")
  })

  it("a test-mode subscription renews by itself at the period's end", async () => {
    const app = await start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))
    now = START + 65 * DAY_MS
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", currentPeriodEnd: "2027-02-23T12:00:00.000Z" })
  })

  it("an upgrade applies at once; a downgrade waits for the period's end", async () => {
    const app = await start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))
    const up = (await call(app, "POST", "/api/billing/change", user.token, { planId: "enterprise", annual: false })).json().data.subscription
    expect(up).toMatchObject({ plan: "enterprise", scheduledPlan: null })
    const down = (await call(app, "POST", "/api/billing/change", user.token, { planId: "pro", annual: false })).json().data.subscription
    expect(down).toMatchObject({ plan: "enterprise", scheduledPlan: "pro" })
    now = START + 32 * DAY_MS
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", scheduledPlan: null })
  })

  it("the 14-day trial: once per account, Pro while it runs, Free after", async () => {
    const app = await start()
    const user = await newUser(app)
    const trial = await call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })
    expect(trial.statusCode).toBe(201)
    expect(trial.json().data.subscription).toMatchObject({ plan: "pro", status: "trialing", trialEnd: "2026-12-07T12:00:00.000Z", trialAvailable: false })
    expect((await usage(app, user.token)).limit).toBeNull()
    now = START + 15 * DAY_MS
    expect((await usage(app, user.token)).limit).toBe(10)
    const again = await call(app, "POST", "/api/billing/trial", await tokenNow(app, user.token), { planId: "pro" })
    expect(again.json().error.code).toBe("TRIAL_ALREADY_USED")
    expect((await call(app, "POST", "/api/billing/trial", await tokenNow(app, user.token), { planId: "enterprise" })).statusCode).toBe(400)
  })

  it("the admin overview counts subscribers per plan and the monthly recurring revenue from the records", async () => {
    const app = await start()
    const [alice, bob, carol, admin] = [await newUser(app), await newUser(app), await newUser(app), await newUser(app)]
    await call(app, "POST", "/api/billing/test-payment", alice.token, card(TEST_CARD_SUCCEEDS))
    await call(app, "POST", "/api/billing/test-payment", bob.token, card(TEST_CARD_SUCCEEDS, { planId: "enterprise", annual: true }))
    await call(app, "POST", "/api/billing/trial", carol.token, { planId: "pro" })
    await app.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
    expect((await call(app, "GET", "/api/admin/overview", alice.token)).statusCode).toBe(403)
    const overview = (await call(app, "GET", "/api/admin/overview", admin.token)).json().data
    expect(overview.billing).toEqual({ subscribers: { pro: 1, enterprise: 1 }, trialing: 1, pastDue: 0, monthlyRecurringRevenue: 19 + 990 / 12 })
  })

  it("authorisation: every billing route but config refuses anonymous callers, and one user's calls change only their own record", async () => {
    const app = await start()
    const [alice, bob] = [await newUser(app), await newUser(app)]
    for (const [method, url] of [
      ["GET", "/api/billing/subscription"],
      ["POST", "/api/billing/test-payment"],
      ["POST", "/api/billing/checkout"],
      ["POST", "/api/billing/portal"],
      ["POST", "/api/billing/change"],
      ["POST", "/api/billing/cancel"],
      ["POST", "/api/billing/resume"],
      ["POST", "/api/billing/trial"]
    ] as const) {
      expect((await call(app, method, url, undefined, method === "POST" ? {} : undefined)).statusCode, url).toBe(401)
      expect((await call(app, method, url, "not-a-token", method === "POST" ? {} : undefined)).statusCode, url).toBe(401)
    }
    expect((await call(app, "GET", "/api/billing/config")).json().data).toEqual({ mode: "test", trialDays: 14 })
    await call(app, "POST", "/api/billing/test-payment", alice.token, card(TEST_CARD_SUCCEEDS))
    expect((await call(app, "POST", "/api/billing/cancel", bob.token)).json().error.code).toBe("NO_SUBSCRIPTION")
    expect(await subscription(app, alice.token)).toMatchObject({ plan: "pro", cancelAtPeriodEnd: false })
    expect(await subscription(app, bob.token)).toMatchObject({ plan: "free" })
    // Stripe's routes answer in words in test mode; the webhook too.
    expect((await call(app, "POST", "/api/billing/checkout", alice.token, { planId: "pro", annual: false })).json().error.code).toBe("WRONG_BILLING_MODE")
    expect((await app.inject({ method: "POST", url: "/api/billing/webhook", headers: { "content-type": "application/json" }, payload: "{}" })).json().error.code).toBe("WRONG_BILLING_MODE")
  })
})

const WEBHOOK_SECRET = "whsec_test_secret"
const PRICES = { STRIPE_PRICE_PRO_MONTH: "price_pro_m", STRIPE_PRICE_PRO_YEAR: "price_pro_y", STRIPE_PRICE_ENTERPRISE_MONTH: "price_ent_m", STRIPE_PRICE_ENTERPRISE_YEAR: "price_ent_y" }

/** A Stripe subscription object as the API (2026-10-28) has it: the period on its item. */
function stripeSubscription(id: string, customer: string, price: string, fields: Partial<{ status: string; periodEnd: number; cancelAtPeriodEnd: boolean; userId: string }> = {}) {
  return {
    id,
    object: "subscription",
    customer,
    status: fields.status ?? "active",
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    trial_end: null,
    metadata: fields.userId ? { userId: fields.userId } : {},
    items: { object: "list", data: [{ id: `si_${id}`, object: "subscription_item", price: { id: price, object: "price" }, current_period_end: fields.periodEnd ?? Math.floor((START + 30 * DAY_MS) / 1000) }] }
  }
}

describe("Stripe mode, against a stand-in of the Stripe API", () => {
  const subscriptions = new Map<string, ReturnType<typeof stripeSubscription>>()
  let standIn: Awaited<ReturnType<typeof startStandIn>> | null = null
  afterEach(async () => {
    await standIn?.close()
    standIn = null
    subscriptions.clear()
  })

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }

  async function startStripe() {
    standIn = await startStandIn((request: RecordedRequest, response) => {
      const form = new URLSearchParams(request.body)
      if (request.method === "POST" && request.url === "/v1/customers") return json(response, 200, { id: "cus_1", object: "customer", email: form.get("email") })
      if (request.method === "POST" && request.url === "/v1/checkout/sessions") return json(response, 200, { id: "cs_1", object: "checkout.session", url: "https://checkout.stripe.test/c/cs_1" })
      if (request.method === "POST" && request.url === "/v1/billing_portal/sessions") return json(response, 200, { id: "bps_1", object: "billing_portal.session", url: "https://billing.stripe.test/p/1" })
      const match = /^\/v1\/subscriptions\/([\w]+)$/.exec(request.url)
      const found = match && subscriptions.get(match[1]!)
      if (found && request.method === "GET") return json(response, 200, found)
      if (found && request.method === "POST") {
        if (form.has("cancel_at_period_end")) found.cancel_at_period_end = form.get("cancel_at_period_end") === "true"
        return json(response, 200, found)
      }
      return json(response, 404, { error: { type: "invalid_request_error", message: `No such route ${request.url}` } })
    })
    const app = await start({ STRIPE_SECRET_KEY: "sk_test_standin", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: standIn.url, ...PRICES })
    return app
  }

  const sendEvent = (app: FastifyInstance, event: { id: string; type: string; object: unknown }, options: { secret?: string; timestamp?: number; signature?: string | null } = {}) => {
    const payload = JSON.stringify({ id: event.id, object: "event", type: event.type, data: { object: event.object } })
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp ?? Math.floor(now / 1000) })
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (options.signature !== null) headers["stripe-signature"] = options.signature ?? header
    return app.inject({ method: "POST", url: "/api/billing/webhook", headers, payload })
  }

  it("checkout creates one customer and a subscription-mode session with the plan's price and our user id", async () => {
    const app = await startStripe()
    const user = await newUser(app)
    const answer = await call(app, "POST", "/api/billing/checkout", user.token, { planId: "enterprise", annual: true })
    expect(answer.json().data).toEqual({ url: "https://checkout.stripe.test/c/cs_1" })
    const session = new URLSearchParams(standIn!.requests.find((request) => request.url === "/v1/checkout/sessions")!.body)
    expect(Object.fromEntries(session)).toMatchObject({
      mode: "subscription",
      customer: "cus_1",
      client_reference_id: user.id,
      "line_items[0][price]": "price_ent_y",
      "metadata[userId]": user.id,
      "subscription_data[metadata][userId]": user.id
    })
    expect(standIn!.requests.find((request) => request.url === "/v1/customers")!.headers["idempotency-key"]).toBe(`customer-${user.id}`)
    await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
    expect(standIn!.requests.filter((request) => request.url === "/v1/customers")).toHaveLength(1)
    expect((await call(app, "POST", "/api/billing/portal", user.token)).json().data).toEqual({ url: "https://billing.stripe.test/p/1" })
    expect((await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))).json().error.code).toBe("WRONG_BILLING_MODE")
    // Still Free: a checkout (or its success page) changes nothing until Stripe says so.
    expect((await usage(app, user.token)).limit).toBe(10)
  })

  it("20 checkouts at once for one account make one Stripe customer, asked for under one idempotency key", async () => {
    const app = await startStripe()
    const user = await newUser(app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })))
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200))
    const keys = new Set(standIn!.requests.filter((request) => request.url === "/v1/customers").map((request) => request.headers["idempotency-key"]))
    expect(keys).toEqual(new Set([`customer-${user.id}`]))
    const records = await app.database.db.selectFrom("subscriptions").select(["user_id", "stripe_customer_id"]).execute()
    expect(records).toEqual([{ user_id: user.id, stripe_customer_id: "cus_1" }])
    for (const request of standIn!.requests.filter((request) => request.url === "/v1/checkout/sessions")) expect(new URLSearchParams(request.body).get("customer")).toBe("cus_1")
  })

  it("the payment calls' per-IP limit holds on checkout, portal and plan change too: 25 at once from one address, 20 answered", async () => {
    const app = await startStripe()
    const user = await newUser(app)
    const calls: [string, unknown][] = [
      ["/api/billing/checkout", { planId: "pro", annual: false }],
      ["/api/billing/portal", undefined],
      ["/api/billing/change", { planId: "enterprise", annual: false }]
    ]
    for (const [url, body] of calls) {
      const answers = await Promise.all(Array.from({ length: 25 }, () => call(app, "POST", url, user.token, body)))
      expect(answers.filter((answer) => answer.statusCode === 429).map((answer) => answer.json().error.code), url).toEqual(Array(5).fill("RATE_LIMIT_EXCEEDED"))
    }
    // The refused checkouts reached Stripe no more than the answered ones.
    expect(standIn!.requests.filter((request) => request.url === "/v1/checkout/sessions")).toHaveLength(20)
  })

  it("signed webhooks: activation, renewal, failed payment, cancellation and deletion, each applied once", async () => {
    const app = await startStripe()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
    const sub = stripeSubscription("sub_1", "cus_1", "price_pro_m", { userId: user.id })
    subscriptions.set("sub_1", sub)
    const completed = { id: "cs_1", object: "checkout.session", customer: "cus_1", subscription: "sub_1", client_reference_id: user.id, metadata: { userId: user.id } }
    expect((await sendEvent(app, { id: "evt_1", type: "checkout.session.completed", object: completed })).statusCode).toBe(200)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", interval: "month", portalAvailable: true })
    expect((await usage(app, user.token)).limit).toBeNull()

    // Renewal: the period moves on.
    const renewedEnd = Math.floor((START + 61 * DAY_MS) / 1000)
    sub.items.data[0]!.current_period_end = renewedEnd
    const invoice = (id: string) => ({ id, object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_1", metadata: {} } } })
    await sendEvent(app, { id: "evt_2", type: "invoice.paid", object: invoice("in_2") })
    expect((await subscription(app, user.token)).currentPeriodEnd).toBe(new Date(renewedEnd * 1000).toISOString())

    await sendEvent(app, { id: "evt_3", type: "invoice.payment_failed", object: invoice("in_3") })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "past_due" })

    sub.status = "active"
    sub.cancel_at_period_end = true
    await sendEvent(app, { id: "evt_4", type: "customer.subscription.updated", object: sub })
    expect(await subscription(app, user.token)).toMatchObject({ status: "active", cancelAtPeriodEnd: true })

    // A replay of the failed payment changes nothing.
    const replay = await sendEvent(app, { id: "evt_3", type: "invoice.payment_failed", object: invoice("in_3") })
    expect(replay.json().data).toEqual({ received: true, processed: false })
    expect((await subscription(app, user.token)).status).toBe("active")

    await sendEvent(app, { id: "evt_5", type: "customer.subscription.deleted", object: { ...sub, status: "canceled" } })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await usage(app, user.token)).limit).toBe(10)

    await app.mailQueue.idle()
    const subjects = (await readOutbox(subject!.dataDir)).map((mail) => mail.subject)
    expect(subjects).toEqual(expect.arrayContaining(["Your Image Query AI Pro subscription is active", "Your Image Query AI payment failed", "Your Image Query AI Pro subscription is cancelled"]))
  })

  it("one event delivered 20 times at once is applied once; one that fails to read Stripe is applied on the retry", async () => {
    const app = await startStripe()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
    subscriptions.set("sub_2", stripeSubscription("sub_2", "cus_1", "price_pro_m", { userId: user.id }))
    const completed = { id: "cs_2", object: "checkout.session", customer: "cus_1", subscription: "sub_2", client_reference_id: user.id, metadata: { userId: user.id } }
    const deliveries = await Promise.all(Array.from({ length: 20 }, () => sendEvent(app, { id: "evt_burst", type: "checkout.session.completed", object: completed })))
    expect(deliveries.map((delivery) => delivery.statusCode)).toEqual(Array(20).fill(200))
    expect(deliveries.filter((delivery) => delivery.json().data.processed)).toHaveLength(1)
    await app.mailQueue.idle()
    expect((await readOutbox(subject!.dataDir)).filter((mail) => mail.subject === "Your Image Query AI Pro subscription is active")).toHaveLength(1)

    // Stripe cannot be read: the event is refused with a 502 and not marked done, so Stripe's retry applies it.
    const failure = await sendEvent(app, { id: "evt_unreadable", type: "invoice.payment_failed", object: { id: "in_9", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_gone", metadata: {} } } } })
    expect(failure.statusCode).toBe(502)
    expect((await subscription(app, user.token)).status).toBe("active")
    subscriptions.set("sub_gone", stripeSubscription("sub_gone", "cus_1", "price_pro_m", { userId: user.id }))
    const retried = await sendEvent(app, { id: "evt_unreadable", type: "invoice.payment_failed", object: { id: "in_9", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_gone", metadata: {} } } } })
    expect(retried.json().data).toEqual({ received: true, processed: true })
    expect((await subscription(app, user.token)).status).toBe("past_due")
  })

  it("forged, missing and stale signatures are refused and change nothing; an unknown customer is acknowledged", async () => {
    const app = await startStripe()
    const user = await newUser(app)
    const sub = stripeSubscription("sub_9", "cus_9", "price_pro_m", { userId: user.id })
    const event = { id: "evt_forged", type: "customer.subscription.created", object: sub }
    for (const options of [{ secret: "whsec_someone_else" }, { signature: null }, { signature: "t=1,v1=deadbeef" }, { timestamp: Math.floor(now / 1000) - 301 }]) {
      const refused = await sendEvent(app, event, options)
      expect(refused.statusCode, JSON.stringify(options)).toBe(400)
      expect(refused.json().error.code).toBe("INVALID_SIGNATURE")
    }
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free" })
    expect(await app.database.db.selectFrom("billing_events").selectAll().execute()).toEqual([])
    const stranger = await sendEvent(app, { id: "evt_stranger", type: "customer.subscription.created", object: stripeSubscription("sub_x", "cus_unknown", "price_pro_m") })
    expect(stranger.statusCode).toBe(200)
    // Metadata naming no user id of ours at all (not even a uuid) is acknowledged the same way.
    const foreign = stripeSubscription("sub_y", "cus_unknown", "price_pro_m", { userId: "not-a-uuid" })
    expect((await sendEvent(app, { id: "evt_foreign", type: "customer.subscription.created", object: foreign })).statusCode).toBe(200)
    // The same event signed correctly is applied.
    expect((await sendEvent(app, event)).statusCode).toBe(200)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro" })
  })
})
