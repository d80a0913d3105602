/** The tables of signed webhooks (migration 027, server/webhooks). Part of DatabaseSchema (schema.ts). */
import type { ColumnType, Generated } from "kysely"

import type { WebhookEventType } from "~core/webhooks"

import type { Defaulted, Timestamp } from "./column-types"

/** An endpoint: one owner, a person (Pro) or an organisation (Enterprise); the signing secret sealed. */
export interface WebhookEndpointsTable {
  id: Generated<string>
  user_id: string | null
  organization_id: string | null
  url: string
  /** The event types it subscribed to (jsonb array). */
  events: ColumnType<WebhookEventType[], string, string>
  secret_sealed: string
  created_by: string | null
  created_at: Timestamp
}

/** One event for one endpoint, the outbox row the worker sends (server/webhooks/webhook-worker.ts). */
export interface WebhookDeliveriesTable {
  id: string
  seq: Generated<string>
  endpoint_id: string
  owner_key: string
  event_type: string
  payload: string
  status: Defaulted<"pending" | "delivered" | "failed">
  attempts: Defaulted<number>
  next_attempt_at: Timestamp
  locked_until: Defaulted<Date | null>
  last_status_code: Defaulted<number | null>
  last_error: Defaulted<string | null>
  last_attempt_at: Defaulted<Date | null>
  created_at: Timestamp
  finished_at: Defaulted<Date | null>
}

/** A usage threshold (80 or 100) announced for an owner's month: one event each. */
export interface WebhookUsageThresholdsTable {
  owner_key: string
  month: string
  threshold: number
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_usage_thresholds: WebhookUsageThresholdsTable
}
