/** The queries of an organisation's single sign-on settings. */
import type { Db } from "../../db/transaction"

export function findSso(db: Db, organizationId: string) {
  return db.selectFrom("organization_sso").selectAll().where("organization_id", "=", organizationId).executeTakeFirst()
}

export function saveSso(db: Db, settings: { organizationId: string; issuer: string; clientId: string; clientSecretSealed: string; enforced: boolean; now: Date }) {
  const values = { issuer: settings.issuer, client_id: settings.clientId, client_secret_sealed: settings.clientSecretSealed, enforced: settings.enforced, updated_at: settings.now }
  return db
    .insertInto("organization_sso")
    .values({ organization_id: settings.organizationId, ...values })
    .onConflict((conflict) => conflict.column("organization_id").doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function deleteSso(db: Db, organizationId: string) {
  return db.deleteFrom("organization_sso").where("organization_id", "=", organizationId).returning("organization_id").executeTakeFirst()
}
