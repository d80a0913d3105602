/**
 * /api/billing: each route parses its input, takes the signed-in caller and calls the billing service
 * (billing-service.ts), which hands the action to the provider that handles it; the webhook is stripe-webhook.ts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify"

import { ok } from "~core/api"
import { planChoiceSchema, testPaymentSchema, TRIAL_DAYS, trialRequestSchema, type BillingConfig, type Subscription } from "~core/billing"

import { requireUser } from "../auth/authenticate"
import { parseInput } from "../http/errors"
import { perIpRateLimit } from "../http/rate-limit"
import { billingService } from "./billing-service"
import { stripeWebhookRoutes } from "./stripe-webhook"
import type { SubscriptionRecord } from "./subscription-rules"
import { toSubscription } from "./subscription-view"

/** Calls that create objects at Stripe (or try a card), per IP address. */
const PAYMENT_CALLS = perIpRateLimit({ max: 20, timeWindow: 60_000, message: "Too many payment attempts. Please wait a minute before trying again." })

export async function billingRoutes(app: FastifyInstance): Promise<void> {
  const billing = billingService(app)
  const mode = app.config.billingMode
  const userOf = (request: FastifyRequest) => request.auth!.user
  const answer = (record: SubscriptionRecord | undefined): { subscription: Subscription } => ({ subscription: toSubscription(record, mode) })

  app.get("/api/billing/config", async () => ok<BillingConfig>({ mode, trialDays: TRIAL_DAYS }))

  app.get("/api/billing/subscription", { preHandler: requireUser }, async (request) => ok(toSubscription(await billing.currentRecord(userOf(request).id), mode)))

  app.post("/api/billing/test-payment", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request, reply) => {
    const payment = parseInput(testPaymentSchema, request.body)
    return reply.status(201).send(ok(answer(await billing.payWithTestCard(userOf(request), request.log, payment))))
  })

  app.post("/api/billing/checkout", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request) => {
    const choice = parseInput(planChoiceSchema, request.body)
    return ok(await billing.checkout(userOf(request), request.log, choice))
  })

  app.post("/api/billing/portal", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request) => ok(await billing.portal(userOf(request), request.log)))

  app.post("/api/billing/change", { preHandler: requireUser, config: PAYMENT_CALLS }, async (request) => {
    const choice = parseInput(planChoiceSchema, request.body)
    return ok(answer(await billing.change(userOf(request), request.log, choice)))
  })

  app.post("/api/billing/cancel", { preHandler: requireUser }, async (request) => ok(answer(await billing.cancel(userOf(request), request.log))))

  app.post("/api/billing/resume", { preHandler: requireUser }, async (request) => ok(answer(await billing.resume(userOf(request), request.log))))

  app.post("/api/billing/trial", { preHandler: requireUser }, async (request, reply) => {
    const { planId } = parseInput(trialRequestSchema, request.body)
    return reply.status(201).send(ok(answer(await billing.startTrial(userOf(request), planId))))
  })

  await app.register(stripeWebhookRoutes, { stripe: billing.stripe, config: app.config.stripe })
}
