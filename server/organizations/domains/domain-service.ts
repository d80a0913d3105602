/**
 * An organisation's e-mail domains: its owner claims one and proves it with a DNS TXT record; the owner and admins
 * see them. A domain is verified by one organisation at most (the database's unique index decides between two at
 * once). Each change is audited with the organisation's id, as the organisation's own events are.
 */
import type { FastifyInstance } from "fastify"

import { managesMembers } from "~core/organizations"
import { domainRecordFor, MAX_ORGANIZATION_DOMAINS, type OrganizationDomain } from "~core/organization-domains"

import { recordAuditEvent } from "../../audit/audit-log-store"
import type { Authenticated } from "../../auth/authenticate"
import { randomToken } from "../../auth/tokens"
import type { Db } from "../../db/transaction"
import { ApiError, notFound } from "../../http/errors"
import { findMembership, lockOrganization } from "../organization-store"
import { takeOutboundCheck } from "../outbound-checks"
import * as store from "./domain-store"
import { txtRecords } from "./txt-records"

type DomainRow = NonNullable<Awaited<ReturnType<typeof store.findDomain>>>
type DomainEvent = "organization.domain_added" | "organization.domain_verified" | "organization.domain_removed"

const toView = (row: DomainRow): OrganizationDomain => ({
  domain: row.domain,
  verified: row.verified_at !== null,
  verifiedAt: row.verified_at ? new Date(row.verified_at).toISOString() : null,
  record: domainRecordFor(row.domain, row.token)
})

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505"
const noDomain = (domain: string) => notFound(`Your organisation has not added ${domain}.`)

export function domainService(app: FastifyInstance) {
  const db = app.database.db
  const now = () => new Date(app.clock())

  const membershipOf = async (auth: Authenticated, need: "manage" | "owner") => {
    const membership = await findMembership(db, auth.user.id)
    if (!membership) throw notFound("You are not a member of an organisation.")
    if (need === "owner" && membership.role !== "owner") throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner can change its domains.")
    if (need === "manage" && !managesMembers(membership.role)) throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner and admins can see its domains.")
    return membership
  }

  const audit = (trx: Db, kind: DomainEvent, auth: Authenticated, organizationId: string, domain: string, ip: string) =>
    recordAuditEvent(trx, { kind, actorId: auth.user.id, subjectId: null, detail: { organizationId, domain }, ip }, now())

  return {
    async list(auth: Authenticated) {
      const membership = await membershipOf(auth, "manage")
      return { domains: (await store.listDomains(db, membership.organization_id)).map(toView) }
    },

    /** A claim with the record to add; at most MAX_ORGANIZATION_DOMAINS, counted under the organisation's lock. */
    async add(auth: Authenticated, domain: string, ip: string): Promise<OrganizationDomain> {
      const membership = await membershipOf(auth, "owner")
      return db.transaction().execute(async (trx) => {
        await lockOrganization(trx, membership.organization_id)
        if ((await store.countDomains(trx, membership.organization_id)) >= MAX_ORGANIZATION_DOMAINS) {
          throw new ApiError(409, "TOO_MANY_DOMAINS", `An organisation can add up to ${MAX_ORGANIZATION_DOMAINS} domains. Remove one you no longer use first.`)
        }
        const claim = await store.insertDomain(trx, { organizationId: membership.organization_id, domain, token: randomToken(24), now: now() })
        if (!claim) throw new ApiError(409, "DOMAIN_ALREADY_ADDED", `${domain} is already one of your organisation's domains.`)
        await audit(trx, "organization.domain_added", auth, membership.organization_id, domain, ip)
        return toView(claim)
      })
    },

    /** Looks the TXT record up; verified when one of its values is the claim's, unless another organisation was first. */
    async verify(auth: Authenticated, domain: string, ip: string): Promise<OrganizationDomain> {
      const membership = await membershipOf(auth, "owner")
      const claim = await store.findDomain(db, membership.organization_id, domain)
      if (!claim) throw noDomain(domain)
      if (claim.verified_at) return toView(claim)
      await takeOutboundCheck(app, membership.organization_id, "dns")
      const record = domainRecordFor(domain, claim.token)
      const answer = await txtRecords(app.config.dnsServers, record.name)
      if (answer.outcome === "unreachable") {
        throw new ApiError(503, "DNS_UNAVAILABLE", `The DNS servers did not answer for ${record.name} (${answer.code}). Please try again in a moment.`)
      }
      if (answer.outcome === "none") throw new ApiError(400, "DOMAIN_NOT_VERIFIED", `No TXT record was found at ${record.name}. Add it at your DNS provider; changes can take a few minutes to appear.`)
      if (!answer.values.includes(record.value)) {
        throw new ApiError(400, "DOMAIN_NOT_VERIFIED", `The TXT record at ${record.name} does not hold ${record.value}. Check its value at your DNS provider.`)
      }
      try {
        return await db.transaction().execute(async (trx) => {
          const verified = await store.markVerified(trx, membership.organization_id, domain, now())
          // Verified by a request of this organisation at the same moment.
          if (!verified) return toView((await store.findDomain(trx, membership.organization_id, domain)) ?? claim)
          await audit(trx, "organization.domain_verified", auth, membership.organization_id, domain, ip)
          return toView(verified)
        })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        throw new ApiError(409, "DOMAIN_TAKEN", `${domain} is verified by another organisation. Ask us at support if your company owns it.`)
      }
    },

    async remove(auth: Authenticated, domain: string, ip: string) {
      const membership = await membershipOf(auth, "owner")
      await db.transaction().execute(async (trx) => {
        if (!(await store.deleteDomain(trx, membership.organization_id, domain))) throw noDomain(domain)
        await audit(trx, "organization.domain_removed", auth, membership.organization_id, domain, ip)
      })
      return { removed: true as const }
    }
  }
}
