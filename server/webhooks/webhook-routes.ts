/** /api/webhooks: signed webhooks' endpoints and their deliveries (webhook-service.ts); each route parses, authorises and calls. */
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { confirmationSchema, ok } from "~core/api-answer"
import { createdWebhookSchema, createWebhookSchema, webhookDeliverySchema, webhookEndpointSchema, webhookIdParamsSchema } from "~core/webhooks"

import { requireUser } from "../auth/authenticate"
import { docsTagged, parseRequest, type RouteDoc } from "../openapi/route-docs"
import { webhookService } from "./webhook-service"

const REFUSED = "PLAN_REQUIRED on Free (and for an organisation not on Enterprise); FORBIDDEN for an organisation's members who are not its owner or an admin, and from the extension's session."
const NOT_FOUND = { 404: "NOT_FOUND: no webhook with this id among the caller's (or their organisation's)." }
const webhooksDoc = docsTagged("Webhooks")
/** Every webhook call is refused alike to whoever may not manage webhooks, so each doc lists it. */
const hooksDoc = (doc: Omit<RouteDoc, "tag">) => webhooksDoc({ ...doc, errors: { 403: REFUSED, ...doc.errors } })

const listDoc = hooksDoc({ summary: "Your webhooks", description: "A Pro person's own, or their organisation's for its owner and admins. Never the secret.", data: { 200: z.array(webhookEndpointSchema) } })
const createDoc = hooksDoc({
  summary: "Add a webhook",
  description:
    "The URL must be https on a public address (every address of its host is checked, now and at each send). The secret (whsec_…) signs every delivery (Standard Webhooks) and is in this answer only. Audited (webhook.created).",
  body: createWebhookSchema,
  data: { 201: createdWebhookSchema },
  errors: { 400: "URL_NOT_ALLOWED: not https, not a public address, or a host that cannot be found (the message says which).", 409: "WEBHOOK_LIMIT_REACHED: 10 webhooks already." }
})
const deleteDoc = hooksDoc({ summary: "Remove a webhook", description: "Its pending deliveries are dropped. Audited (webhook.deleted).", params: webhookIdParamsSchema, data: { 200: confirmationSchema("deleted") }, errors: NOT_FOUND })
const testDoc = hooksDoc({
  summary: "Send a test event",
  description: "Queues a webhook.test event for this webhook, whatever it subscribed to; its delivery shows in the deliveries.",
  params: webhookIdParamsSchema,
  data: { 201: z.object({ deliveryId: z.string() }) },
  errors: NOT_FOUND
})
const deliveriesDoc = hooksDoc({
  summary: "A webhook's deliveries",
  description: "The newest 100, newest first: the event, delivered, retrying (with the next attempt's time) or failed, the attempts and the last answer's status code.",
  params: webhookIdParamsSchema,
  data: { 200: z.array(webhookDeliverySchema) },
  errors: NOT_FOUND
})

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const hooks = webhookService(app)

  app.get("/api/webhooks", { preHandler: requireUser, schema: listDoc }, async (request) => ok(await hooks.list(request.auth!)))

  app.post("/api/webhooks", { preHandler: requireUser, schema: createDoc }, async (request, reply) => {
    const input = parseRequest(request, "body", createWebhookSchema)
    return reply.status(201).send(ok(await hooks.create(request.auth!, input, request.ip)))
  })

  app.delete("/api/webhooks/:id", { preHandler: requireUser, schema: deleteDoc }, async (request) => {
    const { id } = parseRequest(request, "params", webhookIdParamsSchema)
    await hooks.remove(request.auth!, id, request.ip)
    return ok({ deleted: true })
  })

  app.post("/api/webhooks/:id/test", { preHandler: requireUser, schema: testDoc }, async (request, reply) => {
    const { id } = parseRequest(request, "params", webhookIdParamsSchema)
    return reply.status(201).send(ok(await hooks.test(request.auth!, id)))
  })

  app.get("/api/webhooks/:id/deliveries", { preHandler: requireUser, schema: deliveriesDoc }, async (request) => {
    const { id } = parseRequest(request, "params", webhookIdParamsSchema)
    return ok(await hooks.deliveries(request.auth!, id))
  })
}
