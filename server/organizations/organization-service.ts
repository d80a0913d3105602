/**
 * Organisations: who may do what (core's roles), the seats and invitations, and each membership change written to
 * the audit log in the change's own transaction. The invitation's e-mail goes through the durable outbox in the same
 * transaction as its row: an invitation acknowledged is never lost with its mail. The owner may require two-step
 * sign-in of every member (requireMfa, which the quota enforces on each draw from the pool).
 */
import { createHash, randomBytes } from "node:crypto"

import type { FastifyInstance } from "fastify"

import type { AuditEventKind } from "~core/admin/audit"
import {
  INVITATION_VALID_DAYS,
  managesMembers,
  MAX_ORGANIZATION_MEMBERS,
  ORGANIZATION_ACTIVITY_SHOWN,
  type AssignableRole,
  type Invitation,
  type Organization,
  type OrganizationActivity,
  type OrganizationRole,
  type OrganizationUpdate
} from "~core/organizations"
import { monthKey } from "~core/time"

import { recordAuditEvent } from "../audit/audit-log-store"
import type { Authenticated } from "../auth/authenticate"
import { hasSecondFactor } from "../auth/mfa/mfa-service"
import { fundsPool, planOf } from "../billing/plan"
import { inTransaction, type Db } from "../db/transaction"
import { ApiError, notFound } from "../http/errors"
import { EMAIL_TEMPLATES } from "../mail/email-templates"
import { queueEmail } from "../mail/outbox"
import { poolUsedThisMonth, quotaSourceOf, usedOf } from "../quota/quota-service"
import { queueWebhookEvent } from "../webhooks/webhook-events"
import { takeInvitationEmail } from "./invitation-limits"
import { logoUrlOf } from "./membership"
import * as store from "./organization-store"

const forbidden = (message: string) => new ApiError(403, "FORBIDDEN", message)
const noOrganization = () => notFound("You are not a member of an organisation.")
const alreadyMember = (message = "You already belong to an organisation. Leave it first.") => new ApiError(409, "ALREADY_IN_ORGANIZATION", message)
/** The rule binds the owner too: turned on without their own second factor, it would shut them out of the pool at once. */
const ownFactorFirst = () =>
  new ApiError(403, "MFA_ENROLLMENT_REQUIRED", "Turn on two-step sign-in for your own account first, on your dashboard: the rule applies to you too, and without it you could not use the team's plan.")

export const hashInvitationCode = (code: string) => createHash("sha256").update(code).digest("hex")

/**
 * What the subscriber is told, or told of them, when a change would end their membership or their admin role while
 * their subscription funds the pool: the pool would go on drawing on someone outside it.
 */
const SUBSCRIBER_REFUSALS = {
  remove: (name: string) =>
    `${name} pays for this organisation's Enterprise plan: they cannot be removed while it funds the pool. Once their subscription has ended they can be; or the owner can delete the organisation.`,
  demote: (name: string) => `${name} pays for this organisation's Enterprise plan: they stay an admin while it funds the pool.`,
  leave: () =>
    "You pay for this organisation's Enterprise plan: you cannot leave while it funds the pool. Cancel your subscription, and once it has ended you can leave; or ask the owner to delete the organisation."
}

/** 409 SUBSCRIBER_FUNDS_POOL when `userId` is the organisation's subscriber and their plan funds its pool now. */
async function refuseWhileFundingPool(db: Db, organizationId: string, userId: string, change: keyof typeof SUBSCRIBER_REFUSALS): Promise<void> {
  const subscriber = await store.subscriberOf(db, organizationId)
  if (subscriber.id !== userId || !fundsPool(subscriber)) return
  throw new ApiError(409, "SUBSCRIBER_FUNDS_POOL", SUBSCRIBER_REFUSALS[change](subscriber.name))
}

/** A unique-constraint violation: the row another request made at the same time. */
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505"

interface Change {
  actorId: string
  subjectId: string | null
  ip: string
  now: Date
}

const audit = (db: Db, kind: AuditEventKind, change: Change, detail: Record<string, string | boolean | null>) =>
  recordAuditEvent(db, { kind, actorId: change.actorId, subjectId: change.subjectId, detail, ip: change.ip }, change.now)

