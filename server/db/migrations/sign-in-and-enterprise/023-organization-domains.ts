import { sql, type Kysely } from "kysely"

/**
 * An organisation's e-mail domains (server/organizations/domains): each claim has the token its DNS TXT record must
 * hold, and is verified once the record is found. A domain is verified by one organisation at most (a partial
 * unique index), however many have claimed it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("organization_domains")
    .addColumn("organization_id", "uuid", (column) => column.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("domain", "text", (column) => column.notNull())
    .addColumn("token", "text", (column) => column.notNull())
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("verified_at", "timestamptz")
    .addPrimaryKeyConstraint("organization_domains_pkey", ["organization_id", "domain"])
    .execute()
  await sql`create unique index organization_domains_verified on organization_domains (domain) where verified_at is not null`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("organization_domains").execute()
}
