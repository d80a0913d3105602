/** The queries of organisations: members and invitations (tables of migration 014); the pool's counters are the quota's (server/quota/). */
import { sql } from "kysely"

import type { AssignableRole, OrganizationRole } from "~core/organizations"

import type { Db } from "../db/transaction"

export interface MembershipRow {
  organization_id: string
  role: OrganizationRole
  name: string
  subscriber_id: string
  request_limit: number | null
  accent_color: string | null
  logo_key: string | null
  require_mfa: boolean
}

/** The organisation `userId` belongs to and their role there, or undefined. */
export function findMembership(db: Db, userId: string): Promise<MembershipRow | undefined> {
  return db
    .selectFrom("organization_members")
    .innerJoin("organizations", "organizations.id", "organization_members.organization_id")
    .select([
      "organization_members.organization_id",
      "organization_members.role",
      "organizations.name",
      "organizations.subscriber_id",
      "organizations.request_limit",
      "organizations.accent_color",
      "organizations.logo_key",
      "organizations.require_mfa"
    ])
    .where("organization_members.user_id", "=", userId)
    .executeTakeFirst()
}

/** Holds the organisation's row until the transaction ends: member counts and role changes wait for one another. */
export async function lockOrganization(db: Db, organizationId: string): Promise<boolean> {
  const row = await db.selectFrom("organizations").select("id").where("id", "=", organizationId).forUpdate().executeTakeFirst()
  return row !== undefined
}

export async function insertOrganization(db: Db, values: { name: string; subscriberId: string; requestLimit: number | null; now: Date }): Promise<string> {
  const { id } = await db
    .insertInto("organizations")
    .values({ name: values.name, subscriber_id: values.subscriberId, request_limit: values.requestLimit, created_at: values.now })
    .returning("id")
    .executeTakeFirstOrThrow()
  return id
}

export async function insertMember(db: Db, member: { organizationId: string; userId: string; role: OrganizationRole; now: Date }): Promise<void> {
  await db.insertInto("organization_members").values({ organization_id: member.organizationId, user_id: member.userId, role: member.role, joined_at: member.now }).execute()
}

/** Members with their name, address and this month's requests from the pool, the owner first, then by when they joined. */
export function listMembers(db: Db, organizationId: string, month: string) {
  return db
    .selectFrom("organization_members")
    .innerJoin("users", "users.id", "organization_members.user_id")
    .leftJoin("organization_member_usage as share", (join) =>
      join.onRef("share.organization_id", "=", "organization_members.organization_id").onRef("share.user_id", "=", "organization_members.user_id").on("share.month", "=", month)
    )
    .select(["organization_members.user_id", "organization_members.role", "users.email", "users.name", "share.used"])
    .where("organization_members.organization_id", "=", organizationId)
    .orderBy(sql`case organization_members.role when 'owner' then 0 when 'admin' then 1 else 2 end`)
    .orderBy("organization_members.joined_at")
    .execute()
}

/** Members and pending invitations: an invitation holds its seat until it is accepted, withdrawn or expired. */
export async function countSeats(db: Db, organizationId: string, now: Date): Promise<number> {
  const invited = await pendingInvitationsQuery(db, organizationId, now).select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow()
  return (await countMembers(db, organizationId)) + Number(invited.count)
}

const pendingInvitationsQuery = (db: Db, organizationId: string, now: Date) =>
  db
    .selectFrom("organization_invitations")
    .where("organization_id", "=", organizationId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)

export function listPendingInvitations(db: Db, organizationId: string, now: Date) {
  return pendingInvitationsQuery(db, organizationId, now).select(["id", "email", "role", "expires_at"]).orderBy("created_at", "desc").execute()
}

export async function findPendingInvitationTo(db: Db, organizationId: string, email: string, now: Date) {
  return pendingInvitationsQuery(db, organizationId, now).select("id").where("email", "=", email).executeTakeFirst()
}

export async function insertInvitation(
  db: Db,
  invitation: { organizationId: string; email: string; role: AssignableRole; codeHash: string; invitedBy: string; now: Date; expiresAt: Date }
) {
  return db
    .insertInto("organization_invitations")
    .values({
      organization_id: invitation.organizationId,
      email: invitation.email,
      role: invitation.role,
      code_hash: invitation.codeHash,
      invited_by: invitation.invitedBy,
      created_at: invitation.now,
      expires_at: invitation.expiresAt
    })
    .returning(["id", "email", "role", "expires_at"])
    .executeTakeFirstOrThrow()
}

