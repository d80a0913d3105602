/**
 * Stripe mode cannot be made to give plans away: late or reordered webhook deliveries, upgrades whose invoice is not
 * paid, subscriptions Stripe holds as unpaid or paused, and test-mode subscriptions left from before Stripe.
 */
import { describe, expect, it } from "vitest"

import { readOutbox } from "../test-kit"
import { billingTestApp, call, DAY_MS, newUser, profilePlan, sendEvent, START, stripeStandIn, subscribeThroughCheckout, subscription, usage } from "./test-support"

const billing = billingTestApp()
const stripe = stripeStandIn(billing)
const seconds = (ms: number) => Math.floor(ms / 1000)

/** A Free account that has subscribed to Pro (monthly) through Checkout, with Stripe's subscription sub_1. */
async function subscribed() {
  const app = await stripe.start()
  const user = await newUser(app)
  const { sub } = await subscribeThroughCheckout(app, stripe, user, seconds(START))
  expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active" })
  return { app, user, sub }
}

describe("late and reordered webhook deliveries", () => {
  it("an `updated` (active) delivered after `deleted` does not bring the plan back: the subscription is read from Stripe", async () => {
    const { app, user, sub } = await subscribed()
    billing.state.now = START + 2 * DAY_MS
    sub.status = "canceled"
    await sendEvent(app, { id: "evt_deleted", type: "customer.subscription.deleted", object: sub })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    // The update Stripe made a day earlier arrives now, its copy still saying active (Stripe retries for days).
    const lateCopy = { ...sub, status: "active", cancel_at_period_end: false }
    const late = await sendEvent(app, { id: "evt_updated_late", type: "customer.subscription.updated", object: lateCopy, created: seconds(START + DAY_MS) })
    expect(late.statusCode).toBe(200)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await usage(app, user.token)).limit).toBe(10)
    expect(await profilePlan(app, user.token)).toEqual({ plan: { id: "free", name: "Free" }, status: "canceled" })
  })

  it("a cancelled record is never reopened by an event older than the one that closed it", async () => {
    const { app, user, sub } = await subscribed()
    billing.state.now = START + 3 * DAY_MS
    sub.status = "canceled"
    await sendEvent(app, { id: "evt_deleted", type: "customer.subscription.deleted", object: sub, created: seconds(START + 3 * DAY_MS) })
    // Whatever a read says, an event created before the deletion was applied is older news than the deletion.
    sub.status = "active"
    for (const [id, type] of [["evt_old_update", "customer.subscription.updated"], ["evt_old_created", "customer.subscription.created"]] as const) {
      await sendEvent(app, { id, type, object: sub, created: seconds(START + DAY_MS) })
    }
    const invoice = { id: "in_old", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_1", metadata: {} } } }
    await sendEvent(app, { id: "evt_old_invoice", type: "invoice.paid", object: invoice, created: seconds(START + 2 * DAY_MS) })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await usage(app, user.token)).limit).toBe(10)
  })
})

describe("nothing is granted before Stripe is paid", () => {
  it("an upgrade is sent as a pending update: while its invoice is unpaid the plan stays, and it applies once Stripe has been paid", async () => {
    const { app, user, sub } = await subscribed()
    // Stripe, as documented for pending updates: the card is declined, so the change waits in pending_update.
    stripe.hooks.onUpdate = (found, form) => {
      if (!form.has("items[0][price]")) return
      if (form.get("payment_behavior") === "pending_if_incomplete") found.pending_update = { subscription_items: [{ price: form.get("items[0][price]") }], expires_at: seconds(START + 23 * 3600_000) }
      else found.items.data[0]!.price.id = form.get("items[0][price]")!
    }
    const upgrade = await call(app, "POST", "/api/billing/change", user.token, { planId: "enterprise", annual: false })
    expect(upgrade.statusCode).toBe(402)
    expect(upgrade.json().error).toMatchObject({ code: "PAYMENT_FAILED", message: expect.stringContaining("your plan is unchanged") })
    const update = stripe.requests.filter((request) => request.method === "POST" && request.url === "/v1/subscriptions/sub_1").at(-1)!
    expect(Object.fromEntries(new URLSearchParams(update.body))).toMatchObject({ payment_behavior: "pending_if_incomplete", proration_behavior: "always_invoice", "items[0][price]": "price_ent_m" })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro" })
    expect(await profilePlan(app, user.token)).toMatchObject({ plan: { id: "pro" } })

    // The customer pays the invoice: Stripe applies the pending update and says so.
    sub.pending_update = null
    sub.items.data[0]!.price.id = "price_ent_m"
    await sendEvent(app, { id: "evt_upgrade_paid", type: "customer.subscription.updated", object: sub })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "enterprise", status: "active" })
  })

  it.each(["unpaid", "paused"])("a subscription Stripe reports %s puts the account on Free until the invoice is paid", async (status) => {
    const { app, user, sub } = await subscribed()
    sub.status = status
    await sendEvent(app, { id: `evt_${status}`, type: "customer.subscription.updated", object: sub })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status })
    expect((await usage(app, user.token)).limit).toBe(10)
    expect(await profilePlan(app, user.token)).toEqual({ plan: { id: "free", name: "Free" }, status })
    // A second subscription is not sold meanwhile: the open invoice is paid from the portal.
    const checkout = await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
    expect(checkout.json().error.code).toBe("SUBSCRIPTION_ON_HOLD")
    await app.outbox.idle()
    expect((await readOutbox(billing.dataDir)).map((mail) => mail.subject)).toContain("Your Image Query AI Pro subscription is on hold")

    sub.status = "active"
    const invoice = { id: "in_paid", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_1", metadata: {} } } }
    await sendEvent(app, { id: `evt_${status}_paid`, type: "invoice.paid", object: invoice })
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active" })
    expect((await usage(app, user.token)).limit).toBeNull()
  })
})

describe("test-mode subscriptions on a server that takes payments through Stripe", () => {
  /** A Pro subscription paid with a test card while the server ran in test mode, ending in 10 days. */
  async function leftFromTestMode() {
    const app = await stripe.start()
    const user = await newUser(app)
    const periodEnd = new Date(START + 10 * DAY_MS)
    await app.database.db
      .insertInto("subscriptions")
      .values({ user_id: user.id, provider: "test", plan_id: "pro", status: "active", billing_interval: "month", current_period_end: periodEnd, updated_at: new Date(START) })
      .execute()
    await app.database.db.updateTable("users").set({ plan_id: "pro", subscription_status: "active", plan_review_at: periodEnd }).where("id", "=", user.id).execute()
    return { app, user }
  }

  it("neither renews nor changes plan: it ends at its period's end", async () => {
    const { app, user } = await leftFromTestMode()
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", mode: "stripe" })
    const change = await call(app, "POST", "/api/billing/change", user.token, { planId: "enterprise", annual: false })
    expect(change.json().error.code).toBe("TEST_MODE_SUBSCRIPTION")
    expect(stripe.requests.filter((request) => request.url.startsWith("/v1/subscriptions"))).toEqual([])
    billing.state.now = START + 11 * DAY_MS
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await usage(app, user.token)).limit).toBe(10)
  })

  it("can be replaced by a subscription through Stripe before it ends", async () => {
    const { app, user } = await leftFromTestMode()
    const checkout = await call(app, "POST", "/api/billing/checkout", user.token, { planId: "enterprise", annual: true })
    expect(checkout.json().data).toEqual({ url: "https://checkout.stripe.test/c/cs_1" })
  })
})
