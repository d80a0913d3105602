import { sql, type Kysely } from "kysely"

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // Stored trimmed and lower-cased, so uniqueness ignores case.
    .addColumn("email", "text", (column) => column.notNull().unique())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("role", "text", (column) => column.notNull().defaultTo("user").check(sql`role in ('admin', 'user')`))
    .addColumn("password_hash", "text")
    .addColumn("email_verified_at", "timestamptz")
    .addColumn("google_uid", "text", (column) => column.unique())
    .addColumn("plan_id", "text", (column) => column.notNull().defaultTo("free").check(sql`plan_id in ('free', 'pro', 'enterprise')`))
    .addColumn("subscription_status", "text", (column) => column.notNull().defaultTo("active"))
    .addColumn("terms_accepted_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
    .execute()

  // Failed sign-ins per address, known or not, so an unknown address is answered like a wrong password.
  await db.schema
    .createTable("sign_in_failures")
    .addColumn("email", "text", (column) => column.primaryKey())
    .addColumn("failures", "integer", (column) => column.notNull())
    .addColumn("last_failure_at", "timestamptz", (column) => column.notNull())
    .addColumn("locked_until", "timestamptz")
    .execute()

  // One row per sign-in: a family of rotating refresh tokens.
  await db.schema
    .createTable("sessions")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("client", "text", (column) => column.notNull().defaultTo("site"))
    .addColumn("token_hash", "text", (column) => column.notNull().unique())
    // The token the last rotation issued, encrypted, answered again to a twin request within the grace window.
    .addColumn("grace_token", "text")
    .addColumn("rotated_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("last_used_at", "timestamptz", (column) => column.notNull())
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .addColumn("revoked_at", "timestamptz")
    .execute()
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute()

  // Every refresh token a session has rotated away from: presenting one again means it was copied.
  await db.schema
    .createTable("retired_refresh_tokens")
    .addColumn("token_hash", "text", (column) => column.primaryKey())
    .addColumn("session_id", "uuid", (column) => column.notNull().references("sessions.id").onDelete("cascade"))
    .addColumn("retired_at", "timestamptz", (column) => column.notNull())
    .execute()

  // E-mail verification and password reset codes, stored as hashes.
  await db.schema
    .createTable("one_time_codes")
    .addColumn("code_hash", "text", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (column) => column.notNull().check(sql`purpose in ('verify_email', 'reset_password')`))
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .addColumn("used_at", "timestamptz")
    .execute()
  await db.schema.createIndex("one_time_codes_user_purpose").on("one_time_codes").columns(["user_id", "purpose"]).execute()

  await db.schema
    .createTable("password_history")
    .addColumn("id", "bigserial", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("password_hash", "text", (column) => column.notNull())
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("password_history_user").on("password_history").columns(["user_id", "created_at"]).execute()

  // Refused passwords (rule codes only, never the password), when the policy logs violations.
  await db.schema
    .createTable("policy_violations")
    .addColumn("id", "bigserial", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (column) => column.notNull())
    .addColumn("codes", "jsonb", (column) => column.notNull())
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["policy_violations", "password_history", "one_time_codes", "retired_refresh_tokens", "sessions", "sign_in_failures", "users"]) {
    await db.schema.dropTable(table).execute()
  }
}
