import { sql, type Kysely } from "kysely"

/**
 * SCIM provisioning (server/organizations/scim): an organisation's bearer tokens, stored hashed, and what SCIM keeps of
 * a member beyond the membership: the identity provider's externalId and name parts, whether SCIM created the account
 * (only such an account's address may be changed by SCIM), when it was suspended (active: false) and last changed.
 * The member's row goes with the membership (a composite foreign key): removed from the organisation, nothing of SCIM
 * stays, and a suspension never outlives the membership it was about.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("scim_tokens")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (column) => column.notNull().unique())
    .addColumn("created_by", "uuid", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("last_used_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .execute()
  await db.schema.createIndex("scim_tokens_organization").on("scim_tokens").column("organization_id").execute()

  await db.schema
    .createTable("scim_members")
    .addColumn("user_id", "uuid", (column) => column.primaryKey())
    .addColumn("organization_id", "uuid", (column) => column.notNull())
    .addColumn("external_id", "text")
    .addColumn("given_name", "text")
    .addColumn("family_name", "text")
    .addColumn("provisioned", "boolean", (column) => column.notNull().defaultTo(false))
    .addColumn("suspended_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .addForeignKeyConstraint("scim_members_membership", ["organization_id", "user_id"], "organization_members", ["organization_id", "user_id"], (constraint) => constraint.onDelete("cascade"))
    .execute()
  await db.schema.createIndex("scim_members_organization").on("scim_members").columns(["organization_id", "external_id"]).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scim_members").execute()
  await db.schema.dropTable("scim_tokens").execute()
}
