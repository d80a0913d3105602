/** The monthly request limit an admin sets for an Enterprise account (users.request_limit). Queries only. */
import type { Kysely } from "kysely"

import type { DatabaseSchema } from "../db/schema"
import { isUuid } from "../db/uuid"

/**
 * An admin sets an account's monthly request limit (null: unlimited). It is what an Enterprise account gets; other
 * plans keep their plan's quota. Undefined when there is no such user.
 */
export async function setRequestLimit(db: Kysely<DatabaseSchema>, userId: string, limit: number | null, now: number) {
  if (!isUuid(userId)) return undefined
  return db
    .updateTable("users")
    .set({ request_limit: limit, updated_at: new Date(now) })
    .where("id", "=", userId)
    .returning(["id", "email", "plan_id", "subscription_status", "request_limit"])
    .executeTakeFirst()
}
