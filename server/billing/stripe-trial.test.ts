/**
 * The free trial in Stripe mode, against the stand-in of the Stripe API: it goes through Checkout, which collects a
 * card (Stripe's trial with a payment method), and it is given once per person: per mailbox (checked before Checkout)
 * and per card (the card's fingerprint, read from Stripe when the trialing subscription arrives).
 */
import { describe, expect, it } from "vitest"

import { readOutbox } from "../test-kit"
import { billingTestApp, call, cardPaymentMethod, DAY_MS, newUser, sendEvent, START, stripeStandIn, stripeSubscription, subscription, tokenNow, trialThroughCheckout, usage } from "./test-support"

const billing = billingTestApp()
const stripe = stripeStandIn(billing)

const sessionsMade = () => stripe.requests.filter((request) => request.url === "/v1/checkout/sessions")
const mailsTo = async (email: string) => (await readOutbox(billing.dataDir)).filter((mail) => mail.to.includes(email))

describe("the trial in Stripe mode", () => {
  it("goes through Checkout, which collects a card: 14 trial days, payment_method_collection always; Pro once Stripe says so", async () => {
    const app = await stripe.start()
    const user = await newUser(app, "ada@example.com")
    const answer = await call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })
    expect(answer.statusCode).toBe(200)
    expect(answer.json().data).toEqual({ url: "https://checkout.stripe.test/c/cs_1" })
    expect(Object.fromEntries(new URLSearchParams(sessionsMade()[0]!.body))).toMatchObject({
      mode: "subscription",
      customer: "cus_1",
      client_reference_id: user.id,
      "line_items[0][price]": "price_pro_m",
      "line_items[0][quantity]": "1",
      payment_method_collection: "always",
      "subscription_data[trial_period_days]": "14",
      "subscription_data[trial_settings][end_behavior][missing_payment_method]": "cancel",
      "subscription_data[metadata][userId]": user.id,
      "metadata[userId]": user.id
    })
    // Nothing is granted by the call: the account waits for Stripe's word.
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", trialAvailable: true })

    const { sub } = await trialThroughCheckout(app, stripe, user, { subscriptionId: "sub_trial", fingerprint: "fp_card_ada" })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "trialing", trialEnd: "2026-12-07T12:00:00.000Z", trialAvailable: false })
    expect((await usage(app, user.token)).limit).toBeNull()
    await app.outbox.idle()
    const started = (await mailsTo("ada@example.com")).find((mail) => mail.subject === "Your Image Query AI Pro trial has started")!
    expect(started.text).toMatch(/card you gave is charged/)
    expect(started.text).toMatch(/cancel before/)
    expect(started.text).not.toMatch(/No card/)

    // The trial's end is Stripe's: past it the plan stays until Stripe reports the card charged (or not).
    billing.state.now = START + 15 * DAY_MS
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "trialing" })
    Object.assign(sub, { status: "active", trial_end: sub.trial_end })
    sub.items.data[0]!.current_period_end = Math.floor((START + 44 * DAY_MS) / 1000)
    await sendEvent(app, { id: "evt_trial_over", type: "customer.subscription.updated", object: sub })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", interval: "month" })
  })

  it("a trial held at Stripe is cancelled at Stripe (at the trial's end), and is not bought a second time", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    const { sub } = await trialThroughCheckout(app, stripe, user, { subscriptionId: "sub_trial", fingerprint: "fp_card_1" })
    const checkout = await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: true })
    expect(checkout.statusCode).toBe(409)
    expect(checkout.json().error).toEqual({ code: "ALREADY_SUBSCRIBED", message: expect.stringMatching(/trial becomes the paid plan when it ends/) })
    expect(sessionsMade()).toHaveLength(1)

    const cancelled = await call(app, "POST", "/api/billing/cancel", user.token)
    expect(cancelled.statusCode).toBe(200)
    expect(sub.cancel_at_period_end).toBe(true)
    expect(cancelled.json().data.subscription).toMatchObject({ plan: "pro", status: "trialing", cancelAtPeriodEnd: true })
  })

  it("a sub-address of a mailbox that had the trial is refused before any Checkout", async () => {
    const app = await stripe.start()
    const first = await newUser(app, "grace@example.com")
    await trialThroughCheckout(app, stripe, first, { subscriptionId: "sub_grace", fingerprint: "fp_card_grace" })
    const second = await newUser(app, "grace+2@example.com")
    const refused = await call(app, "POST", "/api/billing/trial", second.token, { planId: "pro" })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.code).toBe("TRIAL_ALREADY_USED")
    expect(sessionsMade()).toHaveLength(1)
    expect(await subscription(app, second.token)).toMatchObject({ plan: "free", trialAvailable: false })
  })
})

