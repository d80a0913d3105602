/** The queries of an organisation's e-mail domains. */
import type { Db } from "../../db/transaction"

export function listDomains(db: Db, organizationId: string) {
  return db.selectFrom("organization_domains").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("domain").execute()
}

export function findDomain(db: Db, organizationId: string, domain: string) {
  return db.selectFrom("organization_domains").selectAll().where("organization_id", "=", organizationId).where("domain", "=", domain).executeTakeFirst()
}

export async function countDomains(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("organization_domains")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("organization_id", "=", organizationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** A new claim; undefined when the organisation has claimed the domain already. */
export function insertDomain(db: Db, claim: { organizationId: string; domain: string; token: string; now: Date }) {
  return db
    .insertInto("organization_domains")
    .values({ organization_id: claim.organizationId, domain: claim.domain, token: claim.token, created_at: claim.now })
    .onConflict((conflict) => conflict.columns(["organization_id", "domain"]).doNothing())
    .returningAll()
    .executeTakeFirst()
}

/** Marks the claim verified, once; throws a unique violation when another organisation verified the domain first. */
export function markVerified(db: Db, organizationId: string, domain: string, now: Date) {
  return db
    .updateTable("organization_domains")
    .set({ verified_at: now })
    .where("organization_id", "=", organizationId)
    .where("domain", "=", domain)
    .where("verified_at", "is", null)
    .returningAll()
    .executeTakeFirst()
}

export function deleteDomain(db: Db, organizationId: string, domain: string) {
  return db.deleteFrom("organization_domains").where("organization_id", "=", organizationId).where("domain", "=", domain).returningAll().executeTakeFirst()
}

