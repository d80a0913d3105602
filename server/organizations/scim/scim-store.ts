/** The queries of SCIM provisioning: an organisation's tokens, and its members as SCIM sees them (tables of migration 026). */
import { sql } from "kysely"

import type { Db } from "../../db/transaction"

export function countLiveTokens(db: Db, organizationId: string): Promise<number> {
  return db
    .selectFrom("scim_tokens")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("organization_id", "=", organizationId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.count))
}

export function insertToken(db: Db, token: { organizationId: string; tokenHash: string; createdBy: string; now: Date }) {
  return db
    .insertInto("scim_tokens")
    .values({ organization_id: token.organizationId, token_hash: token.tokenHash, created_by: token.createdBy, created_at: token.now })
    .returning(["id", "created_at", "last_used_at"])
    .executeTakeFirstOrThrow()
}

/** The organisation's live tokens with their creator's address, newest first. */
export function listLiveTokens(db: Db, organizationId: string) {
  return db
    .selectFrom("scim_tokens")
    .leftJoin("users", "users.id", "scim_tokens.created_by")
    .select(["scim_tokens.id", "scim_tokens.created_at", "scim_tokens.last_used_at", "users.email as created_by_email"])
    .where("scim_tokens.organization_id", "=", organizationId)
    .where("scim_tokens.revoked_at", "is", null)
    .orderBy("scim_tokens.created_at", "desc")
    .orderBy("scim_tokens.id")
    .execute()
}

/** Revokes a live token of the organisation; false when it has none with this id. */
export async function revokeToken(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  const result = await db.updateTable("scim_tokens").set({ revoked_at: now }).where("id", "=", id).where("organization_id", "=", organizationId).where("revoked_at", "is", null).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The live token with this hash and its organisation, or undefined (unknown or revoked). */
export function findLiveToken(db: Db, tokenHash: string) {
  return db.selectFrom("scim_tokens").select(["id", "organization_id", "last_used_at"]).where("token_hash", "=", tokenHash).where("revoked_at", "is", null).executeTakeFirst()
}

/** Notes the token's use, at most once a minute: a sync of many calls writes its row once. */
export async function touchToken(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable("scim_tokens")
    .set({ last_used_at: now })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", new Date(now.getTime() - 60_000))]))
    .execute()
}

/** How GET /Users narrows: one attribute equal to one value (userName and emails.value compare without case). */
export type MemberFilter = { attribute: "userName" | "externalId" | "id"; value: string } | null

const membersQuery = (db: Db, organizationId: string, filter: MemberFilter) => {
  let query = db
    .selectFrom("organization_members")
    .innerJoin("users", "users.id", "organization_members.user_id")
    .leftJoin("scim_members", "scim_members.user_id", "organization_members.user_id")
    .where("organization_members.organization_id", "=", organizationId)
  if (filter?.attribute === "userName") query = query.where(sql`lower(users.email)`, "=", filter.value.toLowerCase())
  if (filter?.attribute === "externalId") query = query.where("scim_members.external_id", "=", filter.value)
  if (filter?.attribute === "id") query = query.where("organization_members.user_id", "=", filter.value)
  return query
}

const MEMBER_COLUMNS = [
  "organization_members.user_id",
  "organization_members.role",
  "organization_members.joined_at",
  "users.email",
  "users.name",
  "users.updated_at as user_updated_at",
  "scim_members.external_id",
  "scim_members.given_name",
  "scim_members.family_name",
  "scim_members.provisioned",
  "scim_members.suspended_at",
  "scim_members.updated_at as scim_updated_at"
] as const

export function listMembers(db: Db, organizationId: string, filter: MemberFilter, page: { offset: number; limit: number }) {
  return membersQuery(db, organizationId, filter).select(MEMBER_COLUMNS).orderBy("organization_members.joined_at").orderBy("organization_members.user_id").offset(page.offset).limit(page.limit).execute()
}

export async function countMembers(db: Db, organizationId: string, filter: MemberFilter): Promise<number> {
  const row = await membersQuery(db, organizationId, filter).select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow()
  return Number(row.count)
}

export function findMember(db: Db, organizationId: string, userId: string) {
  return membersQuery(db, organizationId, { attribute: "id", value: userId }).select(MEMBER_COLUMNS).executeTakeFirst()
}
export type ScimMemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>

export async function updateUser(db: Db, userId: string, change: { email?: string; name?: string }, now: Date): Promise<void> {
  await db.updateTable("users").set({ ...change, updated_at: now }).where("id", "=", userId).execute()
}

export interface ScimMemberValues {
  organizationId: string
  userId: string
  externalId: string | null
  givenName: string | null
  familyName: string | null
  suspendedAt: Date | null
  /** Set only when the row is made; SCIM never turns an existing account into a provisioned one later. */
  provisioned?: boolean
  now: Date
}

export async function saveMember(db: Db, member: ScimMemberValues): Promise<void> {
  const values = { external_id: member.externalId, given_name: member.givenName, family_name: member.familyName, suspended_at: member.suspendedAt, updated_at: member.now }
  await db
    .insertInto("scim_members")
    .values({ user_id: member.userId, organization_id: member.organizationId, provisioned: member.provisioned ?? false, ...values })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet(values))
    .execute()
}

/** Whether an organisation has suspended `userId`: read on every authenticated call, so it holds on every instance at once. */
export async function isSuspended(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("scim_members").select("user_id").where("user_id", "=", userId).where("suspended_at", "is not", null).executeTakeFirst()
  return row !== undefined
}
