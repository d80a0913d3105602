import { sql, type Kysely } from "kysely"

export async function up(db: Kysely<unknown>): Promise<void> {
  // Enterprise accounts: the monthly request limit an admin sets; null means unlimited.
  await db.schema
    .alterTable("users")
    .addColumn("request_limit", "integer", (column) => column.check(sql`request_limit is null or request_limit >= 0`))
    .execute()

  // Questions to the vision model, counted per user and UTC calendar month ("2026-11").
  await db.schema
    .createTable("usage_counters")
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("month", "text", (column) => column.notNull().check(sql`month ~ '^[0-9]{4}-[0-9]{2}$'`))
    .addColumn("used", "integer", (column) => column.notNull().defaultTo(0).check(sql`used >= 0`))
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .addPrimaryKeyConstraint("usage_counters_pkey", ["user_id", "month"])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("usage_counters").execute()
  await db.schema.alterTable("users").dropColumn("request_limit").execute()
}
