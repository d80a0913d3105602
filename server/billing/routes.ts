/**
 * /api/billing: each route parses its input, takes the signed-in caller and calls the billing service
 * (billing-service.ts), which hands the action to the provider that handles it; the webhook is stripe-webhook.ts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify"

import { ok } from "~core/api-answer"
import {
  billingConfigSchema,
  planChoiceSchema,
  providerPageSchema,
  subscriptionAnswerSchema,
  subscriptionSchema,
  testPaymentSchema,
  TRIAL_DAYS,
  trialRequestSchema,
  type BillingConfig,
  type Subscription
} from "~core/billing/billing"

import { requireUser } from "../auth/authenticate"
import { perIpRateLimit } from "../http/rate-limit"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { billingService } from "./billing-service"
import { stripeWebhookRoutes } from "./stripe-webhook"
import type { SubscriptionRecord } from "./subscription-rules"
import { toSubscription } from "./subscription-view"

/** Calls that create objects at Stripe (or try a card), per IP address. */
const PAYMENT_CALLS = perIpRateLimit({ max: 20, timeWindow: 60_000, message: "Too many payment attempts. Please wait a minute before trying again." })

const billingDoc = docsTagged("Billing")

const CONFLICTS = "ALREADY_SUBSCRIBED, NO_SUBSCRIPTION, SUBSCRIPTION_ON_HOLD, TEST_MODE_SUBSCRIPTION or WRONG_BILLING_MODE: the subscription as it stands does not allow it."
const PROVIDER_DOWN = "BILLING_PROVIDER_ERROR: Stripe could not be reached; nothing was charged."

export async function billingRoutes(app: FastifyInstance): Promise<void> {
  const billing = await billingService(app)
  const mode = app.config.billingMode
  const userOf = (request: FastifyRequest) => request.auth!.user
  const answer = (record: SubscriptionRecord | undefined): { subscription: Subscription } => ({ subscription: toSubscription(record, mode) })

  const configDoc = billingDoc({ summary: "How this server takes payments", description: "stripe: through Stripe's payment page; test: the test-mode form, where no card is charged.", data: { 200: billingConfigSchema } })
  app.get("/api/billing/config", { schema: configDoc }, async () => ok<BillingConfig>({ mode, trialDays: TRIAL_DAYS }))

  const subscriptionDoc = billingDoc({ summary: "The account's subscription", data: { 200: subscriptionSchema } })
  app.get("/api/billing/subscription", { preHandler: requireUser, schema: subscriptionDoc }, async (request) => ok(toSubscription(await billing.currentRecord(userOf(request).id), mode)))

  const testPayment = billingDoc({
    summary: "Subscribe with a test card (test mode)",
    description: "Stripe's documented test cards only: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined. No card is charged.",
    body: testPaymentSchema,
    data: { 201: subscriptionAnswerSchema },
    errors: { 400: "TEST_CARD_REQUIRED: not one of the test cards.", 402: "CARD_DECLINED", 409: CONFLICTS }
  })
  app.post("/api/billing/test-payment", { preHandler: requireUser, config: PAYMENT_CALLS, schema: testPayment }, async (request, reply) => {
    const payment = parseRequest(request, "body", testPaymentSchema)
    return reply.status(201).send(ok(answer(await billing.payWithTestCard(userOf(request), request.log, payment))))
  })

  const checkout = billingDoc({
    summary: "Open Stripe's payment page for a plan (Stripe mode)",
    body: planChoiceSchema,
    data: { 200: providerPageSchema },
    errors: { 409: CONFLICTS, 502: PROVIDER_DOWN }
  })
  app.post("/api/billing/checkout", { preHandler: requireUser, config: PAYMENT_CALLS, schema: checkout }, async (request) => {
    const choice = parseRequest(request, "body", planChoiceSchema)
    return ok(await billing.checkout(userOf(request), request.log, choice))
  })

  const portal = billingDoc({ summary: "Open Stripe's billing portal (Stripe mode)", data: { 200: providerPageSchema }, errors: { 409: CONFLICTS, 502: PROVIDER_DOWN } })
  app.post("/api/billing/portal", { preHandler: requireUser, config: PAYMENT_CALLS, schema: portal }, async (request) => ok(await billing.portal(userOf(request), request.log)))

  const change = billingDoc({
    summary: "Change the plan or its billing interval",
    description: "An upgrade is charged pro rata and given at once; a downgrade waits for the period's end (scheduledPlan).",
    body: planChoiceSchema,
    data: { 200: subscriptionAnswerSchema },
    errors: { 402: "PAYMENT_FAILED: the upgrade's payment did not go through; the plan is unchanged.", 409: CONFLICTS, 502: PROVIDER_DOWN }
  })
  app.post("/api/billing/change", { preHandler: requireUser, config: PAYMENT_CALLS, schema: change }, async (request) => {
    const choice = parseRequest(request, "body", planChoiceSchema)
    return ok(answer(await billing.change(userOf(request), request.log, choice)))
  })

  const cancel = billingDoc({ summary: "Cancel at the period's end", data: { 200: subscriptionAnswerSchema }, errors: { 409: CONFLICTS, 502: PROVIDER_DOWN } })
  app.post("/api/billing/cancel", { preHandler: requireUser, schema: cancel }, async (request) => ok(answer(await billing.cancel(userOf(request), request.log))))

  const resume = billingDoc({ summary: "Keep a cancelled subscription before its end", data: { 200: subscriptionAnswerSchema }, errors: { 409: CONFLICTS, 502: PROVIDER_DOWN } })
  app.post("/api/billing/resume", { preHandler: requireUser, schema: resume }, async (request) => ok(answer(await billing.resume(userOf(request), request.log))))

  const trial = billingDoc({
    summary: `Start the ${TRIAL_DAYS}-day free trial of Pro`,
    description:
      "Once per person: per mailbox (the address without its sub-address, and without dots at Gmail), Google account and, in Stripe mode, card. " +
      "Test mode: 201, the trial runs at once, no card required. Stripe mode: 200, the url of Stripe's Checkout, which takes a card " +
      "(nothing is charged before the trial ends, and it can be cancelled before); the trial starts when Stripe reports it, " +
      "and a card that had a trial on another account gets none (its subscription is cancelled at once, nothing charged).",
    body: trialRequestSchema,
    data: { 201: subscriptionAnswerSchema, 200: providerPageSchema },
    errors: { 409: `TRIAL_ALREADY_USED: this person has had the trial; or ${CONFLICTS}`, 502: PROVIDER_DOWN }
  })
  app.post("/api/billing/trial", { preHandler: requireUser, config: PAYMENT_CALLS, schema: trial }, async (request, reply) => {
    const { planId } = parseRequest(request, "body", trialRequestSchema)
    const started = await billing.startTrial(userOf(request), request.log, planId)
    return "url" in started ? ok({ url: started.url }) : reply.status(201).send(ok(answer(started.record)))
  })

  await app.register(stripeWebhookRoutes, { stripe: billing.stripe, config: app.config.stripe })
}
