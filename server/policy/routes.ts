import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api"
import {
  applyRuleUpdate,
  passwordPolicyConfigSchema,
  policyRuleUpdateSchema,
  type PasswordPolicyConfig
} from "~core/password-policy"

import { authenticate, requireAdmin } from "../auth/authenticate"
import { ApiError, parseInput, validationFailed } from "../http/errors"
import { loadPasswordPolicy, savePasswordPolicy } from "./policy-store"

/** What everyone may read: what the password hint is built from (strictMode makes every rule required). */
function publicView(policy: PasswordPolicyConfig) {
  return { config: { rules: policy.rules, customRules: policy.customRules, strictMode: policy.strictMode } }
}

/** What the admin screen reads and writes: the rules, the refusal messages and the options. */
function adminView(policy: PasswordPolicyConfig) {
  const { strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration } = policy
  return { ...publicView(policy), messages: policy.messages, options: { strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration } }
}

const policyUpdateSchema = z.strictObject({
  config: z.strictObject({ rules: z.unknown(), customRules: z.unknown().optional(), strictMode: z.boolean().optional() }),
  messages: z.unknown().optional(),
  options: z.record(z.string(), z.unknown()).optional()
})

export async function policyRoutes(app: FastifyInstance) {
  app.get("/api/password-policy/config", async (request) => {
    const policy = await loadPasswordPolicy(app)
    const auth = await authenticate(app, request)
    return ok(auth?.user.role === "admin" ? adminView(policy) : publicView(policy))
  })

  app.put("/api/password-policy/config", { preHandler: requireAdmin }, async (request) => {
    const update = parseInput(policyUpdateSchema, request.body)
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
    return ok(adminView(next))
  })

  app.put("/api/password-policy/rules", { preHandler: requireAdmin }, async (request) => {
    const update = parseInput(policyRuleUpdateSchema, request.body)
    const current = await loadPasswordPolicy(app)
    let next: PasswordPolicyConfig
    try {
      next = parseInput(passwordPolicyConfigSchema, applyRuleUpdate(current, update))
    } catch (error) {
      if (error instanceof ApiError) throw error
      throw validationFailed([error instanceof Error ? error.message : String(error)])
    }
    await savePasswordPolicy(app, next)
    return ok(adminView(next))
  })
}
