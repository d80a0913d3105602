import { sql, type Kysely } from "kysely"

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("feedback")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("message", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull().defaultTo("pending").check(sql`status in ('pending', 'replied', 'closed')`))
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("feedback_status_created_idx").on("feedback").columns(["status", "created_at"]).execute()
  await db.schema.createIndex("feedback_created_idx").on("feedback").column("created_at").execute()

  // The files live in DATA_DIR/uploads/feedback under generated names; the row says which belong to whom.
  await db.schema
    .createTable("feedback_images")
    .addColumn("file_name", "text", (column) => column.primaryKey())
    .addColumn("feedback_id", "uuid", (column) => column.notNull().references("feedback.id").onDelete("cascade"))
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("content_type", "text", (column) => column.notNull().check(sql`content_type in ('image/jpeg', 'image/png', 'image/gif')`))
    .addColumn("byte_size", "integer", (column) => column.notNull())
    .addColumn("original_name", "text", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("feedback_images_feedback_idx").on("feedback_images").column("feedback_id").execute()

  await db.schema
    .createTable("feedback_replies")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("feedback_id", "uuid", (column) => column.notNull().references("feedback.id").onDelete("cascade"))
    .addColumn("message", "text", (column) => column.notNull())
    .addColumn("admin_email", "text", (column) => column.notNull())
    .addColumn("admin_user_id", "uuid", (column) => column.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .execute()
  await db.schema.createIndex("feedback_replies_feedback_idx").on("feedback_replies").column("feedback_id").execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("feedback_replies").execute()
  await db.schema.dropTable("feedback_images").execute()
  await db.schema.dropTable("feedback").execute()
}
