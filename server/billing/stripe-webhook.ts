/**
 * POST /api/billing/webhook: Stripe's signed events, one function per event type. An event's copy of an object is
 * never applied: Stripe does not order its deliveries and retries them for days, so each handler only learns from the
 * event which account and which subscription it is about, and reads the subscription from Stripe as it is now. Each
 * event is applied once: its id is recorded in the transaction of the change it makes (billing-event-store.ts), and a
 * change that fails leaves the event to Stripe's retry. A subscription in its trial is given the trial only once per
 * person (stripe-trials.ts).
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"
import type Stripe from "stripe"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { webhookReceiptSchema } from "~core/billing/billing"

import { findUserById } from "../auth/user-store"
import type { StripeConfig } from "../config"
import { isUuid } from "../db/uuid"
import { ApiError } from "../http/errors"
import { documented } from "../openapi/route-docs"
import { isEventRecorded, recordEvent } from "./billing-event-store"
import { providerFailed, wrongMode } from "./billing-errors"
import { idOf, readStripeSubscription } from "./providers/stripe"
import { stripeTrials } from "./stripe-trials"
import { changeSubscription } from "./subscription-changes"
import { followProvider, NO_RECORD, paymentFailed, type SubscriptionRecord } from "./subscription-rules"
import { findUserIdByCustomer } from "./subscription-store"

/** Stripe's own default: a signed event older than this is refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300
const WEBHOOK_BODY_LIMIT = 1024 * 1024

/**
 * A Stripe event as the reference shows it. The route does not parse the body with it: the signature covers the bytes
 * as sent, so they are verified and read by Stripe's library (constructEvent), which knows every event's shape.
 */
const stripeEventSchema = z.looseObject({ id: z.string(), type: z.string(), created: z.number().int(), data: z.looseObject({ object: z.looseObject({}) }) })

const webhookDoc = documented({
  tag: "Billing",
  summary: "Stripe's events (Stripe mode)",
  description: "Called by Stripe, signed in the Stripe-Signature header. Each event is applied once; the subscription is read from Stripe as it is now.",
  body: stripeEventSchema,
  data: { 200: webhookReceiptSchema },
  errors: {
    400: "INVALID_SIGNATURE: the signature is missing or wrong, or the event is too old.",
    409: "WRONG_BILLING_MODE: this server does not take payments through Stripe.",
    502: "BILLING_PROVIDER_ERROR: Stripe could not be reached; Stripe sends the event again later."
  }
})

/** What an event asks of an account: its customer id, the subscription as Stripe has it now, a failed renewal. */
interface EventEffect {
  userId: string
  customerId: string | null
  subscription: Stripe.Subscription | null
  renewalFailed?: boolean
}

