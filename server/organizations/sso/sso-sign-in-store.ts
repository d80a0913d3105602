/** The queries of signing in through an organisation's provider: the started sign-ins, the one-time codes, who enforces. */
import type { Db } from "../../db/transaction"

/** The organisation whose verified domain this is and its provider, when it has set one up. */
export function findSsoForDomain(db: Db, domain: string) {
  return db
    .selectFrom("organization_domains")
    .innerJoin("organization_sso", "organization_sso.organization_id", "organization_domains.organization_id")
    .selectAll("organization_sso")
    .where("organization_domains.domain", "=", domain)
    .where("organization_domains.verified_at", "is not", null)
    .executeTakeFirst()
}

export async function isVerifiedDomainOf(db: Db, organizationId: string, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom("organization_domains")
    .select("domain")
    .where("organization_id", "=", organizationId)
    .where("domain", "=", domain)
    .where("verified_at", "is not", null)
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * The organisation that refuses other ways in for this domain (SSO enforced on it), with whether `userId` is its owner;
 * undefined when none does.
 */
export function findEnforcingOrganization(db: Db, domain: string, userId: string) {
  return db
    .selectFrom("organization_domains")
    .innerJoin("organization_sso", "organization_sso.organization_id", "organization_domains.organization_id")
    .innerJoin("organizations", "organizations.id", "organization_domains.organization_id")
    .leftJoin("organization_members as member", (join) =>
      join.onRef("member.organization_id", "=", "organization_domains.organization_id").on("member.user_id", "=", userId).on("member.role", "=", "owner")
    )
    .select(["organizations.name", "member.user_id as owner_id"])
    .where("organization_domains.domain", "=", domain)
    .where("organization_domains.verified_at", "is not", null)
    .where("organization_sso.enforced", "=", true)
    .executeTakeFirst()
}

export async function insertLogin(db: Db, login: { stateHash: string; organizationId: string; codeVerifier: string; nonce: string; expiresAt: Date }): Promise<void> {
  await db
    .insertInto("sso_logins")
    .values({ state_hash: login.stateHash, organization_id: login.organizationId, code_verifier: login.codeVerifier, nonce: login.nonce, expires_at: login.expiresAt })
    .execute()
}

/** The started sign-in of this state, taken once: a second callback with the same state finds nothing. */
export function takeLogin(db: Db, stateHash: string, now: Date) {
  return db.deleteFrom("sso_logins").where("state_hash", "=", stateHash).where("expires_at", ">", now).returningAll().executeTakeFirst()
}

export async function insertCode(db: Db, code: { codeHash: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insertInto("sso_codes").values({ code_hash: code.codeHash, user_id: code.userId, expires_at: code.expiresAt }).execute()
}

/** The user of a one-time code still valid, taken once. */
export async function takeCode(db: Db, codeHash: string, now: Date): Promise<string | undefined> {
  const row = await db.deleteFrom("sso_codes").where("code_hash", "=", codeHash).where("expires_at", ">", now).returning("user_id").executeTakeFirst()
  return row?.user_id
}

/** Forgets started sign-ins and codes that ran out, so that abandoned ones do not pile up. */
export async function purgeExpired(db: Db, now: Date): Promise<void> {
  await db.deleteFrom("sso_logins").where("expires_at", "<=", now).execute()
  await db.deleteFrom("sso_codes").where("expires_at", "<=", now).execute()
}
