import type { Kysely, Selectable } from "kysely"

import { getPlan } from "~core/plans"
import type { User } from "~core/user"

import type { DatabaseSchema, UsersTable } from "../db/schema"

export type UserRow = Selectable<UsersTable>
type Db = Kysely<DatabaseSchema>

/** E-mail addresses compare without surrounding spaces and without case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst()
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
}

/** The user as the API returns it: the shared user record plus id, verification state and creation time, never the password hash. */
export function toPublicUser(row: UserRow): User & { id: string; emailVerified: boolean; createdAt: string } {
  const plan = getPlan(row.plan_id)
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    provider: row.password_hash ? "email" : "google",
    ...(row.google_uid ? { providerId: row.google_uid } : {}),
    subscription: { plan: { id: plan.id, name: plan.name }, status: row.subscription_status },
    emailVerified: row.email_verified_at !== null,
    createdAt: row.created_at.toISOString()
  }
}
