/**
 * /api/billing: subscriptions in Stripe mode (hosted Checkout, the customer portal, signed webhooks processed once)
 * or in test mode (the payment form with Stripe's test cards, no card charged), one record either way.
 */
import type { FastifyInstance, FastifyRequest } from "fastify"
import type { Kysely } from "kysely"
import type Stripe from "stripe"

import { ok } from "~core/api"
import {
  CARD_DECLINED_MESSAGE,
  intervalOf,
  isPayingFor,
  isUpgrade,
  planChoiceSchema,
  TEST_CARD_DECLINED,
  TEST_CARD_REQUIRED_MESSAGE,
  TEST_CARD_SUCCEEDS,
  testPaymentSchema,
  TRIAL_DAYS,
  trialRequestSchema,
  type BillingConfig,
  type BillingMode,
  type Subscription
} from "~core/billing"
import { DAY_MS } from "~core/limits"
import { cardDigits, validatePayment } from "~core/payment"
import { getPlan } from "~core/plans"

import { requireUser } from "../auth/authenticate"
import { findUserById } from "../auth/users"
import type { StripeConfig } from "../config"
import type { DatabaseSchema } from "../db/schema"
import { isUuid } from "../db/uuid"
import { ApiError, parseInput, signInRequired, validationFailed } from "../http/errors"
import { perIpRateLimit } from "../http/rate-limit"
import { addInterval, changeRecord, findRecord, findRecordByCustomer, hasPaidPlan, NO_RECORD, settled, toSubscription, type RecordFields } from "./records"
import { createStripeClient, idOf, priceFor, readStripeSubscription } from "./stripe"

/** Stripe's own default: a signed event older than this is refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300
const WEBHOOK_BODY_LIMIT = 1024 * 1024
/** Calls that create objects at Stripe (or try a card), per IP address. */
const PAYMENT_CALLS = perIpRateLimit({ max: 20, timeWindow: 60_000, message: "Too many payment attempts. Please wait a minute before trying again." })

/** The record when it is a subscription the account pays for (a trial, with no card, is not one); null otherwise. */
const paidSubscription = (record: RecordFields | undefined): RecordFields | null => (record && isPayingFor(record.plan_id, record.status) ? record : null)

const alreadySubscribed = (record: RecordFields) =>
  new ApiError(409, "ALREADY_SUBSCRIBED", `You already have the ${getPlan(record.plan_id).name} plan. Change or cancel it from your dashboard.`)
const noSubscription = (message = "You have no paid subscription. Choose a plan on the pricing page.") => new ApiError(409, "NO_SUBSCRIPTION", message)
const wrongMode = (mode: BillingMode) =>
  new ApiError(409, "WRONG_BILLING_MODE", mode === "test" ? "Payments run in test mode on this server: use the payment form." : "This server takes payments through Stripe: continue to the secure payment page.")

/** A Stripe call that failed: said in plain words, logged without the request's data. */
function providerFailed(request: FastifyRequest, error: unknown): ApiError {
  request.log.error({ err: error instanceof Error ? { name: error.name, message: error.message } : error }, "Stripe call failed")
  return new ApiError(502, "BILLING_PROVIDER_ERROR", "The payment provider could not be reached. Nothing was charged; please try again in a moment.")
}

