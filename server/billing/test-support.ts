/**
 * Test helpers of the billing routes: the app on a fake clock, signed-in users whose tokens follow the clock, the test
 * payment form, and a stand-in of the Stripe API (the only test double: Stripe is outside our control) with signed
 * webhook deliveries.
 */
import type { ServerResponse } from "node:http"

import type { FastifyInstance } from "fastify"
import Stripe from "stripe"
import { afterEach } from "vitest"

import { signIn } from "../auth/account-service"
import { signedInUser, startStandIn, startTestApp, type RecordedRequest, type TestApp } from "../test-kit"

export const DAY_MS = 86_400_000
export const START = Date.UTC(2026, 10, 23, 12, 0, 0)

/** One app per test on a clock the test moves; closed after each test. */
export function billingTestApp() {
  const state = { subject: null as TestApp | null, now: START }
  afterEach(async () => {
    await state.subject?.close()
    state.subject = null
    state.now = START
  })
  return {
    state,
    async start(env: Record<string, string> = {}) {
      state.subject = await startTestApp(env, { clock: () => state.now })
      return state.subject.app
    },
    get dataDir() {
      return state.subject!.dataDir
    }
  }
}

export const call = (app: FastifyInstance, method: "GET" | "POST", url: string, token?: string, payload?: unknown) =>
  app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload: payload as object }) })

