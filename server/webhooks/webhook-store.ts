/**
 * The webhooks' queries (tables webhook_endpoints, webhook_deliveries, webhook_usage_thresholds); what they are for is
 * webhook-service.ts (endpoints), webhook-events.ts (queueing) and webhook-worker.ts (sending).
 */
import { sql, type Selectable } from "kysely"

import type { WebhookEventType } from "~core/webhooks"

import { unclaimedOldestFirst } from "../db/queue-claims"
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from "../db/schema-webhooks"
import type { Db } from "../db/transaction"

export type EndpointRow = Selectable<WebhookEndpointsTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>

/** Whose endpoints: a person's own (Pro) or an organisation's (Enterprise). */
export type WebhookOwner = { kind: "user"; id: string } | { kind: "organization"; id: string }

export const ownerKey = (owner: WebhookOwner) => `${owner.kind}:${owner.id}`

const ownedBy = (owner: WebhookOwner) => (owner.kind === "user" ? ({ column: "user_id", id: owner.id } as const) : ({ column: "organization_id", id: owner.id } as const))

/** Locks the owner's row until the transaction ends: endpoints of one owner are added one after another (the cap). */
export async function lockOwner(db: Db, owner: WebhookOwner): Promise<void> {
  if (owner.kind === "user") await db.selectFrom("users").select("id").where("id", "=", owner.id).forUpdate().executeTakeFirst()
  else await db.selectFrom("organizations").select("id").where("id", "=", owner.id).forUpdate().executeTakeFirst()
}

export async function countEndpoints(db: Db, owner: WebhookOwner): Promise<number> {
  const { column, id } = ownedBy(owner)
  const row = await db.selectFrom("webhook_endpoints").select((eb) => eb.fn.countAll<string>().as("count")).where(column, "=", id).executeTakeFirstOrThrow()
  return Number(row.count)
}

