/** Applies PUT /api/password-policy/rules to a policy. */
import type * as z from "zod"

import { defaultRuleMessage } from "./defaults"
import { passwordPolicyConfigSchema, policyRuleUpdateSchema } from "./schema"
import type { PasswordPolicyConfig, PolicyRule, PolicyRuleUpdate } from "./types"

/** A rule update that is invalid by itself or makes the policy invalid; `issues` are zod's. */
export class PasswordPolicyUpdateError extends Error {
  constructor(readonly issues: readonly z.core.$ZodIssue[]) {
    super(issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; "))
    this.name = "PasswordPolicyUpdateError"
  }
}

/**
 * A new policy with one built-in rule changed; `config` is left as it is. The update is checked
 * with policyRuleUpdateSchema and the result with passwordPolicyConfigSchema (so maxLength below
 * minLength is refused); either failure throws PasswordPolicyUpdateError, whose message lists the
 * issues as "path: message".
 *
 * When the value changes without a new message and the rule still has the default message of its
 * old value, the message follows the value ("at least 8 characters" becomes "at least 12
 * characters"); a message the admin wrote is kept as it is. `regex: null` removes the override.
 */
export function applyRuleUpdate(config: PasswordPolicyConfig, update: PolicyRuleUpdate): PasswordPolicyConfig {
  const parsedUpdate = policyRuleUpdateSchema.safeParse(update)
  if (!parsedUpdate.success) throw new PasswordPolicyUpdateError(parsedUpdate.error.issues)
  const { ruleName, regex, ...changes } = parsedUpdate.data

  const current = config.rules[ruleName]
  const rule: PolicyRule = { ...current }
  if (changes.enabled !== undefined) rule.enabled = changes.enabled
  if (changes.required !== undefined) rule.required = changes.required
  if (changes.value !== undefined) {
    if (changes.message === undefined && current.message === defaultRuleMessage(ruleName, current.value)) {
      rule.message = defaultRuleMessage(ruleName, changes.value)
    }
    rule.value = changes.value
  }
  if (changes.message !== undefined) rule.message = changes.message
  if (regex === null) delete rule.regex
  else if (regex !== undefined) rule.regex = regex

  const parsed = passwordPolicyConfigSchema.safeParse({ ...config, rules: { ...config.rules, [ruleName]: rule } })
  if (!parsed.success) throw new PasswordPolicyUpdateError(parsed.error.issues)
  return parsed.data
}
