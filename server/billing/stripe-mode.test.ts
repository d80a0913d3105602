import { describe, expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { readOutbox } from "../test-kit"
import { billingTestApp, call, card, DAY_MS, newUser, sendEvent, START, stripeStandIn, stripeSubscription, subscribeThroughCheckout, subscription, usage } from "./test-support"

const billing = billingTestApp()
const stripe = stripeStandIn(billing)

describe("Stripe mode, against a stand-in of the Stripe API", () => {
  it("checkout creates one customer and a subscription-mode session with the plan's price and our user id", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    const answer = await call(app, "POST", "/api/billing/checkout", user.token, { planId: "enterprise", annual: true })
    expect(answer.json().data).toEqual({ url: "https://checkout.stripe.test/c/cs_1" })
    const session = new URLSearchParams(stripe.requests.find((request) => request.url === "/v1/checkout/sessions")!.body)
    expect(Object.fromEntries(session)).toMatchObject({
      mode: "subscription",
      customer: "cus_1",
      client_reference_id: user.id,
      "line_items[0][price]": "price_ent_y",
      "metadata[userId]": user.id,
      "subscription_data[metadata][userId]": user.id
    })
    expect(stripe.requests.find((request) => request.url === "/v1/customers")!.headers["idempotency-key"]).toBe(`customer-${user.id}`)
    await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
    expect(stripe.requests.filter((request) => request.url === "/v1/customers")).toHaveLength(1)
    expect((await call(app, "POST", "/api/billing/portal", user.token)).json().data).toEqual({ url: "https://billing.stripe.test/p/1" })
    expect((await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))).json().error.code).toBe("WRONG_BILLING_MODE")
    // Still Free: a checkout (or its success page) changes nothing until Stripe says so.
    expect((await usage(app, user.token)).limit).toBe(10)
  })

  it("20 checkouts at once for one account make one Stripe customer, asked for under one idempotency key", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })))
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200))
    const keys = new Set(stripe.requests.filter((request) => request.url === "/v1/customers").map((request) => request.headers["idempotency-key"]))
    expect(keys).toEqual(new Set([`customer-${user.id}`]))
    const records = await app.database.db.selectFrom("subscriptions").select(["user_id", "stripe_customer_id"]).execute()
    expect(records).toEqual([{ user_id: user.id, stripe_customer_id: "cus_1" }])
    for (const request of stripe.requests.filter((request) => request.url === "/v1/checkout/sessions")) expect(new URLSearchParams(request.body).get("customer")).toBe("cus_1")
  })

  it("the payment calls' per-IP limit holds on checkout, portal and plan change too: 25 at once from one address, 20 answered", async () => {
    const app = await stripe.start()
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
    expect(stripe.requests.filter((request) => request.url === "/v1/checkout/sessions")).toHaveLength(20)
  })

  it("signed webhooks: activation, renewal, failed payment, cancellation and deletion, each applied once", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    const { sub, delivery } = await subscribeThroughCheckout(app, stripe, user)
    expect(delivery.statusCode).toBe(200)
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

    sub.status = "canceled"
    await sendEvent(app, { id: "evt_5", type: "customer.subscription.deleted", object: sub })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await usage(app, user.token)).limit).toBe(10)

    await app.outbox.idle()
    const subjects = (await readOutbox(billing.dataDir)).map((mail) => mail.subject)
    expect(subjects).toEqual(expect.arrayContaining(["Your Image Query AI Pro subscription is active", "Your Image Query AI payment failed", "Your Image Query AI Pro subscription is cancelled"]))
  })

  it("one event delivered 20 times at once is applied once; one that fails to read Stripe is applied on the retry", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
    stripe.subscriptions.set("sub_2", stripeSubscription("sub_2", "cus_1", "price_pro_m", { userId: user.id }))
    const completed = { id: "cs_2", object: "checkout.session", customer: "cus_1", subscription: "sub_2", client_reference_id: user.id, metadata: { userId: user.id } }
    const deliveries = await Promise.all(Array.from({ length: 20 }, () => sendEvent(app, { id: "evt_burst", type: "checkout.session.completed", object: completed })))
    expect(deliveries.map((delivery) => delivery.statusCode)).toEqual(Array(20).fill(200))
    expect(deliveries.filter((delivery) => delivery.json().data.processed)).toHaveLength(1)
    await app.outbox.idle()
    expect((await readOutbox(billing.dataDir)).filter((mail) => mail.subject === "Your Image Query AI Pro subscription is active")).toHaveLength(1)

    // Stripe cannot be read: the event is refused with a 502 and not marked done, so Stripe's retry applies it.
    const failure = await sendEvent(app, { id: "evt_unreadable", type: "invoice.payment_failed", object: { id: "in_9", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_gone", metadata: {} } } } })
    expect(failure.statusCode).toBe(502)
    expect((await subscription(app, user.token)).status).toBe("active")
    stripe.subscriptions.set("sub_gone", stripeSubscription("sub_gone", "cus_1", "price_pro_m", { userId: user.id }))
    const retried = await sendEvent(app, { id: "evt_unreadable", type: "invoice.payment_failed", object: { id: "in_9", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_gone", metadata: {} } } } })
    expect(retried.json().data).toEqual({ received: true, processed: true })
    expect((await subscription(app, user.token)).status).toBe("past_due")
  })

  it("forged, missing and stale signatures are refused and change nothing; an unknown customer is acknowledged", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    const sub = stripeSubscription("sub_9", "cus_9", "price_pro_m", { userId: user.id })
    stripe.subscriptions.set("sub_9", sub)
    const event = { id: "evt_forged", type: "customer.subscription.created", object: sub }
    for (const options of [{ secret: "whsec_someone_else" }, { signature: null }, { signature: "t=1,v1=deadbeef" }, { timestamp: Math.floor(billing.state.now / 1000) - 301 }]) {
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
