import type { Kysely } from "kysely"

/**
 * Signing in through an organisation's identity provider (server/organizations/sso): each started sign-in keeps its
 * PKCE verifier and nonce under the hash of its state until the provider sends the person back (taken once), and each
 * finished one leaves a one-time code, its hash only, that the site exchanges for a session within a minute.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sso_logins")
    .addColumn("state_hash", "text", (column) => column.primaryKey())
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("code_verifier", "text", (column) => column.notNull())
    .addColumn("nonce", "text", (column) => column.notNull())
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("sso_logins_expiry").on("sso_logins").column("expires_at").execute()
  await db.schema
    .createTable("sso_codes")
    .addColumn("code_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("sso_codes_expiry").on("sso_codes").column("expires_at").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sso_codes").execute()
  await db.schema.dropTable("sso_logins").execute()
}
