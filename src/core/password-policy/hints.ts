/** The password hint under the forms' password fields, built from the policy. */
import { countOf } from "../format"

import { DEFAULT_PASSWORD_POLICY, DEFAULT_RULE_VALUES, DEFAULT_SPECIAL_CHARS } from "./defaults"
import type { PasswordHint, PasswordPolicyConfig, PolicyRule } from "./types"

const SPECIAL_CHARS_PREVIEW = 4

function specialCharsPreview(set: string): string {
  const chars = Array.from(set)
  return chars.length <= SPECIAL_CHARS_PREVIEW ? set : `${chars.slice(0, SPECIAL_CHARS_PREVIEW).join("")}…`
}

/**
 * The hint lines, in this order: minimum length ("At least 8 characters"), upper case, lower case,
 * number, special character ("One special character (!@#$…)"). Disabled rules are left out; a rule
 * that is enabled but not required has `required: false` (shown as "(optional)") unless strictMode
 * is on. The other rules (maximum length, common, sequential, repeated, personal info, recent,
 * custom) are not hinted: the server's answer names them when they fail.
 *
 * Takes only `rules` and `strictMode`, so the public GET /api/password-policy/config answer is
 * enough; without strictMode the rules' own `required` flags decide.
 */
export function passwordRequirementHints(config: Pick<PasswordPolicyConfig, "rules"> & { strictMode?: boolean }): PasswordHint[] {
  const { rules } = config
  const hints: PasswordHint[] = []
  const add = (rule: PolicyRule, text: string) => {
    if (rule.enabled) hints.push({ text, required: config.strictMode === true || rule.required })
  }
  const minLength = typeof rules.minLength.value === "number" ? rules.minLength.value : Number(DEFAULT_RULE_VALUES.minLength)
  add(rules.minLength, `At least ${countOf(minLength, "character", "characters")}`)
  add(rules.requireUppercase, "One uppercase letter")
  add(rules.requireLowercase, "One lowercase letter")
  add(rules.requireNumbers, "One number")
  const special = typeof rules.requireSpecialChars.value === "string" && rules.requireSpecialChars.value ? rules.requireSpecialChars.value : DEFAULT_SPECIAL_CHARS
  add(rules.requireSpecialChars, `One special character (${specialCharsPreview(special)})`)
  return hints
}

function freezeHints(hints: PasswordHint[]): readonly Readonly<PasswordHint>[] {
  return Object.freeze(hints.map((hint) => Object.freeze(hint)))
}

/**
 * The hint when the policy cannot be fetched: 8 characters, upper, lower, number, special, all
 * required. The default policy's hint.
 */
export const FALLBACK_PASSWORD_HINTS: readonly Readonly<PasswordHint>[] = freezeHints(passwordRequirementHints(DEFAULT_PASSWORD_POLICY))
