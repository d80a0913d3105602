import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { adminPolicyViewSchema, policyRuleUpdateSchema, publicPolicyViewSchema, type PasswordPolicyConfig } from "~core/password-policy"

import { authenticate } from "../auth/authenticate"
import { requireAdmin } from "../auth/require-admin"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { replacePasswordPolicy, updatePasswordPolicyRule } from "./password-policy-service"
import { loadPasswordPolicy } from "./password-policy-store"

/** What everyone may read: what the password hint is built from (strictMode makes every rule required). */
function publicView(policy: PasswordPolicyConfig) {
  return { config: { rules: policy.rules, customRules: policy.customRules, strictMode: policy.strictMode } }
}

/** What the admin screen reads and writes: the rules, the refusal messages and the options. */
function adminView(policy: PasswordPolicyConfig) {
  const { strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration } = policy
  return { ...publicView(policy), messages: policy.messages, options: { strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration } }
}

/** PUT /api/password-policy/config: the admin screen's form; the policy it makes is checked whole (passwordPolicyConfigSchema). */
const policyUpdateSchema = z.strictObject({
  config: z.strictObject({ rules: z.unknown(), customRules: z.unknown().optional(), strictMode: z.boolean().optional() }),
  messages: z.unknown().optional(),
  options: z.record(z.string(), z.unknown()).optional()
})

const policyDoc = docsTagged("Password policy")

export async function passwordPolicyRoutes(app: FastifyInstance) {
  const read = policyDoc({
    summary: "The password policy",
    description: "What the password hint is built from; an admin's session also gets the refusal messages and the options.",
    data: { 200: z.union([adminPolicyViewSchema, publicPolicyViewSchema]) },
    optionalSession: true
  })
  app.get("/api/password-policy/config", { schema: read }, async (request) => {
    const policy = await loadPasswordPolicy(app)
    const auth = await authenticate(app, request)
    return ok(auth?.user.role === "admin" ? adminView(policy) : publicView(policy))
  })

  const replace = policyDoc({
    summary: "Replace the password policy",
    description: "The rules, custom rules, messages and options; the resulting policy must hold as a whole (VALIDATION_FAILED with details otherwise).",
    body: policyUpdateSchema,
    data: { 200: adminPolicyViewSchema }
  })
  app.put("/api/password-policy/config", { preHandler: requireAdmin, schema: replace }, async (request) => {
    return ok(adminView(await replacePasswordPolicy(app, parseRequest(request, "body", policyUpdateSchema))))
  })

  const updateRule = policyDoc({
    summary: "Change one built-in rule",
    body: policyRuleUpdateSchema,
    data: { 200: adminPolicyViewSchema }
  })
  app.put("/api/password-policy/rules", { preHandler: requireAdmin, schema: updateRule }, async (request) => {
    return ok(adminView(await updatePasswordPolicyRule(app, parseRequest(request, "body", policyRuleUpdateSchema))))
  })
}
