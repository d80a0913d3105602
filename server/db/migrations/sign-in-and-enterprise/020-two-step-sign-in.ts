import { sql, type Kysely } from "kysely"

/**
 * Two-step sign-in (server/auth/mfa): an account's authenticator app (its secret sealed with a key derived from the
 * token secret, which the database does not hold), its single-use recovery codes (keyed hashes), and the sign-ins
 * waiting for their second step (a token's hash, five minutes, five wrong codes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("totp_factors")
    .addColumn("user_id", "uuid", (column) => column.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret_sealed", "text", (column) => column.notNull())
    .addColumn("enabled_at", "timestamptz")
    // Steps of 30 s since 1970: about 59 million in 2026, an integer until the year 4010.
    .addColumn("last_step", "integer")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema
    .createTable("recovery_codes")
    .addColumn("code_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("used_at", "timestamptz")
    .execute()
  await db.schema.createIndex("recovery_codes_user").on("recovery_codes").column("user_id").execute()
  await db.schema
    .createTable("mfa_challenges")
    .addColumn("token_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .addColumn("wrong_codes", "integer", (column) => column.notNull().defaultTo(0).check(sql`wrong_codes >= 0`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mfa_challenges").execute()
  await db.schema.dropTable("recovery_codes").execute()
  await db.schema.dropTable("totp_factors").execute()
}