export function organizationService(app: FastifyInstance) {
  const db = app.database.db
  const now = () => new Date(app.clock())

  /** The caller's membership, or 404; with `manage`, 403 unless they are its owner or an admin. */
  const membershipOf = async (auth: Authenticated, need: "member" | "manage" | "owner" = "member") => {
    const membership = await store.findMembership(db, auth.user.id)
    if (!membership) throw noOrganization()
    if (need === "manage" && !managesMembers(membership.role)) throw forbidden("Only the organisation's owner and admins can do this.")
    if (need === "owner" && membership.role !== "owner") throw forbidden("Only the organisation's owner can do this.")
    return membership
  }

  const view = async (auth: Authenticated): Promise<Organization> => {
    const membership = await membershipOf(auth)
    const at = app.clock()
    const members = await store.listMembers(db, membership.organization_id, monthKey(at))
    // Who has two-step sign-in on is shown to those who manage the members (the owner sets the rule, admins ask people
    // to follow it); a plain member is not shown the others' security. At most 25 members: one look-up each.
    const twoStep = managesMembers(membership.role) ? await Promise.all(members.map((member) => hasSecondFactor(db, member.user_id))) : null
    const source = await quotaSourceOf(db, auth.user)
    const poolUsed = source.kind === "pool" ? await usedOf(db, auth.user.id, source, at) : await poolUsedThisMonth(db, membership.organization_id, at)
    return {
      id: membership.organization_id,
      name: membership.name,
      role: membership.role,
      members: members.map((member, index) => ({
        userId: member.user_id,
        email: member.email,
        name: member.name,
        role: member.role,
        usedThisMonth: member.used ?? 0,
        ...(twoStep ? { twoStep: twoStep[index] } : {})
      })),
      pool: { limit: membership.request_limit, used: poolUsed },
      brand: { name: membership.name, logoUrl: logoUrlOf(app.config.publicUrl, membership.organization_id, membership.logo_key), accentColor: membership.accent_color },
      subscriberId: membership.subscriber_id,
      requireMfa: membership.require_mfa
    }
  }

  /**
   * Why `userId` may not create an organisation, or null: they belong to one, or their subscription pays for one
   * they have left (an organisation has one subscriber, and a subscription funds one organisation).
   */
  const creationRefusal = async (userId: string): Promise<ApiError | null> => {
    const membership = await store.findMembership(db, userId)
    if (membership?.subscriber_id === userId) return alreadyMember(`You already have an organisation: ${membership.name}, which your Enterprise subscription pays for.`)
    if (membership) return alreadyMember(`You already belong to ${membership.name}. Leave it first to create your own.`)
    const funded = await store.organizationSubscribedBy(db, userId)
    if (!funded) return null
    return new ApiError(
      409,
      "SUBSCRIBER_FUNDS_POOL",
      `Your Enterprise subscription pays for ${funded.name}, though you are no longer one of its members. A subscription funds one organisation: ask its owner to invite you back, or to delete ${funded.name} before you create another.`
    )
  }

  return {
    view,

    async create(auth: Authenticated, input: { name: string }, ip: string): Promise<Organization> {
      if (planOf(auth.user) !== "enterprise") throw new ApiError(403, "PLAN_REQUIRED", "Organisations come with the Enterprise plan. Upgrade to create one.")
      const refusal = await creationRefusal(auth.user.id)
      if (refusal) throw refusal
      const at = now()
      try {
        await inTransaction(db, async (trx) => {
          // The Enterprise limit an admin set for this account becomes the pool's.
          const organizationId = await store.insertOrganization(trx, { name: input.name, subscriberId: auth.user.id, requestLimit: auth.user.request_limit, now: at })
          await store.insertMember(trx, { organizationId, userId: auth.user.id, role: "owner", now: at })
          await audit(trx, "organization.created", { actorId: auth.user.id, subjectId: auth.user.id, ip, now: at }, { organizationId, name: input.name })
        })
      } catch (error) {
        // Made at the same time by another request of theirs: refused in the words of what now exists.
        if (isUniqueViolation(error)) throw (await creationRefusal(auth.user.id)) ?? alreadyMember()
        throw error
      }
      return view(auth)
    },

    /** The name and colour (owner or admin); requireMfa (the owner alone, who needs a second factor to turn it on). */
    async update(auth: Authenticated, input: OrganizationUpdate, ip: string): Promise<Organization> {
      const membership = await membershipOf(auth, input.requireMfa === undefined ? "manage" : "owner")
      if (input.requireMfa === true && !membership.require_mfa && !(await hasSecondFactor(db, auth.user.id))) throw ownFactorFirst()
      await inTransaction(db, async (trx) => {
        // Locked, then read again: of two changes at once, the second sees the first's rule, and only a real change is audited.
        await store.lockOrganization(trx, membership.organization_id)
        const current = (await store.findMembership(trx, auth.user.id)) ?? membership
        await store.updateOrganization(trx, membership.organization_id, { name: input.name, accent_color: input.accentColor, require_mfa: input.requireMfa })
        if (input.name !== undefined && input.name !== membership.name) {
          await audit(trx, "organization.renamed", { actorId: auth.user.id, subjectId: null, ip, now: now() }, { organizationId: membership.organization_id, from: membership.name, to: input.name })
        }
        if (input.requireMfa !== undefined && input.requireMfa !== current.require_mfa) {
          await audit(trx, "organization.require_mfa_set", { actorId: auth.user.id, subjectId: null, ip, now: now() }, { organizationId: membership.organization_id, requireMfa: input.requireMfa })
        }
      })
      return view(auth)
    },

    /** The id of the organisation the caller may manage (or 403/404): checked before a logo is written anywhere. */
    async managedOrganizationId(auth: Authenticated): Promise<string> {
      return (await membershipOf(auth, "manage")).organization_id
    },

    async setLogo(auth: Authenticated, logoKey: string): Promise<{ previous: string | null; organization: Organization }> {
      const membership = await membershipOf(auth, "manage")
      await store.updateOrganization(db, membership.organization_id, { logo_key: logoKey })
      return { previous: membership.logo_key, organization: await view(auth) }
    },

    async invite(auth: Authenticated, input: { email: string; role: AssignableRole }, ip: string): Promise<Invitation> {
      const membership = await membershipOf(auth, "manage")
      const known = await store.userByEmail(db, input.email)
      if (known && (await store.findMembership(db, known.id))) {
        throw alreadyMember(known.id === auth.user.id ? "You are already a member." : `${input.email} already belongs to an organisation.`)
      }
      // Counted before the e-mail is queued, and given back if the invitation is refused after all.
      const giveBack = await takeInvitationEmail(app.limits, app.clock(), membership.organization_id, input.email)
      const code = randomBytes(32).toString("base64url")
      const at = now()
      const expiresAt = new Date(at.getTime() + INVITATION_VALID_DAYS * 24 * 60 * 60_000)
      const row = await inTransaction(db, async (trx) => {
        await store.lockOrganization(trx, membership.organization_id)
        // Sending again replaces the pending one: one live link per address.
        const pending = await store.findPendingInvitationTo(trx, membership.organization_id, input.email, at)
        if (pending) await store.markInvitation(trx, pending.id, { revoked_at: at })
        else if ((await store.countSeats(trx, membership.organization_id, at)) >= MAX_ORGANIZATION_MEMBERS) {
          throw new ApiError(409, "ORGANIZATION_FULL", `An organisation has at most ${MAX_ORGANIZATION_MEMBERS} members, invitations pending included.`)
        }
        const invitation = await store.insertInvitation(trx, { organizationId: membership.organization_id, email: input.email, role: input.role, codeHash: hashInvitationCode(code), invitedBy: auth.user.id, now: at, expiresAt })
        const link = `${app.config.publicUrl}/organization/join?code=${code}`
        const content = EMAIL_TEMPLATES.organizationInvitation({
          organizationName: membership.name,
          inviterName: auth.user.name,
          inviterEmail: auth.user.email,
          role: input.role,
          link,
          validDays: INVITATION_VALID_DAYS
        })
        await queueEmail(app, trx, { to: input.email, what: "organisation invitation", content })
        await audit(trx, "organization.member_invited", { actorId: auth.user.id, subjectId: known?.id ?? null, ip, now: at }, { organizationId: membership.organization_id, email: input.email, role: input.role })
        return invitation
      }).catch(async (error: unknown) => {
        await giveBack().catch((releaseError: unknown) => app.log.warn({ err: releaseError }, "an invitation's e-mail counts could not be given back"))
        throw error
      })
      return { id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at.toISOString() }
    },

    async activity(auth: Authenticated): Promise<OrganizationActivity[]> {
      const membership = await membershipOf(auth)
      const rows = await store.latestActivity(db, membership.organization_id, ORGANIZATION_ACTIVITY_SHOWN)
      const personOf = (name: string | null, email: string | null) => (name !== null && email !== null ? { name, email } : null)
      return rows.map((row) => ({
        kind: row.kind,
        actor: personOf(row.actor_name, row.actor_email),
        subject: personOf(row.subject_name, row.subject_email),
        detail: row.detail as OrganizationActivity["detail"],
        at: row.created_at.toISOString()
      }))
    },

    async invitations(auth: Authenticated): Promise<Invitation[]> {
      const membership = await membershipOf(auth, "manage")
      const rows = await store.listPendingInvitations(db, membership.organization_id, now())
      return rows.map((row) => ({ id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at.toISOString() }))
    },

    async revokeInvitation(auth: Authenticated, id: string, ip: string): Promise<void> {
      const membership = await membershipOf(auth, "manage")
      const at = now()
      await inTransaction(db, async (trx) => {
        const pending = (await store.listPendingInvitations(trx, membership.organization_id, at)).find((invitation) => invitation.id === id)
        if (!pending || !(await store.markInvitation(trx, id, { revoked_at: at }))) throw notFound("No pending invitation of your organisation has this id.")
        await audit(trx, "organization.invitation_revoked", { actorId: auth.user.id, subjectId: null, ip, now: at }, { organizationId: membership.organization_id, email: pending.email })
      })
    },

    async accept(auth: Authenticated, code: string, ip: string): Promise<Organization> {
      const at = now()
      const refused = (message: string) => new ApiError(400, "INVALID_OR_EXPIRED_CODE", message)
      await inTransaction(db, async (trx) => {
        const invitation = await store.findInvitationByCode(trx, hashInvitationCode(code))
        if (!invitation) throw refused("This invitation link is not valid. Ask for a new invitation.")
        if (invitation.revoked_at) throw refused("This invitation was withdrawn. Ask for a new invitation.")
        if (invitation.accepted_at) throw refused("This invitation has been used already.")
        if (invitation.expires_at.getTime() <= at.getTime()) throw refused(`This invitation expired: links work for ${INVITATION_VALID_DAYS} days. Ask for a new invitation.`)
        if (invitation.email !== auth.user.email.toLowerCase()) {
          throw new ApiError(403, "INVITATION_NOT_FOR_YOU", `This invitation was sent to another e-mail address. Sign in as ${invitation.email} to accept it.`)
        }
        if (await store.findMembership(trx, auth.user.id)) throw alreadyMember()
        if (planOf(auth.user) !== "free") {
          throw new ApiError(409, "CANCEL_SUBSCRIPTION_FIRST", `You have a plan of your own. Cancel it first; once it has ended you can join ${invitation.organization_name}.`)
        }
        if (!(await store.lockOrganization(trx, invitation.organization_id))) throw refused("This organisation no longer exists.")
        if ((await store.countMembers(trx, invitation.organization_id)) >= MAX_ORGANIZATION_MEMBERS) {
          throw new ApiError(409, "ORGANIZATION_FULL", `${invitation.organization_name} has ${MAX_ORGANIZATION_MEMBERS} members already.`)
        }
        await store.markInvitation(trx, invitation.id, { accepted_at: at })
        try {
          await store.insertMember(trx, { organizationId: invitation.organization_id, userId: auth.user.id, role: invitation.role, now: at })
        } catch (error) {
          if (isUniqueViolation(error)) throw alreadyMember()
          throw error
        }
        await audit(trx, "organization.member_joined", { actorId: auth.user.id, subjectId: auth.user.id, ip, now: at }, { organizationId: invitation.organization_id, role: invitation.role })
        const joined = { organizationId: invitation.organization_id, userId: auth.user.id, email: invitation.email, role: invitation.role }
        await queueWebhookEvent(app, trx, [{ kind: "organization", id: invitation.organization_id }], "member.joined", joined)
      })
      return view(auth)
    },

    async changeRole(auth: Authenticated, userId: string, role: AssignableRole, ip: string): Promise<Organization> {
      const membership = await membershipOf(auth, "manage")
      await inTransaction(db, async (trx) => {
        await store.lockOrganization(trx, membership.organization_id)
        const target = await targetMember(trx, membership.organization_id, userId)
        if (target.role === "owner") throw forbidden("The owner's role changes only by a transfer of ownership.")
        if (role === "member" && target.role === "admin") await refuseWhileFundingPool(trx, membership.organization_id, userId, "demote")
        await store.setMemberRole(trx, membership.organization_id, userId, role)
        await audit(trx, "organization.role_changed", { actorId: auth.user.id, subjectId: userId, ip, now: now() }, { organizationId: membership.organization_id, from: target.role, to: role })
      })
      return view(auth)
    },

    async removeMember(auth: Authenticated, userId: string, ip: string): Promise<void> {
      const leaving = userId === auth.user.id
      const membership = await membershipOf(auth, leaving ? "member" : "manage")
      await inTransaction(db, async (trx) => {
        await store.lockOrganization(trx, membership.organization_id)
        const target = await targetMember(trx, membership.organization_id, userId)
        if (target.role === "owner") {
          throw forbidden(leaving ? "The owner cannot leave: transfer the ownership first, or delete the organisation." : "The owner cannot be removed.")
        }
        await refuseWhileFundingPool(trx, membership.organization_id, userId, leaving ? "leave" : "remove")
        await store.removeMember(trx, membership.organization_id, userId)
        const kind = leaving ? "organization.member_left" : "organization.member_removed"
        await audit(trx, kind, { actorId: auth.user.id, subjectId: userId, ip, now: now() }, { organizationId: membership.organization_id, role: target.role })
        const removed = { organizationId: membership.organization_id, userId, role: target.role, reason: leaving ? "left" : "removed" }
        await queueWebhookEvent(app, trx, [{ kind: "organization", id: membership.organization_id }], "member.removed", removed)
      })
    },

    async transfer(auth: Authenticated, userId: string, ip: string): Promise<Organization> {
      const membership = await membershipOf(auth, "owner")
      if (userId === auth.user.id) throw new ApiError(400, "VALIDATION_FAILED", "You own the organisation already.", { details: ["userId: name another member"] })
      await inTransaction(db, async (trx) => {
        await store.lockOrganization(trx, membership.organization_id)
        await targetMember(trx, membership.organization_id, userId)
        // One owner at a time (a unique index): the former owner steps down first.
        await store.setMemberRole(trx, membership.organization_id, auth.user.id, "admin")
        await store.setMemberRole(trx, membership.organization_id, userId, "owner")
        await audit(trx, "organization.ownership_transferred", { actorId: auth.user.id, subjectId: userId, ip, now: now() }, { organizationId: membership.organization_id })
      })
      return view(auth)
    },

    async delete(auth: Authenticated, ip: string): Promise<{ logoKey: string | null }> {
      const membership = await membershipOf(auth, "owner")
      await inTransaction(db, async (trx) => {
        await store.deleteOrganization(trx, membership.organization_id)
        await audit(trx, "organization.deleted", { actorId: auth.user.id, subjectId: auth.user.id, ip, now: now() }, { organizationId: membership.organization_id, name: membership.name })
      })
      return { logoKey: membership.logo_key }
    }
  }
}

async function targetMember(db: Db, organizationId: string, userId: string): Promise<{ role: OrganizationRole }> {
  const target = await store.memberRole(db, organizationId, userId)
  if (!target) throw notFound("This person is not a member of your organisation.")
  return target
}