export function insertEndpoint(db: Db, endpoint: { id: string; owner: WebhookOwner; url: string; events: WebhookEventType[]; secretSealed: string; createdBy: string; now: Date }) {
  return db
    .insertInto("webhook_endpoints")
    .values({
      id: endpoint.id,
      user_id: endpoint.owner.kind === "user" ? endpoint.owner.id : null,
      organization_id: endpoint.owner.kind === "organization" ? endpoint.owner.id : null,
      url: endpoint.url,
      events: JSON.stringify(endpoint.events),
      secret_sealed: endpoint.secretSealed,
      created_by: endpoint.createdBy,
      created_at: endpoint.now
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function listEndpoints(db: Db, owner: WebhookOwner): Promise<EndpointRow[]> {
  const { column, id } = ownedBy(owner)
  return db.selectFrom("webhook_endpoints").selectAll().where(column, "=", id).orderBy("created_at").orderBy("id").execute()
}

export function findEndpoint(db: Db, owner: WebhookOwner, endpointId: string): Promise<EndpointRow | undefined> {
  const { column, id } = ownedBy(owner)
  return db.selectFrom("webhook_endpoints").selectAll().where("id", "=", endpointId).where(column, "=", id).executeTakeFirst()
}

export function deleteEndpoint(db: Db, owner: WebhookOwner, endpointId: string) {
  const { column, id } = ownedBy(owner)
  return db.deleteFrom("webhook_endpoints").where("id", "=", endpointId).where(column, "=", id).returningAll().executeTakeFirst()
}

/**
 * The plan fields that entitle an owner to webhooks: the person's own, or those of the organisation's subscriber
 * (planOf and fundsPool read them).
 */
export function ownerPlanFields(db: Db, owner: WebhookOwner) {
  const query = db.selectFrom("users").select(["users.plan_id", "users.subscription_status"])
  return owner.kind === "user"
    ? query.where("users.id", "=", owner.id).executeTakeFirst()
    : query.innerJoin("organizations", "organizations.subscriber_id", "users.id").where("organizations.id", "=", owner.id).executeTakeFirst()
}

/** The owners' endpoints that subscribed to `type` (every endpoint of the owners for webhook.test, chosen by id). */
export function subscribedEndpoints(db: Db, owners: WebhookOwner[], type: WebhookEventType): Promise<EndpointRow[]> {
  const users = owners.filter((owner) => owner.kind === "user").map((owner) => owner.id)
  const organizations = owners.filter((owner) => owner.kind === "organization").map((owner) => owner.id)
  if (users.length + organizations.length === 0) return Promise.resolve([])
  return db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where((eb) => eb.or([...(users.length ? [eb("user_id", "in", users)] : []), ...(organizations.length ? [eb("organization_id", "in", organizations)] : [])]))
    .where(sql<boolean>`events @> ${JSON.stringify([type])}::jsonb`)
    .execute()
}

export async function insertDelivery(db: Db, delivery: { id: string; endpointId: string; ownerKey: string; type: WebhookEventType; payload: string; now: Date }): Promise<void> {
  await db
    .insertInto("webhook_deliveries")
    .values({ id: delivery.id, endpoint_id: delivery.endpointId, owner_key: delivery.ownerKey, event_type: delivery.type, payload: delivery.payload, created_at: delivery.now, next_attempt_at: delivery.now })
    .execute()
}

export function latestDeliveries(db: Db, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  return db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", endpointId).orderBy("seq", "desc").limit(limit).execute()
}

/** Records a usage threshold of the owner's month; false when it was recorded already (its event went out before). */
export async function claimUsageThreshold(db: Db, key: string, month: string, threshold: number): Promise<boolean> {
  const row = await db.insertInto("webhook_usage_thresholds").values({ owner_key: key, month, threshold }).onConflict((conflict) => conflict.doNothing()).returning("threshold").executeTakeFirst()
  return row !== undefined
}

/** A claimed delivery with what the worker needs to send it: its endpoint's URL and sealed secret. */
export type ClaimedDelivery = DeliveryRow & { url: string; secret_sealed: string }

/**
 * Claims up to `limit` pending deliveries that are due and not claimed (or whose claim ran out: its worker died), for
 * `leaseMs`, at most `perOwner` in flight per owner counting those already claimed (the fairness: one owner's slow
 * receivers cannot take every worker). SKIP LOCKED (queue-claims.ts): workers of several instances claiming at once
 * never get the same row. The per-owner count is read before the lock, so two instances claiming at the same instant
 * may each take an owner's share: at most `perOwner` per owner per instance.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number, perOwner: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return []
  const claimed = await db
    .updateTable("webhook_deliveries")
    .set((eb) => ({ locked_until: new Date(now.getTime() + leaseMs), attempts: eb("attempts", "+", 1) }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("webhook_deliveries")
        .select("id")
        .where("id", "in", (inner) =>
          inner
            .selectFrom(
              inner
                .selectFrom("webhook_deliveries as due")
                .select([
                  "due.id",
                  sql<number>`row_number() over (partition by due.owner_key order by due.next_attempt_at, due.seq)`.as("rank"),
                  sql<number>`(select count(*) from webhook_deliveries busy where busy.owner_key = due.owner_key and busy.status = 'pending' and busy.locked_until > ${now})`.as("busy")
                ])
                .where("due.status", "=", "pending")
                .where("due.next_attempt_at", "<=", now)
                .where((row) => row.or([row("due.locked_until", "is", null), row("due.locked_until", "<=", now)]))
                .as("ranked")
            )
            .select("ranked.id")
            .where(sql<boolean>`ranked.rank + ranked.busy <= ${perOwner}`)
        )
        .where("status", "=", "pending")
        .$call((due) => unclaimedOldestFirst(due, now, limit))
    )
    .returning("id")
    .execute()
  if (claimed.length === 0) return []
  const rows = await db
    .selectFrom("webhook_deliveries")
    .innerJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
    .selectAll("webhook_deliveries")
    .select(["webhook_endpoints.url", "webhook_endpoints.secret_sealed"])
    .where(
      "webhook_deliveries.id",
      "in",
      claimed.map((row) => row.id)
    )
    .execute()
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq))
}

/** Keeps claims alive while their worker is still sending. */
export async function extendClaims(db: Db, ids: string[], until: Date): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable("webhook_deliveries").set({ locked_until: until }).where("id", "in", ids).where("status", "=", "pending").execute()
}

export async function markDelivered(db: Db, id: string, statusCode: number, now: Date): Promise<void> {
  await db.updateTable("webhook_deliveries").set({ status: "delivered", locked_until: null, last_status_code: statusCode, last_error: null, last_attempt_at: now, finished_at: now }).where("id", "=", id).execute()
}

/** An attempt failed at `now`: the next at `at`. */
export async function scheduleRetry(db: Db, id: string, now: Date, at: Date, result: { statusCode: number | null; error: string | null }): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ next_attempt_at: at, locked_until: null, last_status_code: result.statusCode, last_error: result.error, last_attempt_at: now })
    .where("id", "=", id)
    .execute()
}

export async function markFailed(db: Db, id: string, now: Date, result: { statusCode: number | null; error: string | null }): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ status: "failed", locked_until: null, last_status_code: result.statusCode, last_error: result.error, last_attempt_at: now, finished_at: now })
    .where("id", "=", id)
    .execute()
}

/** Frees every claim: only for a database no other process uses (the embedded one), at start, after a crash. */
export async function releaseAllClaims(db: Db): Promise<void> {
  await db.updateTable("webhook_deliveries").set({ locked_until: null }).where("locked_until", "is not", null).where("status", "=", "pending").execute()
}

/** Forgets deliveries delivered or given up before `before`, and the usage thresholds of past months. */
export async function purgeDone(db: Db, before: Date, month: string): Promise<void> {
  await db.deleteFrom("webhook_deliveries").where("status", "<>", "pending").where("finished_at", "<", before).execute()
  await db.deleteFrom("webhook_usage_thresholds").where("month", "<", month).execute()
}
