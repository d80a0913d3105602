import type { Kysely } from "kysely"

/**
 * Password checks under way per address, apart from the failures: an attempt takes a slot before its password is
 * checked (so a parallel burst cannot all be checked) without counting as a failure (so parallel correct sign-ins
 * are not slowed down by each other).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("sign_in_failures")
    .addColumn("checks_in_flight", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("checks_started_at", "timestamptz")
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sign_in_failures").dropColumn("checks_started_at").dropColumn("checks_in_flight").execute()
}
