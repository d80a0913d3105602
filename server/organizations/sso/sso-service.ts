/**
 * An organisation's single sign-on settings: its owner saves the provider (checked by reading its discovery document
 * first), the client secret sealed with the server's key and never answered back; the owner and admins read them.
 * Each change is audited with the organisation's id.
 */
import type { FastifyInstance } from "fastify"

import type { SsoSettings, SsoSettingsRequest, SsoTestResult } from "~core/organization-sso"
import { managesMembers } from "~core/organizations"

import { recordAuditEvent } from "../../audit/audit-log-store"
import type { Authenticated } from "../../auth/authenticate"
import { seal } from "../../auth/mfa/secret-box"
import { ApiError, notFound } from "../../http/errors"
import { findMembership } from "../organization-store"
import { takeOutboundCheck } from "../outbound-checks"
import { discoverProvider } from "./identity-provider"
import * as store from "./sso-store"

type SsoRow = NonNullable<Awaited<ReturnType<typeof store.findSso>>>

export const ssoSecretPurpose = (organizationId: string) => `sso-client-secret:${organizationId}`

const toView = (row: SsoRow | undefined): SsoSettings =>
  row
    ? { configured: true, issuer: row.issuer, clientId: row.client_id, enforced: row.enforced, updatedAt: new Date(row.updated_at).toISOString() }
    : { configured: false, issuer: null, clientId: null, enforced: false, updatedAt: null }

export function ssoService(app: FastifyInstance) {
  const db = app.database.db

  const membershipOf = async (auth: Authenticated, need: "manage" | "owner") => {
    const membership = await findMembership(db, auth.user.id)
    if (!membership) throw notFound("You are not a member of an organisation.")
    if (need === "owner" && membership.role !== "owner") throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner can change its single sign-on.")
    if (need === "manage" && !managesMembers(membership.role)) throw new ApiError(403, "FORBIDDEN", "Only the organisation's owner and admins can see its single sign-on.")
    return membership
  }

  return {
    async read(auth: Authenticated): Promise<SsoSettings> {
      const membership = await membershipOf(auth, "manage")
      return toView(await store.findSso(db, membership.organization_id))
    },

    /** Reads the provider's discovery document with these settings, saving nothing: the owner's *Test*. */
    async test(auth: Authenticated, input: SsoSettingsRequest): Promise<SsoTestResult> {
      const membership = await membershipOf(auth, "owner")
      await takeOutboundCheck(app, membership.organization_id, "sso-provider")
      const metadata = (await discoverProvider(input, app.config.ssoAllowInsecureIssuer)).serverMetadata()
      return { issuer: metadata.issuer, authorizationEndpoint: metadata.authorization_endpoint ?? null }
    },

    /** Saved only once the provider's discovery document was read with these settings. */
    async save(auth: Authenticated, input: SsoSettingsRequest, ip: string): Promise<SsoSettings> {
      const membership = await membershipOf(auth, "owner")
      const organizationId = membership.organization_id
      await takeOutboundCheck(app, organizationId, "sso-provider")
      await discoverProvider(input, app.config.ssoAllowInsecureIssuer)
      const now = new Date(app.clock())
      return db.transaction().execute(async (trx) => {
        const saved = await store.saveSso(trx, {
          organizationId,
          issuer: input.issuer,
          clientId: input.clientId,
          clientSecretSealed: seal(input.clientSecret, app.sealingKeys, ssoSecretPurpose(organizationId)),
          enforced: input.enforced,
          now
        })
        await recordAuditEvent(trx, { kind: "organization.sso_set", actorId: auth.user.id, subjectId: null, detail: { organizationId, issuer: input.issuer, enforced: input.enforced }, ip }, now)
        return toView(saved)
      })
    },

    async remove(auth: Authenticated, ip: string): Promise<SsoSettings> {
      const membership = await membershipOf(auth, "owner")
      const organizationId = membership.organization_id
      await db.transaction().execute(async (trx) => {
        if (!(await store.deleteSso(trx, organizationId))) throw notFound("Your organisation has no single sign-on set up.")
        await recordAuditEvent(trx, { kind: "organization.sso_removed", actorId: auth.user.id, subjectId: null, detail: { organizationId }, ip }, new Date(app.clock()))
      })
      return toView(undefined)
    }
  }
}
