/**
 * Signed webhooks (the Standard Webhooks specification): what the server and the site share: the event types, the
 * limits and the schemas of the /api/webhooks routes. A Pro person manages their own endpoints; an Enterprise
 * organisation's owner and admins manage the organisation's.
 */
import * as z from "zod"

/** The events an endpoint may subscribe to; `webhook.test` is sent by "Send a test" whatever it subscribed to. */
export const WEBHOOK_EVENT_TYPES = ["usage.threshold", "api_key.created", "api_key.revoked", "subscription.updated", "member.joined", "member.removed"] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "webhook.test"

/** Endpoints one owner (a person, an organisation) may hold. */
export const MAX_WEBHOOK_ENDPOINTS = 10
/** Deliveries GET /api/webhooks/:id/deliveries answers: the newest. */
export const WEBHOOK_DELIVERIES_SHOWN = 100
/** The shares of the month's AI requests that send usage.threshold, once each a month. */
export const USAGE_THRESHOLDS = [80, 100] as const

export const createWebhookSchema = z.strictObject({
  url: z.string().trim().min(1, "Enter the endpoint's URL").max(2000),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `use one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }))
    .min(1, "Choose at least one event")
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((events) => [...new Set(events)])
})
export type CreateWebhookRequest = z.infer<typeof createWebhookSchema>

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  /** Whose endpoint: the caller's own, or their organisation's. */
  owner: z.enum(["user", "organization"]),
  createdAt: z.iso.datetime()
})
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>

/** The answer to POST /api/webhooks: the signing secret (`whsec_…`), shown this once. */
export const createdWebhookSchema = webhookEndpointSchema.extend({ secret: z.string() })
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>

export const webhookDeliverySchema = z.object({
  /** The webhook-id header of every attempt. */
  id: z.string(),
  event: z.string(),
  status: z.enum(["delivered", "retrying", "failed", "pending"]),
  attempts: z.number().int().min(0),
  lastStatusCode: z.number().int().nullable(),
  /** When a retrying delivery is tried next; null otherwise. */
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  lastAttemptAt: z.iso.datetime().nullable()
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

export const webhookIdParamsSchema = z.strictObject({ id: z.string().max(100) })

/** The body of every event: its type, when it happened, and what it is about. */
export interface WebhookEventBody {
  type: WebhookEventType
  timestamp: string
  data: Record<string, unknown>
}
