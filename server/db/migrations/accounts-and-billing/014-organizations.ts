import { sql, type Kysely } from "kysely"

/**
 * Teams (Enterprise): an organisation funded by its subscriber's Enterprise subscription, its members (a person in
 * one at most, one owner each), its invitations (codes stored as hashes) and the monthly pool its members draw from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("organizations")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text", (column) => column.notNull())
    /** Whose Enterprise subscription funds the pool: the person who made it, whoever owns it later. */
    .addColumn("subscriber_id", "uuid", (column) => column.notNull().unique().references("users.id").onDelete("cascade"))
    /** The pool's monthly AI requests, set by a site admin; null is unlimited. */
    .addColumn("request_limit", "integer")
    .addColumn("accent_color", "text")
    .addColumn("logo_key", "text")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .execute()

  await db.schema
    .createTable("organization_members")
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (column) => column.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (column) => column.notNull().check(sql`role in ('owner', 'admin', 'member')`))
    .addColumn("joined_at", "timestamptz", (column) => column.notNull())
    .addPrimaryKeyConstraint("organization_members_pkey", ["organization_id", "user_id"])
    .execute()
  await sql`create unique index organization_one_owner on organization_members (organization_id) where role = 'owner'`.execute(db)

  await db.schema
    .createTable("organization_invitations")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("role", "text", (column) => column.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn("code_hash", "text", (column) => column.notNull().unique())
    .addColumn("invited_by", "uuid")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("expires_at", "timestamptz", (column) => column.notNull())
    .addColumn("accepted_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .execute()
  await db.schema.createIndex("organization_invitations_org").on("organization_invitations").columns(["organization_id", "created_at"]).execute()

  await db.schema
    .createTable("organization_usage")
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("month", "text", (column) => column.notNull())
    .addColumn("used", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("organization_usage_pkey", ["organization_id", "month"])
    .execute()

  // Each member's share of the pool, shown on the organisation page; apart from their own plan's counter
  // (usage_counters), which a member who leaves finds as they left it.
  await db.schema
    .createTable("organization_member_usage")
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("month", "text", (column) => column.notNull())
    .addColumn("used", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("organization_member_usage_pkey", ["organization_id", "user_id", "month"])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("organization_member_usage").execute()
  await db.schema.dropTable("organization_usage").execute()
  await db.schema.dropTable("organization_invitations").execute()
  await db.schema.dropTable("organization_members").execute()
  await db.schema.dropTable("organizations").execute()
}
