/**
 * A site admin's view of an organisation and the pool's monthly limit they set (the admin panel's pages read these;
 * issue 27 builds them). Setting a limit is audited: who, which organisation, from what to what.
 */
import type { FastifyInstance } from "fastify"

import type { AdminOrganization } from "~core/organizations"

import { monthKey } from "~core/time"
import { recordAuditEvent } from "../audit/audit-log-store"
import { inTransaction } from "../db/transaction"
import { notFound } from "../http/errors"
import { poolUsedThisMonth } from "../quota/quota-service"
import * as store from "./organization-store"

export function adminOrganizationService(app: FastifyInstance) {
  const db = app.database.db

  const read = async (organizationId: string): Promise<AdminOrganization> => {
    const organization = await store.organizationForAdmin(db, organizationId)
    if (!organization) throw notFound("No organisation has this id.")
    const at = app.clock()
    const members = await store.listMembers(db, organizationId, monthKey(at))
    return {
      id: organization.id,
      name: organization.name,
      subscriber: { id: organization.subscriber_id, email: organization.subscriber_email },
      pool: { limit: organization.request_limit, used: await poolUsedThisMonth(db, organizationId, at) },
      members: members.map((member) => ({ userId: member.user_id, email: member.email, name: member.name, role: member.role, usedThisMonth: member.used ?? 0 }))
    }
  }

  return {
    read,

    async setLimit(adminId: string, organizationId: string, limit: number | null, ip: string): Promise<AdminOrganization> {
      const before = await read(organizationId)
      await inTransaction(db, async (trx) => {
        await store.setRequestLimit(trx, organizationId, limit)
        const detail = { organizationId, from: before.pool.limit, to: limit }
        await recordAuditEvent(trx, { kind: "organization.limit_set", actorId: adminId, subjectId: before.subscriber.id, detail, ip }, new Date(app.clock()))
      })
      return read(organizationId)
    }
  }
}
