import { sql, type Kysely } from "kysely"

/**
 * One free trial per person (server/auth/identity-trace-store.ts, server/billing/stripe-trials.ts). A trace now also says
 * which account holds the trial of its key (its mailbox, Google uid, or, in Stripe mode, the card's fingerprint, each a
 * keyed hash): another account of the same person is refused. Traces written before hold none: a deleted account's,
 * whose trial nobody holds any more. A trial that Stripe started for a person who already had one is cancelled at
 * once; trial_refusals records it once per Stripe subscription, so that its e-mail is sent once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("identity_traces")
    .addColumn("trial_user_id", "uuid", (column) => column.references("users.id").onDelete("set null"))
    .execute()
  await db.schema
    .createTable("trial_refusals")
    .addColumn("stripe_subscription_id", "text", (column) => column.primaryKey())
    .addColumn("user_id", "uuid", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (column) => column.notNull().check(sql`reason in ('account', 'identity', 'card')`))
    .addColumn("refused_at", "timestamptz", (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("trial_refusals").execute()
  await db.schema.alterTable("identity_traces").dropColumn("trial_user_id").execute()
}
