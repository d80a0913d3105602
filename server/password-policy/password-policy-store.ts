/**
 * The password policy's queries: the stored policy setting, the password history a new password
 * is compared with, and the recorded refusals. password-policy-service.ts applies the policy; it runs no
 * query of its own (docs/development.md, Layout).
 */
import type { FastifyInstance } from "fastify"
import { sql } from "kysely"

import { createDefaultPasswordPolicy, passwordPolicyConfigSchema, type PasswordPolicyConfig } from "~core/password-policy"

const POLICY_SETTING_KEY = "password_policy"

/** The active policy, read on every check so an admin's change applies to the next password. */
export async function loadPasswordPolicy(app: FastifyInstance): Promise<PasswordPolicyConfig> {
  const row = await app.database.db.selectFrom("app_settings").select("value").where("key", "=", POLICY_SETTING_KEY).executeTakeFirst()
  if (!row) return createDefaultPasswordPolicy()
  const parsed = passwordPolicyConfigSchema.safeParse(row.value)
  if (parsed.success) return parsed.data
  app.log.error({ issues: parsed.error.issues }, "the stored password policy is invalid; using the default policy")
  return createDefaultPasswordPolicy()
}

export async function savePasswordPolicy(app: FastifyInstance, policy: PasswordPolicyConfig): Promise<void> {
  const value = JSON.stringify(passwordPolicyConfigSchema.parse(policy))
  const now = new Date(app.clock())
  await app.database.db
    .insertInto("app_settings")
    .values({ key: POLICY_SETTING_KEY, value: sql`${value}::jsonb`, updated_at: now })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value: sql`${value}::jsonb`, updated_at: now }))
    .execute()
}

/** The hashes of a user's last `count` passwords, newest first. */
export async function listRecentPasswordHashes(app: FastifyInstance, userId: string, count: number): Promise<string[]> {
  const recent = await app.database.db
    .selectFrom("password_history")
    .select("password_hash")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(count)
    .execute()
  return recent.map((row) => row.password_hash)
}

/** Records a refused password's rule codes (never the password). */
export async function recordPolicyViolation(app: FastifyInstance, userId: string | null, action: string, codes: string[]): Promise<void> {
  await app.database.db
    .insertInto("policy_violations")
    .values({ user_id: userId, action, codes: JSON.stringify(codes), created_at: new Date(app.clock()) })
    .execute()
}

/** Refused passwords recorded at or after `since` (with logViolations on). */
export async function countPolicyViolations(app: FastifyInstance, since: Date): Promise<number> {
  const row = await app.database.db
    .selectFrom("policy_violations")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}
