/**
 * An organisation's SCIM tokens: its owner creates one for the identity provider (shown once, stored as its hash) and
 * revokes it; the owner and admins list them. At most MAX_SCIM_TOKENS live at once, counted under the organisation's
 * lock, so parallel creations cannot pass the cap. Only an organisation its subscriber's Enterprise plan funds gets a
 * new token; one made before keeps working after, so that people who leave can still be removed. Each change is
 * audited with the organisation's id.
 *
 * A call to /scim/v2 is authorised here: a live token, read from the database on every call (a revoked one stops at
 * once on every instance), and the organisation's share of SCIM_RATE_LIMIT in the shared limits.
 */
import type { FastifyInstance, FastifyRequest } from "fastify"

import { managesMembers } from "~core/organizations"
import { MAX_SCIM_TOKENS, SCIM_RATE_LIMIT, SCIM_TOKEN_PREFIX, type ScimToken } from "~core/scim"

import { recordAuditEvent } from "../../audit/audit-log-store"
import { bearerToken, type Authenticated } from "../../auth/authenticate"
import { hashToken, randomToken } from "../../auth/tokens"
import { fundsPool } from "../../billing/plan"
import { inTransaction } from "../../db/transaction"
import { isUuid } from "../../db/uuid"
import { ApiError, notFound } from "../../http/errors"
import { retryAfterSeconds } from "../../limits/limit-store"
import { findMembership, lockOrganization, subscriberOf } from "../organization-store"
import { ScimError } from "./scim-protocol"
import type { ScimCaller } from "./scim-service"
import * as store from "./scim-store"

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

export function scimTokenService(app: FastifyInstance) {
  const db = app.database.db
  const now = () => new Date(app.clock())

  const membershipOf = async (auth: Authenticated, need: "manage" | "owner") => {
    const membership = await findMembership(db, auth.user.id)
    if (!membership) throw notFound("You are not a member of an organisation.")
    if (need === "owner" && membership.role !== "owner") throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner can create and revoke its SCIM tokens.")
    if (need === "manage" && !managesMembers(membership.role)) throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner and admins can see its SCIM tokens.")
    return membership
  }

  return {
    async list(auth: Authenticated): Promise<{ tokens: ScimToken[] }> {
      const membership = await membershipOf(auth, "manage")
      const rows = await store.listLiveTokens(db, membership.organization_id)
      return { tokens: rows.map((row) => ({ id: row.id, createdAt: new Date(row.created_at).toISOString(), createdBy: row.created_by_email, lastUsedAt: iso(row.last_used_at) })) }
    },

    async create(auth: Authenticated, ip: string): Promise<ScimToken & { token: string }> {
      const membership = await membershipOf(auth, "owner")
      const organizationId = membership.organization_id
      if (!fundsPool(await subscriberOf(db, organizationId))) {
        throw new ApiError(403, "PLAN_REQUIRED", "Provisioning with SCIM comes with the Enterprise plan, and your organisation's subscription has ended.")
      }
      const token = `${SCIM_TOKEN_PREFIX}${randomToken(32)}`
      const at = now()
      const row = await inTransaction(db, async (trx) => {
        await lockOrganization(trx, organizationId)
        if ((await store.countLiveTokens(trx, organizationId)) >= MAX_SCIM_TOKENS) {
          throw new ApiError(409, "TOO_MANY_SCIM_TOKENS", `An organisation can have up to ${MAX_SCIM_TOKENS} SCIM tokens. Revoke one you no longer use first.`)
        }
        const created = await store.insertToken(trx, { organizationId, tokenHash: hashToken(token), createdBy: auth.user.id, now: at })
        await recordAuditEvent(trx, { kind: "organization.scim_token_created", actorId: auth.user.id, subjectId: null, detail: { organizationId, scimTokenId: created.id }, ip }, at)
        return created
      })
      return { id: row.id, token, createdAt: new Date(row.created_at).toISOString(), createdBy: auth.user.email, lastUsedAt: null }
    },

    async revoke(auth: Authenticated, id: string, ip: string): Promise<{ revoked: true }> {
      const membership = await membershipOf(auth, "owner")
      const organizationId = membership.organization_id
      await inTransaction(db, async (trx) => {
        if (!isUuid(id) || !(await store.revokeToken(trx, organizationId, id, now()))) throw notFound("Your organisation has no live SCIM token with this id.")
        await recordAuditEvent(trx, { kind: "organization.scim_token_revoked", actorId: auth.user.id, subjectId: null, detail: { organizationId, scimTokenId: id }, ip }, now())
      })
      return { revoked: true }
    },

    /** The caller of a /scim/v2 call: 401 without a live token, 429 past the organisation's rate. */
    async authorise(request: FastifyRequest): Promise<ScimCaller> {
      const token = bearerToken(request)
      const found = token?.startsWith(SCIM_TOKEN_PREFIX) ? await store.findLiveToken(db, hashToken(token)) : undefined
      if (!found) throw new ScimError(401, "A SCIM token of your organisation is required: Authorization: Bearer iqa_scim_… (it may have been revoked).")
      const answer = await app.limits.take(`scim-rate:${found.organization_id}`, SCIM_RATE_LIMIT.requests, SCIM_RATE_LIMIT.windowMs, app.clock())
      if (!answer.taken) throw new ScimError(429, `Your organisation's SCIM tokens made ${SCIM_RATE_LIMIT.requests} calls in the last minute. Try again in ${retryAfterSeconds(answer)} seconds.`, undefined, retryAfterSeconds(answer))
      await store.touchToken(db, found.id, now())
      return { organizationId: found.organization_id, tokenId: found.id, ip: request.ip }
    }
  }
}
