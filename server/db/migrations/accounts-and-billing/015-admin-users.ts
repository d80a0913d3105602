import { sql, type Kysely } from "kysely"

/**
 * The admin panel's accounts (issue 27): an account an admin disabled, and when each account last signed in. The
 * list sorts newest first by creation or by last sign-in, so both have an index in that order (with the id as the
 * tie-break the pages use); a sign-in that never happened sorts last. The search (a part of the address or name, any
 * case) scans: a substring match cannot use a b-tree, and the table is small enough for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("disabled_at", "timestamptz")
    .addColumn("last_sign_in_at", "timestamptz")
    .execute()
  await sql`create index users_created_order on users (created_at desc, id desc)`.execute(db)
  await sql`create index users_last_sign_in_order on users (last_sign_in_at desc nulls last, id desc)`.execute(db)
  // The filter "disabled" and the last-admin rule read the few disabled accounts and the few admins.
  await sql`create index users_disabled on users (disabled_at) where disabled_at is not null`.execute(db)
  await sql`create index users_admins on users (id) where role = 'admin'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists users_admins`.execute(db)
  await sql`drop index if exists users_disabled`.execute(db)
  await sql`drop index if exists users_last_sign_in_order`.execute(db)
  await sql`drop index if exists users_created_order`.execute(db)
  await db.schema.alterTable("users").dropColumn("last_sign_in_at").dropColumn("disabled_at").execute()
}