/** The invitation with this code, locked until the transaction ends (two accepts of one code wait for each other). */
export function findInvitationByCode(db: Db, codeHash: string) {
  return db
    .selectFrom("organization_invitations")
    .innerJoin("organizations", "organizations.id", "organization_invitations.organization_id")
    .selectAll("organization_invitations")
    .select("organizations.name as organization_name")
    .where("code_hash", "=", codeHash)
    .forUpdate("organization_invitations")
    .executeTakeFirst()
}

export async function markInvitation(db: Db, id: string, change: { accepted_at: Date } | { revoked_at: Date }): Promise<boolean> {
  const result = await db.updateTable("organization_invitations").set(change).where("id", "=", id).where("accepted_at", "is", null).where("revoked_at", "is", null).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function updateOrganization(db: Db, organizationId: string, change: { name?: string; accent_color?: string | null; logo_key?: string | null; require_mfa?: boolean }): Promise<void> {
  await db.updateTable("organizations").set(change).where("id", "=", organizationId).execute()
}

export async function setMemberRole(db: Db, organizationId: string, userId: string, role: OrganizationRole): Promise<void> {
  await db.updateTable("organization_members").set({ role }).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute()
}

export async function removeMember(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("organization_members").where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function deleteOrganization(db: Db, organizationId: string): Promise<void> {
  await db.deleteFrom("organizations").where("id", "=", organizationId).execute()
}

/** The account whose subscription funds the organisation, with its name and plan columns. */
export function subscriberOf(db: Db, organizationId: string) {
  return db
    .selectFrom("organizations")
    .innerJoin("users", "users.id", "organizations.subscriber_id")
    .select(["users.id", "users.name", "users.plan_id", "users.subscription_status"])
    .where("organizations.id", "=", organizationId)
    .executeTakeFirstOrThrow()
}

/** The organisation `userId`'s subscription funds (one at most: subscriber_id is unique), or undefined. */
export function organizationSubscribedBy(db: Db, userId: string) {
  return db.selectFrom("organizations").select(["id", "name"]).where("subscriber_id", "=", userId).executeTakeFirst()
}

export function memberRole(db: Db, organizationId: string, userId: string) {
  return db.selectFrom("organization_members").select("role").where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst()
}

export async function countMembers(db: Db, organizationId: string): Promise<number> {
  const row = await db.selectFrom("organization_members").select((eb) => eb.fn.countAll<number>().as("count")).where("organization_id", "=", organizationId).executeTakeFirstOrThrow()
  return Number(row.count)
}

export function userByEmail(db: Db, email: string) {
  return db.selectFrom("users").select("id").where(sql`lower(email)`, "=", email.toLowerCase()).executeTakeFirst()
}

export function organizationForAdmin(db: Db, organizationId: string) {
  return db
    .selectFrom("organizations")
    .innerJoin("users", "users.id", "organizations.subscriber_id")
    .select(["organizations.id", "organizations.name", "organizations.subscriber_id", "organizations.request_limit", "users.email as subscriber_email"])
    .where("organizations.id", "=", organizationId)
    .executeTakeFirst()
}

export async function setRequestLimit(db: Db, organizationId: string, limit: number | null): Promise<void> {
  await db.updateTable("organizations").set({ request_limit: limit }).where("id", "=", organizationId).execute()
}

/** The organisation's latest audited changes, newest first, with who made them and whom they were about. */
export function latestActivity(db: Db, organizationId: string, limit: number) {
  return db
    .selectFrom("audit_events")
    .leftJoin("users as actor", "actor.id", "audit_events.actor_id")
    .leftJoin("users as subject", "subject.id", "audit_events.subject_id")
    .select(["audit_events.kind", "audit_events.detail", "audit_events.created_at", "actor.name as actor_name", "actor.email as actor_email", "subject.name as subject_name", "subject.email as subject_email"])
    // SCIM's changes of members (scim.user_*) are the organisation's too.
    .where((eb) => eb.or([eb("audit_events.kind", "like", "organization.%"), eb("audit_events.kind", "like", "scim.%")]))
    .where(sql<string>`audit_events.detail->>'organizationId'`, "=", organizationId)
    .orderBy("audit_events.created_at", "desc")
    .orderBy("audit_events.id", "desc")
    .limit(limit)
    .execute()
}
