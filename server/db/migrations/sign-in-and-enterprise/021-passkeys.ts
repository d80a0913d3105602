import { sql, type Kysely } from "kysely"

/**
 * Passkeys (server/auth/mfa): an account's WebAuthn credentials (the public key, the signature counter that must only
 * grow, a name the person gave it), and the challenges the server handed out for a registration or a sign-in, each
 * answered once within five minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("passkeys")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (column) => column.notNull().unique())
    .addColumn("public_key", "text", (column) => column.notNull())
    // An authenticator's counter is an unsigned 32-bit number: past an integer's range.
    .addColumn("counter", "bigint", (column) => column.notNull().check(sql`counter >= 0`))
    .addColumn("transports", sql`text[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("last_used_at", "timestamptz")
    .execute()
  await db.schema.createIndex("passkeys_user").on("passkeys").column("user_id").execute()
  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("challenge", "text", (column) => column.primaryKey())
    .addColumn("purpose", "text", (column) => column.notNull().check(sql`purpose in ('registration', 'authentication')`))
    // A registration's account; null for a sign-in, where the passkey names the account.
    .addColumn("user_id", "uuid", (column) => column.references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webauthn_challenges").execute()
  await db.schema.dropTable("passkeys").execute()
}
