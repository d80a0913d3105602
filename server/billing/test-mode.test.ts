import { describe, expect, it } from "vitest"

import { TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { readOutbox } from "../test-kit"
import { billingTestApp, call, card, DAY_MS, newUser, START, subscription, tokenNow, usage } from "./test-support"

const billing = billingTestApp()

describe("test mode", () => {
  it("a test payment with 4242 makes the account Pro at once: the record, the user, the quota and an e-mail", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    expect((await usage(app, user.token)).limit).toBe(10)
    const paid = await call(app, "POST", "/api/billing/test-payment", user.token, card("4242 4242 4242 4242"))
    expect(paid.statusCode).toBe(201)
    expect(paid.json().data.subscription).toMatchObject({ plan: "pro", status: "active", interval: "month", cancelAtPeriodEnd: false, mode: "test", currentPeriodEnd: "2026-12-23T12:00:00.000Z" })
    expect((await usage(app, user.token)).limit).toBeNull()
    const profile = (await call(app, "GET", "/api/auth/profile", user.token)).json().data.user
    expect(profile.subscription).toEqual({ plan: { id: "pro", name: "Pro" }, status: "active" })
    await app.outbox.idle()
    expect((await readOutbox(billing.dataDir)).map((mail) => mail.subject)).toContain("Your Image Query AI Pro subscription is active")
  })

  it("declines 4000 0000 0000 0002 with Stripe's message, refuses other cards and bad fields, and stores nothing", async () => {
    const app = await billing.start()
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
    const app = await billing.start()
    const user = await newUser(app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1)
    expect(answers.filter((answer) => answer.json().error?.code === "ALREADY_SUBSCRIBED")).toHaveLength(19)
    await app.outbox.idle()
    expect((await readOutbox(billing.dataDir)).filter((mail) => mail.subject.includes("subscription is active"))).toHaveLength(1)
  })

  it("a payment during the trial turns it into the paid plan, and the trial stays used", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    expect((await call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })).statusCode).toBe(201)
    expect((await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))).statusCode).toBe(201)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", interval: "month", trialEnd: null, trialAvailable: false })
  })

  it("20 trial starts at once start one trial; the others are told it is used", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1)
    expect(answers.filter((answer) => answer.json().error?.code === "TRIAL_ALREADY_USED")).toHaveLength(19)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "trialing" })
  })

  it("the payment calls' per-IP limit holds under a burst: 25 payments at once from one address, 20 taken", async () => {
    const app = await billing.start()
    const users = await Promise.all(Array.from({ length: 25 }, () => newUser(app)))
    const answers = await Promise.all(users.map((user) => call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(20)
    expect(answers.filter((answer) => answer.statusCode === 429).map((answer) => answer.json().error.code)).toEqual(Array(5).fill("RATE_LIMIT_EXCEEDED"))
    expect(await app.database.db.selectFrom("subscriptions").select("user_id").execute()).toHaveLength(20)
  })

  it("cancel keeps Pro to the period's end, then Free; resume before the end keeps it going", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))
    const canceled = (await call(app, "POST", "/api/billing/cancel", user.token)).json().data.subscription
    expect(canceled).toMatchObject({ plan: "pro", cancelAtPeriodEnd: true, currentPeriodEnd: "2026-12-23T12:00:00.000Z" })
    expect((await call(app, "POST", "/api/billing/resume", user.token)).json().data.subscription.cancelAtPeriodEnd).toBe(false)
    await call(app, "POST", "/api/billing/cancel", user.token)
    billing.state.now = START + 29 * DAY_MS
    expect((await usage(app, user.token)).limit).toBeNull()
    billing.state.now = START + 31 * DAY_MS
    expect((await usage(app, user.token)).limit).toBe(10)
    expect(await subscription(app, user.token)).toMatchObject({ plan: "free", status: "canceled" })
    expect((await call(app, "POST", "/api/billing/resume", await tokenNow(app, user.token))).json().error.code).toBe("NO_SUBSCRIPTION")
    await app.outbox.idle()
    expect((await readOutbox(billing.dataDir)).map((mail) => mail.subject)).toContain("Your Image Query AI Pro subscription is cancelled")
  })

  it("a test-mode subscription renews by itself at the period's end", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))
    billing.state.now = START + 65 * DAY_MS
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", status: "active", currentPeriodEnd: "2027-02-23T12:00:00.000Z" })
  })

  it("an upgrade applies at once; a downgrade waits for the period's end", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    await call(app, "POST", "/api/billing/test-payment", user.token, card(TEST_CARD_SUCCEEDS))
    const up = (await call(app, "POST", "/api/billing/change", user.token, { planId: "enterprise", annual: false })).json().data.subscription
    expect(up).toMatchObject({ plan: "enterprise", scheduledPlan: null })
    const down = (await call(app, "POST", "/api/billing/change", user.token, { planId: "pro", annual: false })).json().data.subscription
    expect(down).toMatchObject({ plan: "enterprise", scheduledPlan: "pro" })
    billing.state.now = START + 32 * DAY_MS
    expect(await subscription(app, user.token)).toMatchObject({ plan: "pro", scheduledPlan: null })
  })

  it("the 14-day trial: once per account, Pro while it runs, Free after", async () => {
    const app = await billing.start()
    const user = await newUser(app)
    const trial = await call(app, "POST", "/api/billing/trial", user.token, { planId: "pro" })
    expect(trial.statusCode).toBe(201)
    expect(trial.json().data.subscription).toMatchObject({ plan: "pro", status: "trialing", trialEnd: "2026-12-07T12:00:00.000Z", trialAvailable: false })
    expect((await usage(app, user.token)).limit).toBeNull()
    billing.state.now = START + 15 * DAY_MS
    expect((await usage(app, user.token)).limit).toBe(10)
    const again = await call(app, "POST", "/api/billing/trial", await tokenNow(app, user.token), { planId: "pro" })
    expect(again.json().error.code).toBe("TRIAL_ALREADY_USED")
    expect((await call(app, "POST", "/api/billing/trial", await tokenNow(app, user.token), { planId: "enterprise" })).statusCode).toBe(400)
  })

  it("the admin overview counts subscribers per plan and the monthly recurring revenue from the records", async () => {
    const app = await billing.start()
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
    const app = await billing.start()
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