describe("one trial per card", () => {
  it("another account with a card that had a trial: the trial is cancelled at Stripe at once (nothing charged), recorded and told once, under 20 deliveries", async () => {
    const app = await stripe.start()
    const first = await newUser(app, "ada@example.com")
    await trialThroughCheckout(app, stripe, first, { subscriptionId: "sub_first", fingerprint: "fp_same_card" })
    expect(await subscription(app, first.token)).toMatchObject({ plan: "pro", status: "trialing" })

    billing.state.now = START + DAY_MS
    const second = await newUser(app, "someone.else@example.net")
    const { sub, completed } = await trialThroughCheckout(app, stripe, second, { subscriptionId: "sub_second", fingerprint: "fp_same_card" })
    // More deliveries about the same subscription at once: Checkout's completion again, and the subscription's own events.
    const copy = { ...sub, status: "trialing" }
    const deliveries = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2
          ? sendEvent(app, { id: "evt_checkout_sub_second", type: "checkout.session.completed", object: completed })
          : sendEvent(app, { id: `evt_sub_${index}`, type: index % 4 ? "customer.subscription.updated" : "customer.subscription.created", object: copy })
      )
    )
    expect(deliveries.map((delivery) => delivery.statusCode)).toEqual(Array(20).fill(200))

    expect(sub.status).toBe("canceled")
    expect(stripe.requests.filter((request) => request.method === "DELETE" && request.url === "/v1/subscriptions/sub_second").length).toBeGreaterThanOrEqual(1)
    expect(stripe.requests.some((request) => request.method === "DELETE" && request.url === "/v1/subscriptions/sub_first")).toBe(false)
    expect(await subscription(app, second.token)).toMatchObject({ plan: "free", status: "canceled", trialAvailable: false })
    expect((await usage(app, second.token)).limit).toBe(10)
    expect(await subscription(app, await tokenNow(app, first.token))).toMatchObject({ plan: "pro", status: "trialing" })

    const refusals = await app.database.db.selectFrom("trial_refusals").selectAll().execute()
    expect(refusals).toEqual([expect.objectContaining({ stripe_subscription_id: "sub_second", user_id: second.id, reason: "card" })])
    await app.outbox.idle()
    const mails = await mailsTo("someone.else@example.net")
    expect(mails.map((mail) => mail.subject)).toEqual(["Your Image Query AI trial could not start"])
    expect(mails[0]!.text).toMatch(/card has already been used for a free trial/)
    expect(mails[0]!.text).toMatch(/Nothing was charged/)
    // The card is kept only as a keyed hash.
    expect(JSON.stringify(await app.database.db.selectFrom("identity_traces").selectAll().execute())).not.toContain("fp_same_card")
  })

  it("20 accounts whose trials with one card arrive at once: one trial; the others cancelled, once each, after Stripe's retries", async () => {
    const app = await stripe.start()
    const users = await Promise.all(Array.from({ length: 20 }, (_, index) => newUser(app, `card-sharer-${index}@example.org`)))
    const now = Math.floor(billing.state.now / 1000)
    const completions = []
    for (const [index, user] of users.entries()) {
      expect((await call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })).statusCode).toBe(200)
      const customer = `cus_${index + 1}`
      stripe.paymentMethods.set(`pm_${index}`, cardPaymentMethod(`pm_${index}`, "fp_shared", customer))
      stripe.subscriptions.set(`sub_${index}`, stripeSubscription(`sub_${index}`, customer, "price_pro_m", { status: "trialing", userId: user.id, trialStart: now, trialEnd: now + 14 * 86_400, paymentMethod: `pm_${index}` }))
      completions.push({ id: `evt_${index}`, type: "checkout.session.completed", object: { id: `cs_x${index}`, object: "checkout.session", customer, subscription: `sub_${index}`, client_reference_id: user.id } })
    }
    // Stripe sends again what was not answered 200: a claim made meanwhile by another account fails the delivery.
    let pending = completions
    for (let round = 0; pending.length && round < 5; round++) {
      const answers = await Promise.all(pending.map((event) => sendEvent(app, event)))
      pending = pending.filter((_, index) => answers[index]!.statusCode !== 200)
    }
    expect(pending).toEqual([])
    const statuses = [...stripe.subscriptions.values()].map((sub) => sub.status)
    expect(statuses.filter((status) => status === "trialing")).toHaveLength(1)
    expect(statuses.filter((status) => status === "canceled")).toHaveLength(19)
    const trialing = await app.database.db.selectFrom("subscriptions").select("user_id").where("status", "=", "trialing").execute()
    expect(trialing).toHaveLength(1)
    expect(await app.database.db.selectFrom("trial_refusals").select("reason").execute()).toEqual(Array(19).fill({ reason: "card" }))
    await app.outbox.idle()
    expect((await readOutbox(billing.dataDir)).filter((mail) => mail.subject === "Your Image Query AI trial could not start")).toHaveLength(19)
  })

  it("one account completing a second trial Checkout gets no second trial", async () => {
    const app = await stripe.start()
    const user = await newUser(app)
    await trialThroughCheckout(app, stripe, user, { subscriptionId: "sub_one", fingerprint: "fp_card_a" })
    // A second Checkout opened before the first was completed, paid with another card.
    const { sub } = await trialThroughCheckout(app, stripe, user, { subscriptionId: "sub_two", fingerprint: "fp_card_b" })
    expect(sub.status).toBe("canceled")
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "trialing" })
    expect((await app.database.db.selectFrom("trial_refusals").select(["stripe_subscription_id", "reason"]).execute())).toEqual([{ stripe_subscription_id: "sub_two", reason: "account" }])
  })
})
