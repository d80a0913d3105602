import type { Kysely } from "kysely"

/**
 * An organisation's OpenID Connect provider (server/organizations/sso): the issuer and client its owner registered
 * there, the client secret sealed with the server's key (never in the database in the clear), and whether password
 * and Google sign-in are refused for its domains.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("organization_sso")
    .addColumn("organization_id", "uuid", (column) => column.primaryKey().references("organizations.id").onDelete("cascade"))
    .addColumn("issuer", "text", (column) => column.notNull())
    .addColumn("client_id", "text", (column) => column.notNull())
    .addColumn("client_secret_sealed", "text", (column) => column.notNull())
    .addColumn("enforced", "boolean", (column) => column.notNull().defaultTo(false))
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("organization_sso").execute()
}
