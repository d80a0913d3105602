import { sql, type Kysely } from "kysely"

/**
 * Sessions get an absolute end and an extension session its site session. Migrations are frozen, so the 90 days
 * of SESSION_ABSOLUTE_LIFETIME_MS are written out here for the sessions that already exist.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("sessions")
    // The site session an extension session was opened from; ending that one ends this one.
    .addColumn("parent_session_id", "uuid", (column) => column.references("sessions.id").onDelete("cascade"))
    .addColumn("absolute_expires_at", "timestamptz")
    .execute()
  await sql`update sessions set absolute_expires_at = created_at + interval '90 days'`.execute(db)
  await sql`update sessions set expires_at = least(expires_at, absolute_expires_at)`.execute(db)
  await db.schema.alterTable("sessions").alterColumn("absolute_expires_at", (column) => column.setNotNull()).execute()
  // A refresh may push expires_at forward, never past the absolute end, so checking expires_at checks both.
  await db.schema.alterTable("sessions").addCheckConstraint("sessions_expiry_within_lifetime", sql`expires_at <= absolute_expires_at`).execute()
  await db.schema.createIndex("sessions_parent_session_id").on("sessions").column("parent_session_id").execute()
  // Extension sessions opened before this migration belong to no site session and would survive its logout: end
  // them; the site opens a bound one on its next page load.
  await sql`update sessions set revoked_at = now() where client = 'extension' and revoked_at is null`.execute(db)
  // A refresh within the grace window no longer hands out the newest refresh token, so it is not kept.
  await db.schema.alterTable("sessions").dropColumn("grace_token").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("grace_token", "text").execute()
  await db.schema.dropIndex("sessions_parent_session_id").execute()
  await db.schema.alterTable("sessions").dropConstraint("sessions_expiry_within_lifetime").execute()
  await db.schema.alterTable("sessions").dropColumn("absolute_expires_at").dropColumn("parent_session_id").execute()
}
