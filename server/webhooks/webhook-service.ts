/**
 * Webhook endpoints: a Pro person manages their own; an Enterprise organisation's owner and admins manage the
 * organisation's (a member of an organisation manages none of their own: the organisation's are theirs). An endpoint's
 * URL goes through the SSRF guard when it is added (and at every send); its secret, `whsec_` and 32 random bytes in
 * base64, is answered once and kept sealed with the server's key. Each addition and removal is audited.
 */
import { randomBytes, randomUUID } from "node:crypto"

import type { FastifyInstance } from "fastify"

import { managesMembers } from "~core/organizations"
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_DELIVERIES_SHOWN, type CreatedWebhook, type CreateWebhookRequest, type WebhookDelivery, type WebhookEndpoint } from "~core/webhooks"

import { checkPublicUrl } from "../http/ssrf-guard"
import { recordAuditEvent } from "../audit/audit-log-store"
import type { Authenticated } from "../auth/authenticate"
import { seal } from "../auth/mfa/secret-box"
import { fundsPool, planOf } from "../billing/plan"
import { isUuid } from "../db/uuid"
import { ApiError, notFound } from "../http/errors"
import { findMembership, subscriberOf } from "../organizations/organization-store"
import { queueTestEvent } from "./webhook-events"
import { WEBHOOK_URL_WORDS } from "./webhook-sender"
import * as store from "./webhook-store"
import { webhookSecretPurpose } from "./webhook-worker"

const planRequired = () => new ApiError(403, "PLAN_REQUIRED", "Webhooks come with the Pro plan and Enterprise organisations. Upgrade to add one.")
const noSuchEndpoint = () => notFound("There is no webhook with this id.")

const toView = (row: store.EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events.filter((event) => event !== "webhook.test") as WebhookEndpoint["events"],
  owner: row.user_id ? "user" : "organization",
  createdAt: row.created_at.toISOString()
})

const deliveryView = (row: store.DeliveryRow): WebhookDelivery => {
  // An attempt has failed (last_attempt_at is set when an attempt ends), and the next is waited for or under way.
  const retrying = row.status === "pending" && row.last_attempt_at !== null
  return {
    id: row.id,
    event: row.event_type,
    status: row.status === "pending" ? (retrying ? "retrying" : "pending") : row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    nextAttemptAt: row.status === "pending" ? row.next_attempt_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null
  }
}

export function webhookService(app: FastifyInstance) {
  const db = app.database.db

  /** Whose endpoints the caller manages, or 403 (Free; an organisation's plain member; not from the extension). */
  const ownerOf = async (auth: Authenticated): Promise<store.WebhookOwner> => {
    if (auth.client !== "site") throw new ApiError(403, "FORBIDDEN", "Webhooks can only be managed on the website.")
    const membership = await findMembership(db, auth.user.id)
    if (membership) {
      if (!managesMembers(membership.role)) throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner and admins manage its webhooks.")
      if (!fundsPool(await subscriberOf(db, membership.organization_id))) throw planRequired()
      return { kind: "organization", id: membership.organization_id }
    }
    if (planOf(auth.user) === "free") throw planRequired()
    return { kind: "user", id: auth.user.id }
  }

  const endpointOf = async (owner: store.WebhookOwner, id: string) => {
    const endpoint = isUuid(id) ? await store.findEndpoint(db, owner, id) : undefined
    if (!endpoint) throw noSuchEndpoint()
    return endpoint
  }

  const audited = (owner: store.WebhookOwner, auth: Authenticated) => ({
    actorId: auth.user.id,
    subjectId: owner.kind === "user" ? owner.id : null,
    ownerDetail: { organizationId: owner.kind === "organization" ? owner.id : null }
  })

  return {
    async create(auth: Authenticated, input: CreateWebhookRequest, ip: string): Promise<CreatedWebhook> {
      const owner = await ownerOf(auth)
      await checkPublicUrl(input.url, { allowLoopback: app.config.webhooksAllowLoopback }, AbortSignal.timeout(10_000), WEBHOOK_URL_WORDS)
      const id = randomUUID()
      const secret = `whsec_${randomBytes(32).toString("base64")}`
      const now = new Date(app.clock())
      const row = await db.transaction().execute(async (trx) => {
        await store.lockOwner(trx, owner)
        if ((await store.countEndpoints(trx, owner)) >= MAX_WEBHOOK_ENDPOINTS) {
          throw new ApiError(409, "WEBHOOK_LIMIT_REACHED", `An account holds ${MAX_WEBHOOK_ENDPOINTS} webhooks at most. Remove one you no longer use to add another.`)
        }
        const created = await store.insertEndpoint(trx, { id, owner, url: input.url, events: input.events, secretSealed: seal(secret, app.sealingKeys, webhookSecretPurpose(id)), createdBy: auth.user.id, now })
        const { actorId, subjectId, ownerDetail } = audited(owner, auth)
        await recordAuditEvent(trx, { kind: "webhook.created", actorId, subjectId, target: input.url, detail: { endpointId: id, url: input.url, events: input.events.join(", "), ...ownerDetail }, ip }, now)
        return created
      })
      return { ...toView(row), secret }
    },

    async list(auth: Authenticated): Promise<WebhookEndpoint[]> {
      return (await store.listEndpoints(db, await ownerOf(auth))).map(toView)
    },

    async remove(auth: Authenticated, id: string, ip: string): Promise<void> {
      const owner = await ownerOf(auth)
      if (!isUuid(id)) throw noSuchEndpoint()
      const now = new Date(app.clock())
      await db.transaction().execute(async (trx) => {
        const removed = await store.deleteEndpoint(trx, owner, id)
        if (!removed) throw noSuchEndpoint()
        const { actorId, subjectId, ownerDetail } = audited(owner, auth)
        await recordAuditEvent(trx, { kind: "webhook.deleted", actorId, subjectId, target: removed.url, detail: { endpointId: id, url: removed.url, ...ownerDetail }, ip }, now)
      })
    },

    /** Queues a webhook.test event for the endpoint; answers its delivery's id (the webhook-id it is sent with). */
    async test(auth: Authenticated, id: string): Promise<{ deliveryId: string }> {
      const owner = await ownerOf(auth)
      const endpoint = await endpointOf(owner, id)
      const [deliveryId] = await db.transaction().execute((trx) => queueTestEvent(app, trx, endpoint))
      return { deliveryId: deliveryId! }
    },

    async deliveries(auth: Authenticated, id: string): Promise<WebhookDelivery[]> {
      const endpoint = await endpointOf(await ownerOf(auth), id)
      return (await store.latestDeliveries(db, endpoint.id, WEBHOOK_DELIVERIES_SHOWN)).map(deliveryView)
    }
  }
}
