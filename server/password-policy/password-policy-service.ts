/**
 * Applies the password policy to a new password: the rules of ~core/password-policy plus the
 * server-only checks (common passwords, the user's recent passwords). Its data comes from
 * password-policy-store.ts.
 */
import type { FastifyInstance } from "fastify"

import { applyRuleUpdate, evaluatePassword, passwordPolicyConfigSchema, type PasswordPolicyConfig, type PolicyRuleUpdate } from "~core/password-policy"

import { ApiError, parseInput, validationFailed } from "../http/errors"
import { verifyPassword } from "../auth/passwords"
import { isCommonPassword } from "./common-passwords"
import { listRecentPasswordHashes, loadPasswordPolicy, recordPolicyViolation, savePasswordPolicy } from "./password-policy-store"

export type PasswordAction = "register" | "change" | "reset" | "link" | "admin-bootstrap"

export interface PasswordSubject {
  email: string
  name?: string
  /** Known for existing accounts: their last passwords may not come back. */
  userId?: string
}

async function isRecentPassword(app: FastifyInstance, userId: string, password: string, count: number): Promise<boolean> {
  if (count <= 0) return false
  for (const passwordHash of await listRecentPasswordHashes(app, userId, count)) {
    if (await verifyPassword(passwordHash, password)) return true
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
    await recordPolicyViolation(app, subject.userId ?? null, action, evaluation.failures.map((failure) => failure.code))
  }
  const first = evaluation.failures[0]!
  throw new ApiError(400, first.code, "Password requirements not met", {
    details: evaluation.failures.map((failure) => failure.message)
  })
}

/** The admin form's whole update: the policy it makes must hold as a whole (VALIDATION_FAILED with details otherwise). */
export async function replacePasswordPolicy(
  app: FastifyInstance,
  update: { config: { rules: unknown; customRules?: unknown; strictMode?: boolean }; messages?: unknown; options?: Record<string, unknown> }
): Promise<PasswordPolicyConfig> {
  const current = await loadPasswordPolicy(app)
  const next = parseInput(passwordPolicyConfigSchema, {
    ...current,
    ...(update.config.strictMode === undefined ? {} : { strictMode: update.config.strictMode }),
    ...update.options,
    rules: update.config.rules,
    customRules: update.config.customRules ?? current.customRules,
    messages: update.messages ?? current.messages
  })
  await savePasswordPolicy(app, next)
  return next
}

/** One built-in rule changed; a change the policy cannot hold is VALIDATION_FAILED in words. */
export async function updatePasswordPolicyRule(app: FastifyInstance, update: PolicyRuleUpdate): Promise<PasswordPolicyConfig> {
  const current = await loadPasswordPolicy(app)
  let next: PasswordPolicyConfig
  try {
    next = parseInput(passwordPolicyConfigSchema, applyRuleUpdate(current, update))
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw validationFailed([error instanceof Error ? error.message : String(error)])
  }
  await savePasswordPolicy(app, next)
  return next
}