export const card = (cardNumber: string, extra: Record<string, unknown> = {}) => ({
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

const tokenUsers = new Map<string, string>()

/** A fresh access token: the test clock moves weeks on, past any token's life. */
export async function tokenNow(app: FastifyInstance, token: string): Promise<string> {
  const id = tokenUsers.get(token)
  if (!id) return token
  const user = await app.database.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow()
  const fresh = (await signIn(app, user)).token
  tokenUsers.set(fresh, id)
  return fresh
}

/** A signed-in Free account; with `email`, at that address (as stored: trimmed and lower-cased). */
export async function newUser(app: FastifyInstance, email?: string) {
  const user = await signedInUser(app)
  if (email) await app.database.db.updateTable("users").set({ email }).where("id", "=", user.id).execute()
  tokenUsers.set(user.token, user.id)
  return user
}

export const usage = async (app: FastifyInstance, token: string) => (await call(app, "GET", "/api/analyze/usage", await tokenNow(app, token))).json().data
export const subscription = async (app: FastifyInstance, token: string) => (await call(app, "GET", "/api/billing/subscription", await tokenNow(app, token))).json().data
export const profilePlan = async (app: FastifyInstance, token: string) =>
  (await call(app, "GET", "/api/auth/profile", await tokenNow(app, token))).json().data.user.subscription

export const WEBHOOK_SECRET = "whsec_test_secret"
export const PRICES = { STRIPE_PRICE_PRO_MONTH: "price_pro_m", STRIPE_PRICE_PRO_YEAR: "price_pro_y", STRIPE_PRICE_ENTERPRISE_MONTH: "price_ent_m", STRIPE_PRICE_ENTERPRISE_YEAR: "price_ent_y" }

/**
 * A Stripe subscription object as the API (2026-10-28) has it: the period on its item. A trialing one has its trial's
 * start and end (its item's period ends with the trial) and, made by Checkout, the card it collected as its
 * default_payment_method.
 */
export function stripeSubscription(
  id: string,
  customer: string,
  price: string,
  fields: Partial<{ status: string; periodEnd: number; cancelAtPeriodEnd: boolean; userId: string; trialStart: number; trialEnd: number; paymentMethod: string }> = {}
) {
  return {
    id,
    object: "subscription",
    customer,
    status: fields.status ?? "active",
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    canceled_at: null as number | null,
    ended_at: null as number | null,
    default_payment_method: fields.paymentMethod ?? null,
    trial_start: fields.trialStart ?? null,
    trial_end: fields.trialEnd ?? null,
    pending_update: null as null | Record<string, unknown>,
    metadata: fields.userId ? { userId: fields.userId } : {},
    items: {
      object: "list",
      data: [{ id: `si_${id}`, object: "subscription_item", price: { id: price, object: "price" }, current_period_end: fields.trialEnd ?? fields.periodEnd ?? Math.floor((START + 30 * DAY_MS) / 1000) }]
    }
  }
}
export type StandInSubscription = ReturnType<typeof stripeSubscription>

/** A card PaymentMethod as Stripe has it: the card's fingerprint is the same for every account that enters that card. */
export function cardPaymentMethod(id: string, fingerprint: string, customer: string | null = null) {
  return {
    id,
    object: "payment_method",
    type: "card",
    customer,
    card: { brand: "visa", country: "US", exp_month: 12, exp_year: 2030, fingerprint, funding: "credit", last4: "4242" }
  }
}
export type StandInPaymentMethod = ReturnType<typeof cardPaymentMethod>

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

/**
 * The Stripe API stand-in: customers (one per idempotency key, cus_1 first), Checkout and portal sessions, the card
 * payment methods and the subscriptions the test puts in `paymentMethods` and `subscriptions`. An update applies
 * cancel_at_period_end and the item's price; `onUpdate` lets a test decide what a price change does (Stripe keeping it
 * pending when its invoice is not paid, say). Cancelling (DELETE) ends the subscription now, as Stripe does; a
 * subscription already cancelled is refused, as Stripe refuses to change one.
 */
export function stripeStandIn(billing: ReturnType<typeof billingTestApp>) {
  const subscriptions = new Map<string, StandInSubscription>()
  const paymentMethods = new Map<string, StandInPaymentMethod>()
  const customers = new Map<string, string>()
  const counts = { sessions: 0 }
  const hooks: { onUpdate?: (subscription: StandInSubscription, form: URLSearchParams) => void } = {}
  let standIn: Awaited<ReturnType<typeof startStandIn>> | null = null
  afterEach(async () => {
    await standIn?.close()
    standIn = null
    subscriptions.clear()
    paymentMethods.clear()
    customers.clear()
    counts.sessions = 0
    hooks.onUpdate = undefined
  })
  const customerFor = (key: string | undefined) => {
    const known = key ? customers.get(key) : undefined
    if (known) return known
    const id = `cus_${customers.size + 1}`
    customers.set(key ?? id, id)
    return id
  }

  return {
    subscriptions,
    paymentMethods,
    hooks,
    get requests() {
      return standIn!.requests
    },
    async start(env: Record<string, string> = {}) {
      standIn = await startStandIn((request: RecordedRequest, response) => {
        const form = new URLSearchParams(request.body)
        if (request.method === "POST" && request.url === "/v1/customers") {
          const key = request.headers["idempotency-key"]
          return json(response, 200, { id: customerFor(typeof key === "string" ? key : undefined), object: "customer", email: form.get("email") })
        }
        if (request.method === "POST" && request.url === "/v1/checkout/sessions") {
          const id = `cs_${++counts.sessions}`
          return json(response, 200, { id, object: "checkout.session", mode: form.get("mode"), customer: form.get("customer"), url: `https://checkout.stripe.test/c/${id}` })
        }
        if (request.method === "POST" && request.url === "/v1/billing_portal/sessions") return json(response, 200, { id: "bps_1", object: "billing_portal.session", url: "https://billing.stripe.test/p/1" })
        const method = /^\/v1\/payment_methods\/(\w+)$/.exec(request.url)
        const paymentMethod = method && paymentMethods.get(method[1]!)
        if (paymentMethod && request.method === "GET") return json(response, 200, paymentMethod)
        const match = /^\/v1\/subscriptions\/([\w]+)$/.exec(request.url)
        const found = match && subscriptions.get(match[1]!)
        if (found && request.method === "GET") return json(response, 200, found)
        if (found && found.status === "canceled" && request.method !== "GET") {
          return json(response, 400, { error: { type: "invalid_request_error", message: "A canceled subscription can only update its cancellation_details and metadata." } })
        }
        if (found && request.method === "DELETE") {
          const now = Math.floor(billing.state.now / 1000)
          Object.assign(found, { status: "canceled", canceled_at: now, ended_at: now })
          return json(response, 200, found)
        }
        if (found && request.method === "POST") {
          if (form.has("cancel_at_period_end")) found.cancel_at_period_end = form.get("cancel_at_period_end") === "true"
          if (hooks.onUpdate) hooks.onUpdate(found, form)
          else if (form.has("items[0][price]")) found.items.data[0]!.price.id = form.get("items[0][price]")!
          return json(response, 200, found)
        }
        return json(response, 404, { error: { type: "invalid_request_error", message: `No such route ${request.url}` } })
      })
      return billing.start({ STRIPE_SECRET_KEY: "sk_test_standin", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: standIn.url, ...PRICES, ...env })
    }
  }
}

/**
 * A Free account that checks out Pro (monthly) at Stripe: the stand-in holds its subscription sub_1, and Checkout's
 * completion is delivered (created at `created`, seconds). Answers the stand-in's subscription and the delivery.
 */
export async function subscribeThroughCheckout(app: FastifyInstance, stripe: ReturnType<typeof stripeStandIn>, user: { id: string; token: string }, created?: number) {
  await call(app, "POST", "/api/billing/checkout", user.token, { planId: "pro", annual: false })
  const sub = stripeSubscription("sub_1", "cus_1", "price_pro_m", { userId: user.id })
  stripe.subscriptions.set("sub_1", sub)
  const completed = { id: "cs_1", object: "checkout.session", customer: "cus_1", subscription: "sub_1", client_reference_id: user.id, metadata: { userId: user.id } }
  const delivery = await sendEvent(app, { id: "evt_checkout", type: "checkout.session.completed", object: completed, created })
  return { sub, delivery }
}

/**
 * An account that starts the free trial through Checkout with a card of `fingerprint`: the stand-in then holds the card
 * and the trialing subscription Checkout makes (Pro monthly, on the account's customer, the trial from now), and
 * Checkout's completion is delivered. Answers the trial call, the subscription and the delivery.
 */
export async function trialThroughCheckout(
  app: FastifyInstance,
  stripe: ReturnType<typeof stripeStandIn>,
  user: { id: string; token: string },
  { subscriptionId, fingerprint }: { subscriptionId: string; fingerprint: string }
) {
  const started = await call(app, "POST", "/api/billing/trial", await tokenNow(app, user.token), { planId: "pro" })
  const session = stripe.requests.filter((request) => request.url === "/v1/checkout/sessions").at(-1)
  const customer = new URLSearchParams(session?.body).get("customer") ?? "cus_unknown"
  const now = Math.floor(app.clock() / 1000)
  const paymentMethod = `pm_${subscriptionId}`
  stripe.paymentMethods.set(paymentMethod, cardPaymentMethod(paymentMethod, fingerprint, customer))
  const sub = stripeSubscription(subscriptionId, customer, "price_pro_m", { status: "trialing", userId: user.id, trialStart: now, trialEnd: now + 14 * 86_400, paymentMethod })
  stripe.subscriptions.set(subscriptionId, sub)
  const completed = { id: `cs_${subscriptionId}`, object: "checkout.session", customer, subscription: subscriptionId, client_reference_id: user.id, metadata: { userId: user.id } }
  const delivery = await sendEvent(app, { id: `evt_checkout_${subscriptionId}`, type: "checkout.session.completed", object: completed })
  return { started, sub, delivery, completed }
}

/** A signed delivery of an event; `created` (seconds) is when Stripe made it, `now` by default. */
export function sendEvent(
  app: FastifyInstance,
  event: { id: string; type: string; object: unknown; created?: number },
  options: { secret?: string; timestamp?: number; signature?: string | null } = {}
) {
  const created = event.created ?? Math.floor(app.clock() / 1000)
  const payload = JSON.stringify({ id: event.id, object: "event", type: event.type, created, data: { object: event.object } })
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp ?? Math.floor(app.clock() / 1000) })
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (options.signature !== null) headers["stripe-signature"] = options.signature ?? header
  return app.inject({ method: "POST", url: "/api/billing/webhook", headers, payload })
}
