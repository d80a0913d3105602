/**
 * What other features call inside the transaction of an event's cause: `queueWebhookEvent` writes one delivery row per
 * endpoint of the concerned owners that subscribed to the event's type, in that transaction (a transactional outbox:
 * the event goes out exactly when the change is made, and a crash loses neither); the worker sends it
 * (webhook-worker.ts). The body, `{type, timestamp, data}`, is written once here: every attempt sends the same bytes.
 */
import { randomBytes } from "node:crypto"

import { USAGE_THRESHOLDS, type WebhookEventBody, type WebhookEventType } from "~core/webhooks"

import { fundsPool, planOf } from "../billing/plan"
import type { Db } from "../db/transaction"
import { findMembership } from "../organizations/organization-store"
import { claimUsageThreshold, insertDelivery, ownerKey, ownerPlanFields, subscribedEndpoints, type EndpointRow, type WebhookOwner } from "./webhook-store"

export type { WebhookOwner }

/** What queueing needs of the app: its clock, and the worker to wake once the transaction commits. */
export interface WebhookQueue {
  clock: () => number
  webhooks: { wake(inTransaction?: boolean): void }
}

/** A delivery's id, the webhook-id header of each of its attempts. */
export const newMessageId = () => `msg_${randomBytes(16).toString("base64url")}`

/** Queues the event for each endpoint; answers the deliveries' ids. */
async function queueFor(app: WebhookQueue, db: Db, endpoints: EndpointRow[], type: WebhookEventType, data: Record<string, unknown>): Promise<string[]> {
  if (endpoints.length === 0) return []
  const now = new Date(app.clock())
  const body: WebhookEventBody = { type, timestamp: now.toISOString(), data }
  const payload = JSON.stringify(body)
  const ids: string[] = []
  for (const endpoint of endpoints) {
    const owner: WebhookOwner = endpoint.user_id ? { kind: "user", id: endpoint.user_id } : { kind: "organization", id: endpoint.organization_id! }
    const id = newMessageId()
    await insertDelivery(db, { id, endpointId: endpoint.id, ownerKey: ownerKey(owner), type, payload, now })
    ids.push(id)
  }
  app.webhooks.wake(db.isTransaction)
  return ids
}

/** Whether the owner still has what webhooks come with: a paid plan of its own, or an organisation Enterprise funds. */
async function entitled(db: Db, owner: WebhookOwner): Promise<boolean> {
  const plan = await ownerPlanFields(db, owner)
  return Boolean(plan) && (owner.kind === "user" ? planOf(plan!) !== "free" : fundsPool(plan!))
}

/**
 * Queues `type` for every endpoint of `owners` that subscribed to it, in `db` (the cause's transaction). An owner whose
 * plan no longer comes with webhooks hears nothing more, except the subscription.updated that says the plan changed.
 */
export async function queueWebhookEvent(app: WebhookQueue, db: Db, owners: WebhookOwner[], type: WebhookEventType, data: Record<string, unknown>): Promise<string[]> {
  const hearing = type === "subscription.updated" ? owners : (await Promise.all(owners.map(async (owner) => ((await entitled(db, owner)) ? [owner] : [])))).flat()
  return queueFor(app, db, await subscribedEndpoints(db, hearing, type), type, data)
}

/** Queues a webhook.test event for one endpoint, whatever it subscribed to. */
export function queueTestEvent(app: WebhookQueue, db: Db, endpoint: EndpointRow): Promise<string[]> {
  return queueFor(app, db, [endpoint], "webhook.test", { endpointId: endpoint.id })
}

/** Whom an event about a person concerns: the person, and their organisation when they are in one. */
export async function ownersOfPerson(db: Db, userId: string): Promise<WebhookOwner[]> {
  const membership = await findMembership(db, userId)
  return [{ kind: "user", id: userId }, ...(membership ? [{ kind: "organization" as const, id: membership.organization_id }] : [])]
}

/**
 * After a counted AI request: usage.threshold when this request is the one that reached 80 % or 100 % of the month's
 * limit. Each count is answered to one request only (the counter's upsert), and the threshold is recorded for the
 * month, so a request given back and taken again cannot announce it twice: once per threshold and month.
 */
export async function queueUsageThresholds(app: WebhookQueue, db: Db, owner: WebhookOwner, usage: { used: number; limit: number | null; month: string }): Promise<void> {
  const { used, limit, month } = usage
  if (limit === null || limit <= 0) return
  for (const threshold of USAGE_THRESHOLDS) {
    if (used !== Math.ceil((limit * threshold) / 100)) continue
    if (!(await claimUsageThreshold(db, ownerKey(owner), month, threshold))) continue
    await queueWebhookEvent(app, db, [owner], "usage.threshold", { scope: owner.kind, [owner.kind === "user" ? "userId" : "organizationId"]: owner.id, threshold, used, limit, month })
  }
}
