import type { FastifyInstance } from "fastify"
import { sql } from "kysely"

import {
  createDefaultPasswordPolicy,
  evaluatePassword,
  passwordPolicyConfigSchema,
  type PasswordPolicyConfig
} from "~core/password-policy"

import { ApiError } from "../http/errors"
import { verifyPassword } from "../auth/passwords"
import { isCommonPassword } from "./common-passwords"

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

export type PasswordAction = "register" | "change" | "reset" | "link" | "admin-bootstrap"

export interface PasswordSubject {
  email: string
  name?: string
  /** Known for existing accounts: their last passwords may not come back. */
  userId?: string
}

async function isRecentPassword(app: FastifyInstance, userId: string, password: string, count: number): Promise<boolean> {
  if (count <= 0) return false
  const recent = await app.database.db
    .selectFrom("password_history")
    .select("password_hash")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(count)
    .execute()
  for (const { password_hash } of recent) {
    if (await verifyPassword(password_hash, password)) return true
  }
  return false
}

/**
 * Checks a new password against the active policy. A refusal is a 400 whose code is the first
 * failed rule's and whose details list every failure; with logViolations the rule codes (never the
 * password) are recorded.
 */
export async function enforcePasswordPolicy(
  app: FastifyInstance,
  password: string,
  subject: PasswordSubject,
  action: PasswordAction
): Promise<{ warnings: string[] }> {
  const policy = await loadPasswordPolicy(app)
  const recentCount = Number(policy.rules.preventRecentPasswords.value ?? 0)
  const evaluation = await evaluatePassword(password, policy, {
    email: subject.email,
    name: subject.name,
    isCommonPassword,
    isRecentPassword: subject.userId ? (candidate) => isRecentPassword(app, subject.userId!, candidate, recentCount) : undefined
  })
  const warnings = evaluation.warnings.map((warning) => warning.message)
  if (evaluation.valid) return { warnings }

  if (policy.logViolations) {
    await app.database.db
      .insertInto("policy_violations")
      .values({
        user_id: subject.userId ?? null,
        action,
        codes: JSON.stringify(evaluation.failures.map((failure) => failure.code)),
        created_at: new Date(app.clock())
      })
      .execute()
  }
  const first = evaluation.failures[0]!
  throw new ApiError(400, first.code, "Password requirements not met", {
    details: evaluation.failures.map((failure) => failure.message)
  })
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
