/** The queries of the admin panel's accounts: the list's search, filters and pages, a user's sessions, and the locks of the last-admin rule. */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely"

import { ADMIN_USERS_PAGE_SIZE, type AdminUsersQuery } from "~core/admin/admin-users"
import { effectivePlanOf, SUBSCRIPTION_STATUSES } from "~core/billing/billing"

import type { UserRow } from "../../auth/user-store"
import type { DatabaseSchema } from "../../db/schema"
import type { Db } from "../../db/transaction"

/** The statuses under which a subscription gives no plan (cancelled, on hold): read from core's rule, not copied. */
const STATUSES_WITHOUT_PLAN = SUBSCRIPTION_STATUSES.filter((status) => effectivePlanOf("pro", status) === "free")

/** `text` matched literally inside a LIKE pattern: its %, _ and \ are no wildcards. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`)

type Filters = Omit<AdminUsersQuery, "sort" | "page">

/** The list's search and filters as one condition, shared by the page and its total. */
function matching(filters: Filters) {
  return (eb: ExpressionBuilder<DatabaseSchema, "users">): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = []
    if (filters.query) {
      const pattern = `%${likeLiteral(filters.query)}%`
      conditions.push(eb.or([eb("email", "ilike", pattern), eb("name", "ilike", pattern)]))
    }
    if (filters.plan === "free") {
      conditions.push(eb.or([eb("plan_id", "=", "free"), eb("subscription_status", "in", STATUSES_WITHOUT_PLAN)]))
    } else if (filters.plan) {
      conditions.push(eb.and([eb("plan_id", "=", filters.plan), eb("subscription_status", "not in", STATUSES_WITHOUT_PLAN)]))
    }
    if (filters.role) conditions.push(eb("role", "=", filters.role))
    if (filters.verified !== undefined) conditions.push(eb("email_verified_at", filters.verified ? "is not" : "is", null))
    if (filters.disabled !== undefined) conditions.push(eb("disabled_at", filters.disabled ? "is not" : "is", null))
    return eb.and(conditions)
  }
}

/** One page of accounts (ADMIN_USERS_PAGE_SIZE), newest first by creation or by last sign-in, and how many match in all. */
export async function listUsers(db: Db, query: AdminUsersQuery): Promise<{ rows: UserRow[]; total: number }> {
  const where = matching(query)
  let page = db.selectFrom("users").selectAll().where(where)
  page = query.sort === "lastSignIn" ? page.orderBy(sql`last_sign_in_at desc nulls last`) : page.orderBy("created_at", "desc")
  const rows = await page
    .orderBy("id", "desc")
    .limit(ADMIN_USERS_PAGE_SIZE)
    .offset((query.page - 1) * ADMIN_USERS_PAGE_SIZE)
    .execute()
  const { count } = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where(where)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count) }
}

export function findUser(db: Db, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst()
}

/** The account's live sessions, newest first. */
export function liveSessions(db: Db, userId: string, now: Date) {
  return db
    .selectFrom("sessions")
    .select(["id", "client", "created_at", "last_used_at", "expires_at"])
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .execute()
}

/** The transaction-level advisory lock that puts changes of admins' accounts one after the other. */
const ADMIN_ACCOUNT_CHANGES_LOCK = 0x1a_0c0d_ad01

/**
 * Locks every active admin's row (an admin whose account is enabled), in the order of their ids, until the
 * transaction ends, and answers their ids. Two admins demoting or disabling each other at once then go one after
 * the other: the second, once the first has committed, no longer finds the first's target among the active admins
 * (PostgreSQL checks a locked row's condition again on its new version) and sees that its own target is the last.
 * An advisory lock taken first queues these changes whole: row locks alone, under a burst of 20 on PostgreSQL,
 * ended in "deadlock detected" (a 500) now and then, the rows' versions moving under the sorted scan.
 */
export async function lockActiveAdmins(db: Db): Promise<string[]> {
  await sql`select pg_advisory_xact_lock(${ADMIN_ACCOUNT_CHANGES_LOCK})`.execute(db)
  const rows = await db.selectFrom("users").select("id").where("role", "=", "admin").where("disabled_at", "is", null).orderBy("id").forUpdate().execute()
  return rows.map((row) => row.id)
}

/** The user's row, locked until the transaction ends. */
export function lockUser(db: Db, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", userId).forUpdate().executeTakeFirst()
}

export async function updateAccount(db: Db, userId: string, change: { role?: UserRow["role"]; disabledAt?: Date | null }, now: Date): Promise<UserRow> {
  return db
    .updateTable("users")
    .set({ ...(change.role ? { role: change.role } : {}), ...(change.disabledAt !== undefined ? { disabled_at: change.disabledAt } : {}), updated_at: now })
    .where("id", "=", userId)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateRequestLimit(db: Db, userId: string, limit: number | null, now: Date): Promise<UserRow> {
  return db.updateTable("users").set({ request_limit: limit, updated_at: now }).where("id", "=", userId).returningAll().executeTakeFirstOrThrow()
}

/**
 * Ends every session of the account, the extension's included, and answers how many were live (not revoked, not run
 * out) before.
 */
export async function endAllSessions(db: Db, userId: string, now: Date): Promise<number> {
  const ended = await db
    .updateTable("sessions")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .returning("expires_at")
    .execute()
  return ended.filter((session) => session.expires_at > now).length
}
