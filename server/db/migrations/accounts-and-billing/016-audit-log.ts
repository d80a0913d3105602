import { sql, type Kysely } from "kysely"

/**
 * The audit log made append-only by the database itself, not only by the API: a trigger refuses every UPDATE, DELETE
 * and TRUNCATE of audit_events, whoever runs it (a bug, a hand-written query, a later migration that forgot). A
 * migration that truly must change the table drops the trigger first, in plain sight.
 *
 * An entry names its actor and its target by e-mail as well as by id, copied when it is written: the log still says
 * who and on whom after an account is deleted (the ids have no foreign key, so nothing cascades into the log).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("audit_events").addColumn("actor_email", "text").execute()
  /** On whom or what, as a person reads it: the subject's address when it was written, or what the event names. */
  await db.schema.alterTable("audit_events").addColumn("target", "text").execute()
  // Entries written before this migration get the addresses of accounts that still exist, before the trigger forbids it.
  await sql`update audit_events set actor_email = (select email from users where users.id = audit_events.actor_id)`.execute(db)
  await sql`update audit_events set target = (select email from users where users.id = audit_events.subject_id)`.execute(db)

  await sql`
    create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % is refused', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db)
  await sql`create trigger audit_events_no_change before update or delete on audit_events for each row execute function audit_events_append_only()`.execute(db)
  await sql`create trigger audit_events_no_truncate before truncate on audit_events for each statement execute function audit_events_append_only()`.execute(db)

  // The admin panel's reads: newest first, and one actor's entries.
  await sql`create index audit_events_time on audit_events (created_at desc, id desc)`.execute(db)
  await db.schema.createIndex("audit_events_actor_time").on("audit_events").columns(["actor_id", "created_at"]).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("audit_events_actor_time").execute()
  await db.schema.dropIndex("audit_events_time").execute()
  await sql`drop trigger audit_events_no_truncate on audit_events`.execute(db)
  await sql`drop trigger audit_events_no_change on audit_events`.execute(db)
  await sql`drop function audit_events_append_only()`.execute(db)
  await db.schema.alterTable("audit_events").dropColumn("target").execute()
  await db.schema.alterTable("audit_events").dropColumn("actor_email").execute()
}
