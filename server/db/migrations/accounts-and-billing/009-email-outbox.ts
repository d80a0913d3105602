import { sql, type Kysely } from "kysely"

/**
 * The e-mail outbox: every e-mail is a row written in the transaction of the change that causes it, and sent by the
 * outbox worker of any instance (server/mail/outbox.ts). A row is a message (recipient, subject, body), or a request
 * for one whose answer must not tell whether an account exists (a password reset, a new verification link): the
 * worker looks the address up and turns it into a message or into nothing. Bodies are erased once sent or given up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("email_outbox")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // The order e-mails were queued in: those due together go out in it (a reply after the one before it).
    .addColumn("seq", "bigint", (column) => column.generatedByDefaultAsIdentity().notNull())
    .addColumn("kind", "text", (column) => column.notNull().check(sql`kind in ('message', 'request')`))
    .addColumn("recipient", "text", (column) => column.notNull())
    .addColumn("what", "text", (column) => column.notNull())
    .addColumn("subject", "text")
    .addColumn("body", "text")
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (column) => column.notNull())
    .addColumn("locked_until", "timestamptz")
    .addColumn("sent_at", "timestamptz")
    .addColumn("failed_at", "timestamptz")
    .addColumn("last_error", "text")
    .execute()
  await sql`create index email_outbox_due on email_outbox (next_attempt_at) where sent_at is null and failed_at is null`.execute(db)
  await db.schema.createIndex("email_outbox_done").on("email_outbox").columns(["sent_at", "failed_at"]).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("email_outbox").execute()
}
