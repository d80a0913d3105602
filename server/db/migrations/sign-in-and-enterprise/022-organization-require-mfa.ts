import type { Kysely } from "kysely"

/**
 * An organisation's owner may require two-step sign-in of every member (server/organizations): while it is on, a member
 * without a second factor draws nothing from the pool. Off for every organisation that exists, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("organizations")
    .addColumn("require_mfa", "boolean", (column) => column.notNull().defaultTo(false))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("organizations").dropColumn("require_mfa").execute()
}