export async function stripeWebhookRoutes(app: FastifyInstance, { stripe, config }: { stripe: Stripe | null; config: StripeConfig | undefined }): Promise<void> {
  // The signature covers the body as sent: it is kept as bytes, not parsed.
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body))
  const trials = stripe ? stripeTrials(app, stripe) : null

  app.post("/api/billing/webhook", { schema: webhookDoc }, async (request) => {
    if (!stripe || !config) throw wrongMode(app.config.billingMode)
    const signature = request.headers["stripe-signature"]
    if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) throw new ApiError(400, "INVALID_SIGNATURE", "The Stripe-Signature header is missing.")
    let event: Stripe.Event
    try {
      event = stripe.webhooks.constructEvent(request.body, signature, config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, app.clock())
    } catch {
      throw new ApiError(400, "INVALID_SIGNATURE", "The webhook signature is not valid, or the event is too old.")
    }
    return ok({ received: true, processed: await processEvent(event, request.log) })
  })

  const retrieve = async (id: string, log: FastifyBaseLogger) => {
    try {
      return await stripe!.subscriptions.retrieve(id)
    } catch (error) {
      throw providerFailed(log, error)
    }
  }

  /** Ours by the customer id we stored, or by the user id we put in the metadata (an account that still exists). */
  const accountOf = async (customerId: string | null, userId: string | null | undefined): Promise<string | null> => {
    if (customerId) {
      const known = await findUserIdByCustomer(app.database.db, customerId)
      if (known) return known
    }
    // Anything but a uuid is no user of ours. A failed look-up is not "no user": it fails the delivery, and Stripe retries it.
    if (!userId || !isUuid(userId)) return null
    return (await findUserById(app.database.db, userId))?.id ?? null
  }

  const onCheckoutCompleted = async (session: Stripe.Checkout.Session, log: FastifyBaseLogger): Promise<EventEffect | null> => {
    const customerId = idOf(session.customer)
    const userId = await accountOf(customerId, session.client_reference_id ?? session.metadata?.userId)
    const subscriptionId = idOf(session.subscription)
    return userId ? { userId, customerId, subscription: subscriptionId ? await retrieve(subscriptionId, log) : null } : null
  }

  /** customer.subscription.created, .updated and .deleted alike: the subscription is read again, whatever the event says. */
  const onSubscriptionEvent = async (copy: Stripe.Subscription, log: FastifyBaseLogger): Promise<EventEffect | null> => {
    const customerId = idOf(copy.customer)
    const userId = await accountOf(customerId, copy.metadata?.userId)
    return userId ? { userId, customerId, subscription: await retrieve(copy.id, log) } : null
  }

  const invoiceEffect = async (invoice: Stripe.Invoice, log: FastifyBaseLogger): Promise<EventEffect | null> => {
    const customerId = idOf(invoice.customer)
    const details = invoice.parent?.subscription_details
    const userId = await accountOf(customerId, details?.metadata?.userId)
    const subscriptionId = idOf(details?.subscription)
    return userId ? { userId, customerId, subscription: subscriptionId ? await retrieve(subscriptionId, log) : null } : null
  }

  const onInvoicePaid = (invoice: Stripe.Invoice, log: FastifyBaseLogger) => invoiceEffect(invoice, log)

  /** A failed renewal makes the subscription past due even before Stripe's own status says so; a failed upgrade is Stripe's pending update, not a renewal. */
  const onInvoicePaymentFailed = async (invoice: Stripe.Invoice, log: FastifyBaseLogger): Promise<EventEffect | null> => {
    const effect = await invoiceEffect(invoice, log)
    return effect && { ...effect, renewalFailed: invoice.billing_reason !== "subscription_update" }
  }

  const effectOf = (event: Stripe.Event, log: FastifyBaseLogger): Promise<EventEffect | null> => {
    switch (event.type) {
      case "checkout.session.completed":
        return onCheckoutCompleted(event.data.object, log)
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted":
        return onSubscriptionEvent(event.data.object, log)
      case "invoice.paid":
        return onInvoicePaid(event.data.object, log)
      case "invoice.payment_failed":
        return onInvoicePaymentFailed(event.data.object, log)
      default:
        return Promise.resolve(null)
    }
  }

  /** The account's record after the event: following the subscription read from Stripe, its customer id kept. */
  const nextRecord = (current: SubscriptionRecord | undefined, effect: EventEffect, eventAt: Date, log: FastifyBaseLogger): SubscriptionRecord | undefined => {
    let next = current
    if (effect.subscription) {
      const reading = readStripeSubscription(config!, effect.subscription)
      if ("ignored" in reading) log.info({ subscription: effect.subscription.id, why: reading.ignored }, "Stripe subscription ignored")
      else next = followProvider(current, reading, eventAt)
    }
    if (effect.renewalFailed && next && next.stripe_subscription_id) next = paymentFailed(next)
    if (effect.customerId && !next?.stripe_customer_id) next = { ...(next ?? { ...NO_RECORD, provider: "stripe" }), stripe_customer_id: effect.customerId }
    return next
  }

  /** Applies one event, once. Stripe's current state is read before, outside the database transaction. */
  const processEvent = async (event: Stripe.Event, log: FastifyBaseLogger): Promise<boolean> => {
    const db = app.database.db
    if (await isEventRecorded(db, event.id)) return false
    const receivedAt = new Date(app.clock())
    const effect = await effectOf(event, log)
    if (!effect) {
      log.info({ event: event.id, type: event.type }, "Stripe event acknowledged: no account of ours")
      return recordEvent(db, event, receivedAt)
    }
    // Stripe stamps every event; one without a stamp is taken as of its arrival.
    const eventAt = typeof event.created === "number" ? new Date(event.created * 1000) : receivedAt
    // A trial the person had already is cancelled at Stripe here: the record then follows the subscription as cancelled.
    const trial = effect.subscription && trials ? await trials.review(effect.userId, effect.subscription, log) : null
    const applied = trial ? { ...effect, subscription: trial.subscription } : effect
    let claimed = false
    await changeSubscription(
      app,
      effect.userId,
      (current) => nextRecord(current, applied, eventAt, log) ?? null,
      async (trx) => {
        claimed = await recordEvent(trx, event, receivedAt)
        if (claimed && trial) await trials!.apply(trx, trial.review)
        return claimed
      }
    )
    return claimed
  }
}
