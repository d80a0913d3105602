/**
 * GET /api/admin/billing, from subscriptions made through the billing API itself (test mode's payments and trials,
 * Stripe mode's checkout and webhooks against the Stripe stand-in) on a clock the test moves: subscribers per plan
 * and status, the MRR now and 30 days before from the recorded history, failed payments first, Stripe's links.
 */
import { describe, expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { billingTestApp, call, card, DAY_MS, newUser, sendEvent, START, stripeStandIn, subscribeThroughCheckout, tokenNow, trialThroughCheckout } from "../../billing/test-support"
import { signedInUser } from "../../test-kit"
import { stripeCustomerUrl } from "./admin-billing-service"

const billing = billingTestApp()
const stripe = stripeStandIn(billing)
const HOUR_MS = 3_600_000

async function adminBilling(query = "") {
  const app = billing.state.subject!.app
  const admin = await signedInUser(app)
  await app.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
  const answer = await call(app, "GET", `/api/admin/billing${query}`, admin.token)
  return { status: answer.statusCode, body: answer.json() }
}

describe("GET /api/admin/billing", () => {
  it("counts subscribers and the MRR now and 30 days ago from real subscriptions: yearly / 12, trials and ended ones 0", async () => {
    const app = await billing.start()
    const monthly = await newUser(app)
    expect((await call(app, "POST", "/api/billing/test-payment", monthly.token, card(TEST_CARD_SUCCEEDS))).statusCode).toBe(201)
    const trial = await newUser(app)
    expect((await call(app, "POST", "/api/billing/trial", trial.token, { planId: "pro" })).statusCode).toBe(201)
    const leaving = await newUser(app)
    expect((await call(app, "POST", "/api/billing/test-payment", leaving.token, card(TEST_CARD_SUCCEEDS))).statusCode).toBe(201)
    billing.state.now += HOUR_MS
    expect((await call(app, "POST", "/api/billing/cancel", await tokenNow(app, leaving.token))).statusCode).toBe(200)

    // A month on: the monthly one renewed (test mode), the cancelled one and the trial ended, a yearly Enterprise new.
    billing.state.now = START + 31 * DAY_MS
    const yearly = await newUser(app)
    expect((await call(app, "POST", "/api/billing/test-payment", yearly.token, card(TEST_CARD_SUCCEEDS, { planId: "enterprise", annual: true }))).statusCode).toBe(201)

    const { status, body } = await adminBilling()
    expect(status).toBe(200)
    const figures = body.data
    expect(figures.subscribers).toEqual({ pro: 1, enterprise: 1 })
    expect(figures.statuses).toEqual({ trialing: 0, active: 2, past_due: 0, unpaid: 0, paused: 0, canceled: 2 })
    // Now: Pro 19 + Enterprise 990 / 12. A day after START: Pro 19 twice (the cancelled one ran to its period's end).
    expect(figures.mrr).toEqual({ currency: "USD", now: 101.5, thirtyDaysAgo: 38, change: 63.5, changePercent: 167.1 })
    expect(figures.subscriptions.map((row: { userId: string }) => row.userId)).toEqual([monthly.id, yearly.id, trial.id, leaving.id])
    expect(figures.subscriptions[0]).toMatchObject({ plan: "pro", interval: "month", status: "active", provider: "test", stripeCustomerUrl: null })
    // Shown as of now: the renewal made by time alone is there, though nobody read the account since.
    expect(figures.subscriptions[0].periodEnd).toBe(new Date(Date.UTC(2027, 0, 23, 12)).toISOString())
    expect(figures.subscriptions[1]).toMatchObject({ plan: "enterprise", interval: "year", status: "active" })
    expect(figures.subscriptions[3]).toMatchObject({ plan: "free", status: "canceled" })
    expect([figures.total, figures.page, figures.pageSize]).toEqual([4, 1, 50])
  })

  it("reads a past day's MRR from the history, not from today's records", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    expect((await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))).statusCode).toBe(201)
    billing.state.now = START + 40 * DAY_MS
    expect((await call(app, "POST", "/api/billing/change", await tokenNow(app, user.token), { planId: "enterprise", annual: false })).statusCode).toBe(200)
    // 30 days ago the account had Pro; it has Enterprise now.
    expect((await adminBilling()).body.data.mrr).toMatchObject({ now: 99, thirtyDaysAgo: 19, change: 80 })
    const history = await app.database.db.selectFrom("subscription_changes").select(["plan_id", "at"]).where("user_id", "=", user.id).orderBy("id").execute()
    // The payment, its renewal (made by time, recorded when the account was next read) and the change.
    expect(history.map((change) => change.plan_id)).toEqual(["pro", "pro", "enterprise"])
  })

  it("lists failed payments first, and links a Stripe customer to its page in Stripe's dashboard", async () => {
    const app = await stripe.start()
    const failing = await newUser(app)
    await subscribeThroughCheckout(app, stripe, failing)
    const invoice = { id: "in_1", object: "invoice", customer: "cus_1", parent: { type: "subscription_details", subscription_details: { subscription: "sub_1", metadata: {} } } }
    expect((await sendEvent(app, { id: "evt_failed", type: "invoice.payment_failed", object: invoice })).statusCode).toBe(200)
    // A trial (through Checkout, with a card) that ends sooner than the failed subscription's period: still after it.
    const trying = await newUser(app)
    expect((await trialThroughCheckout(app, stripe, trying, { subscriptionId: "sub_trial", fingerprint: "fp_trying" })).delivery.statusCode).toBe(200)

    const figures = (await adminBilling()).body.data
    expect(figures.subscriptions.map((row: { userId: string; status: string }) => [row.userId, row.status])).toEqual([
      [failing.id, "past_due"],
      [trying.id, "trialing"]
    ])
    expect(figures.subscriptions[0]).toMatchObject({ provider: "stripe", stripeCustomerUrl: "https://dashboard.stripe.com/test/customers/cus_1" })
    expect(figures.subscriptions[1]).toMatchObject({ provider: "stripe", stripeCustomerUrl: "https://dashboard.stripe.com/test/customers/cus_2" })
    expect(figures.statuses).toMatchObject({ past_due: 1, trialing: 1 })
  })

  it("links to the live dashboard on a live key, and to nothing in test mode", () => {
    const record = { provider: "stripe", stripe_customer_id: "cus_9" } as Parameters<typeof stripeCustomerUrl>[1]
    const config = (secretKey: string) => ({ secretKey, webhookSecret: "whsec_x", prices: { pro: { month: "a", year: "b" }, enterprise: { month: "c", year: "d" } }, apiBase: undefined })
    expect(stripeCustomerUrl(config("sk_live_abc"), record)).toBe("https://dashboard.stripe.com/customers/cus_9")
    expect(stripeCustomerUrl(config("sk_test_abc"), record)).toBe("https://dashboard.stripe.com/test/customers/cus_9")
    expect(stripeCustomerUrl(undefined, record)).toBeNull()
  })

  it("pages the list; a bad page is 400 VALIDATION_FAILED; users are refused", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    expect((await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))).statusCode).toBe(201)
    const second = await adminBilling("?page=2")
    expect([second.body.data.subscriptions, second.body.data.total, second.body.data.page]).toEqual([[], 1, 2])
    for (const query of ["?page=0", "?page=-1", "?page=two", "?page=1.5", "?sort=x"]) {
      const refused = await adminBilling(query)
      expect([refused.status, refused.body.error?.code], query).toEqual([400, "VALIDATION_FAILED"])
    }
    expect((await call(app, "GET", "/api/admin/billing", user.token)).statusCode).toBe(403)
    expect((await call(app, "GET", "/api/admin/billing")).statusCode).toBe(401)
  })
})