export async function billingRoutes(app: FastifyInstance): Promise<void> {
  const stripeConfig = app.config.stripe
  const stripe = stripeConfig ? createStripeClient(stripeConfig) : null
  const mode: BillingMode = stripe ? "stripe" : "test"
  const now = () => new Date(app.clock())
  const userOf = (request: FastifyRequest) => request.auth!.user

  const answer = (record: RecordFields | undefined): { subscription: Subscription } => ({ subscription: toSubscription(record, mode) })

  /** The caller's record as it stands now, its time-bound changes made. */
  const currentRecord = async (request: FastifyRequest): Promise<RecordFields | undefined> => {
    const stored = await findRecord(app.database.db, userOf(request).id)
    return stored && settled(stored, now())
  }

  /** Changes the caller's record; the user exists (requireUser has just read it). */
  const change = async (request: FastifyRequest, next: (current: RecordFields | undefined) => RecordFields | null) => {
    const result = await changeRecord(app, userOf(request).id, next)
    if (!result) throw signInRequired()
    return result.after
  }

  const stripeCall = async <T>(request: FastifyRequest, call: (client: Stripe, config: StripeConfig) => Promise<T>): Promise<T> => {
    if (!stripe || !stripeConfig) throw wrongMode(mode)
    try {
      return await call(stripe, stripeConfig)
    } catch (error) {
      throw providerFailed(request, error)
    }
  }

  /** Applies a subscription Stripe answered or sent: the record follows it, unless it is one to ignore. */
  const applyStripeSubscription = async (userId: string, subscription: Stripe.Subscription, log: FastifyRequest["log"]) => {
    const result = await changeRecord(app, userId, (current) => {
      const reading = readStripeSubscription(stripeConfig!, subscription, current)
      if ("ignored" in reading) {
        log.info({ subscription: subscription.id, why: reading.ignored }, "Stripe subscription ignored")
        return null
      }
      return reading.record
    })
    return result?.after
  }

  app.get("/api/billing/config", async () => ok<BillingConfig>({ mode, trialDays: TRIAL_DAYS }))

  app.get("/api/billing/subscription", { preHandler: requireUser }, async (request) => {
    return ok(toSubscription(await currentRecord(request), mode))
  })

  app.post("/api/billing/test-payment", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request, reply) => {
    if (mode !== "test") throw wrongMode(mode)
    const payment = parseInput(testPaymentSchema, request.body)
    const problems = validatePayment(payment, now())
    const details = Object.entries(problems).map(([field, message]) => `${field}: ${message}`)
    if (details.length) throw validationFailed(details)
    const digits = cardDigits(payment.cardNumber)
    if (digits === TEST_CARD_DECLINED) throw new ApiError(402, "CARD_DECLINED", CARD_DECLINED_MESSAGE)
    if (digits !== TEST_CARD_SUCCEEDS) throw new ApiError(400, "TEST_CARD_REQUIRED", TEST_CARD_REQUIRED_MESSAGE)
    const at = now()
    const after = await change(request, (current) => {
      const paid = paidSubscription(current)
      if (paid) throw alreadySubscribed(paid)
      const interval = intervalOf(payment.annual)
      return {
        ...(current ?? NO_RECORD),
        provider: "test",
        plan_id: payment.planId,
        status: "active",
        billing_interval: interval,
        current_period_end: addInterval(at, interval),
        cancel_at_period_end: false,
        trial_end: null,
        scheduled_plan_id: null,
        stripe_subscription_id: null
      }
    })
    return reply.status(201).send(ok(answer(after)))
  })

  app.post("/api/billing/checkout", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request) => {
    if (mode !== "stripe") throw wrongMode(mode)
    const choice = parseInput(planChoiceSchema, request.body)
    const user = userOf(request)
    const record = await currentRecord(request)
    const paid = paidSubscription(record)
    if (paid) throw alreadySubscribed(paid)
    const customer = await stripeCustomer(request, record)
    const session = await stripeCall(request, (client, config) =>
      client.checkout.sessions.create({
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price: priceFor(config, choice.planId, intervalOf(choice.annual)), quantity: 1 }],
        metadata: { userId: user.id, planId: choice.planId },
        subscription_data: { metadata: { userId: user.id, planId: choice.planId } },
        success_url: `${app.config.publicUrl}/dashboard?subscription=success`,
        cancel_url: `${app.config.publicUrl}/pricing`
      })
    )
    if (!session.url) throw providerFailed(request, new Error("Checkout Session without a URL"))
    return ok({ url: session.url })
  })

  /** The account's Stripe customer, made once: the idempotency key makes parallel first checkouts share one. */
  const stripeCustomer = async (request: FastifyRequest, record: RecordFields | undefined): Promise<string> => {
    if (record?.stripe_customer_id) return record.stripe_customer_id
    const user = userOf(request)
    const created = await stripeCall(request, (client) =>
      client.customers.create({ email: user.email, name: user.name, metadata: { userId: user.id } }, { idempotencyKey: `customer-${user.id}` })
    )
    const after = await change(request, (current) =>
      current?.stripe_customer_id ? null : { ...(current ?? { ...NO_RECORD, provider: "stripe" as const }), stripe_customer_id: created.id }
    )
    return after?.stripe_customer_id ?? created.id
  }

  app.post("/api/billing/portal", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request) => {
    if (mode !== "stripe") throw wrongMode(mode)
    const record = await findRecord(app.database.db, userOf(request).id)
    const customer = record?.stripe_customer_id
    if (!customer) throw noSubscription("There is no billing account to manage yet. Choose a plan on the pricing page.")
    const session = await stripeCall(request, (client) => client.billingPortal.sessions.create({ customer, return_url: `${app.config.publicUrl}/dashboard` }))
    return ok({ url: session.url })
  })

  /** The account's live Stripe subscription, read from Stripe. */
  const liveStripeSubscription = async (request: FastifyRequest, record: RecordFields) => {
    const id = record.stripe_subscription_id
    if (!id) throw noSubscription()
    return stripeCall(request, (client) => client.subscriptions.retrieve(id))
  }

  app.post("/api/billing/change", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request) => {
    const choice = parseInput(planChoiceSchema, request.body)
    const user = userOf(request)
    const record = paidSubscription(await currentRecord(request))
    if (!record) throw noSubscription("You have no paid subscription to change. Choose a plan on the pricing page.")
    const interval = intervalOf(choice.annual)
    if (record.plan_id === choice.planId && record.billing_interval === interval && !record.scheduled_plan_id) throw alreadySubscribed(record)
    const upgrade = isUpgrade({ plan: record.plan_id, interval: record.billing_interval }, choice)
    if (record.provider === "stripe") {
      const subscription = await liveStripeSubscription(request, record)
      const item = subscription.items.data[0]
      if (!item) throw noSubscription()
      const updated = await stripeCall(request, (client, config) =>
        client.subscriptions.update(subscription.id, {
          items: [{ id: item.id, price: priceFor(config, choice.planId, interval) }],
          // An upgrade is charged (pro rata) and given at once; a downgrade is billed from the next period.
          proration_behavior: upgrade ? "always_invoice" : "none",
          cancel_at_period_end: false,
          metadata: { userId: user.id, planId: choice.planId }
        })
      )
      return ok(answer(await applyStripeSubscription(user.id, updated, request.log)))
    }
    const at = now()
    const after = await change(request, (stillCurrent) => {
      const current = paidSubscription(stillCurrent)
      if (!current) throw noSubscription()
      if (upgrade) {
        return { ...current, plan_id: choice.planId, billing_interval: interval, current_period_end: addInterval(at, interval), scheduled_plan_id: null, cancel_at_period_end: false }
      }
      // The period already paid keeps its plan; the next one is billed at the lower plan and interval.
      const scheduled = choice.planId === current.plan_id ? null : choice.planId
      return { ...current, scheduled_plan_id: scheduled, billing_interval: interval, cancel_at_period_end: false }
    })
    return ok(answer(after))
  })

  app.post("/api/billing/cancel", { preHandler: requireUser }, async (request) => {
    const user = userOf(request)
    const record = await currentRecord(request)
    if (!record || !hasPaidPlan(record)) throw noSubscription("You have no subscription to cancel.")
    if (record.cancel_at_period_end) return ok(answer(record))
    if (record.provider === "stripe" && record.stripe_subscription_id && record.status !== "trialing") {
      const id = record.stripe_subscription_id
      const updated = await stripeCall(request, (client) => client.subscriptions.update(id, { cancel_at_period_end: true }))
      return ok(answer(await applyStripeSubscription(user.id, updated, request.log)))
    }
    const after = await change(request, (current) => {
      if (!current || !hasPaidPlan(current)) throw noSubscription("You have no subscription to cancel.")
      // A trial (no card) simply ends; a paid period is kept to its end.
      if (current.status === "trialing") return { ...current, plan_id: "free", status: "canceled", trial_end: now() }
      return current.cancel_at_period_end ? null : { ...current, cancel_at_period_end: true }
    })
    return ok(answer(after))
  })

  app.post("/api/billing/resume", { preHandler: requireUser }, async (request) => {
    const user = userOf(request)
    const record = await currentRecord(request)
    const cannotResume = () => noSubscription("There is no cancelled subscription to resume. Choose a plan on the pricing page.")
    if (!record || !hasPaidPlan(record) || !record.cancel_at_period_end) throw cannotResume()
    if (record.provider === "stripe" && record.stripe_subscription_id) {
      const id = record.stripe_subscription_id
      const updated = await stripeCall(request, (client) => client.subscriptions.update(id, { cancel_at_period_end: false }))
      return ok(answer(await applyStripeSubscription(user.id, updated, request.log)))
    }
    const after = await change(request, (current) => {
      if (!current || !hasPaidPlan(current) || !current.cancel_at_period_end) throw cannotResume()
      return { ...current, cancel_at_period_end: false }
    })
    return ok(answer(after))
  })

  app.post("/api/billing/trial", { preHandler: requireUser }, async (request, reply) => {
    const { planId } = parseInput(trialRequestSchema, request.body)
    const at = now()
    const after = await change(request, (current) => {
      if (current?.trial_started_at) throw new ApiError(409, "TRIAL_ALREADY_USED", "The free trial can be used once per account, and this account has used it.")
      if (current && hasPaidPlan(current)) throw alreadySubscribed(current)
      return {
        ...(current ?? { ...NO_RECORD, provider: mode }),
        plan_id: planId,
        status: "trialing",
        billing_interval: null,
        current_period_end: null,
        cancel_at_period_end: false,
        scheduled_plan_id: null,
        trial_started_at: at,
        trial_end: new Date(at.getTime() + TRIAL_DAYS * DAY_MS)
      }
    })
    return reply.status(201).send(ok(answer(after)))
  })

  await app.register(async (webhook) => {
    // The signature covers the body as sent: it is kept as bytes, not parsed.
    webhook.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body))
    webhook.post("/api/billing/webhook", async (request) => {
      if (!stripe || !stripeConfig) throw wrongMode(mode)
      const signature = request.headers["stripe-signature"]
      if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) {
        throw new ApiError(400, "INVALID_SIGNATURE", "The Stripe-Signature header is missing.")
      }
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(request.body, signature, stripeConfig.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, app.clock())
      } catch {
        throw new ApiError(400, "INVALID_SIGNATURE", "The webhook signature is not valid, or the event is too old.")
      }
      const processed = await processEvent(event, request)
      return ok({ received: true, processed })
    })
  })

  /**
   * Applies one event, once: the event id is recorded in the transaction of the change it makes, so a replay (or a
   * retry racing the first delivery) changes nothing, and a change that fails leaves the event to Stripe's retry.
   * Stripe's current state is read before, outside the database.
   */
  const processEvent = async (event: Stripe.Event, request: FastifyRequest): Promise<boolean> => {
    const seen = await app.database.db.selectFrom("billing_events").select("event_id").where("event_id", "=", event.id).executeTakeFirst()
    if (seen) return false
    const recordEvent = async (db: Kysely<DatabaseSchema>) =>
      Boolean(
        await db
          .insertInto("billing_events")
          .values({ event_id: event.id, type: event.type, received_at: now() })
          .onConflict((conflict) => conflict.column("event_id").doNothing())
          .returning("event_id")
          .executeTakeFirst()
      )
    const target = await eventTarget(event, request)
    if (!target) {
      request.log.info({ event: event.id, type: event.type }, "Stripe event acknowledged: no account of ours")
      return recordEvent(app.database.db)
    }
    let claimed = false
    await changeRecord(
      app,
      target.userId,
      (current) => {
        let next: RecordFields | null = current ?? null
        if (target.subscription) {
          const reading = readStripeSubscription(stripeConfig!, target.subscription, current)
          if ("ignored" in reading) request.log.info({ event: event.id, why: reading.ignored }, "Stripe subscription ignored")
          else next = reading.record
        }
        if (event.type === "invoice.payment_failed" && next && next.status === "active") next = { ...next, status: "past_due" }
        if (!next && target.customerId) next = { ...NO_RECORD, provider: "stripe", stripe_customer_id: target.customerId }
        else if (next && target.customerId && !next.stripe_customer_id) next = { ...next, stripe_customer_id: target.customerId }
        return next === current ? null : next
      },
      async (trx) => (claimed = await recordEvent(trx))
    )
    return claimed
  }

  /** The account an event is about, and the subscription as Stripe has it now. */
  const eventTarget = async (event: Stripe.Event, request: FastifyRequest): Promise<{ userId: string; customerId: string | null; subscription: Stripe.Subscription | null } | null> => {
    const retrieve = (id: string) => stripeCall(request, (client) => client.subscriptions.retrieve(id))
    switch (event.type) {
      case "checkout.session.completed": {
        const session = event.data.object
        const userId = session.client_reference_id ?? session.metadata?.userId
        const customerId = idOf(session.customer)
        const subscriptionId = idOf(session.subscription)
        const known = await accountOf(customerId, userId)
        return known ? { userId: known, customerId, subscription: subscriptionId ? await retrieve(subscriptionId) : null } : null
      }
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted": {
        const subscription = event.data.object
        const customerId = idOf(subscription.customer)
        const known = await accountOf(customerId, subscription.metadata?.userId)
        return known ? { userId: known, customerId, subscription } : null
      }
      case "invoice.paid":
      case "invoice.payment_failed": {
        const invoice = event.data.object
        const customerId = idOf(invoice.customer)
        const details = invoice.parent?.subscription_details
        const subscriptionId = idOf(details?.subscription)
        const known = await accountOf(customerId, details?.metadata?.userId)
        return known ? { userId: known, customerId, subscription: subscriptionId ? await retrieve(subscriptionId) : null } : null
      }
      default:
        return null
    }
  }

  /** Ours by the customer id we stored, or by the user id we put in the metadata (an account that still exists). */
  const accountOf = async (customerId: string | null, userId: string | null | undefined): Promise<string | null> => {
    if (customerId) {
      const record = await findRecordByCustomer(app.database.db, customerId)
      if (record) return record.user_id
    }
    // Anything but a uuid is no user of ours. A failed look-up is not "no user": it fails the delivery, and Stripe retries it.
    if (!userId || !isUuid(userId)) return null
    return (await findUserById(app.database.db, userId))?.id ?? null
  }
}

