/** The default password policy and the default rule messages. */
import { BUILT_IN_RULE_NAMES, RULE_ERROR_CODES, type BuiltInRuleName, type PasswordPolicyConfig, type PolicyRule } from "./types"
import { MINUTE_MS } from "../time"

export const PASSWORD_MIN_LENGTH = 8

export const PASSWORD_MAX_LENGTH = 128

export const PASSWORD_SEQUENTIAL_OR_REPEATED_LIMIT = 3

export const PASSWORD_RECENT_HISTORY = 5

export const LOGIN_RATE_LIMIT_ATTEMPTS = 5

export const LOGIN_LOCKOUT_DURATION_MS = 15 * MINUTE_MS

/** The default special characters: all ASCII punctuation. */
export const DEFAULT_SPECIAL_CHARS = "!@#$%^&*()_+-=[]{};':\"\\|,.<>/?`~"

/**
 * Longest password the engine looks at, whatever the policy says (maxLength may be at most this).
 * Longer passwords are refused as too long without checking anything else, which also bounds the
 * cost of the regular expressions. Equal to the request bodies' password bound.
 */
export const PASSWORD_POLICY_LENGTH_CAP = 1024

/** Bounds the schema enforces, also usable as the admin form's input limits. */
export const PASSWORD_POLICY_BOUNDS = Object.freeze({
  minLength: { min: 1, max: 128 },
  maxLength: { min: 8, max: PASSWORD_POLICY_LENGTH_CAP },
  preventSequentialChars: { min: 2, max: 20 },
  preventRepeatedChars: { min: 2, max: 20 },
  preventRecentPasswords: { min: 0, max: 24 },
  specialCharsLength: { min: 1, max: 100 },
  messageLength: { max: 300 },
  nameLength: { max: 60 },
  customRules: { max: 20 },
  messageOverrides: { max: 64 },
  rateLimitAttempts: { min: 1, max: 100 },
  lockoutDuration: { min: 1000, max: 86_400_000 }
})

/** The value of each rule that has one. */
export const DEFAULT_RULE_VALUES: Readonly<Partial<Record<BuiltInRuleName, number | string>>> = Object.freeze({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  requireSpecialChars: DEFAULT_SPECIAL_CHARS,
  preventSequentialChars: PASSWORD_SEQUENTIAL_OR_REPEATED_LIMIT,
  preventRepeatedChars: PASSWORD_SEQUENTIAL_OR_REPEATED_LIMIT,
  preventRecentPasswords: PASSWORD_RECENT_HISTORY
})

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}

function numberOr(value: number | string | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback
}

/** The default failure message of a rule, with the numbers taken from `value`. */
export function defaultRuleMessage(name: BuiltInRuleName, value: number | string | undefined = DEFAULT_RULE_VALUES[name]): string {
  switch (name) {
    case "minLength":
      return `Password must be at least ${plural(numberOr(value, PASSWORD_MIN_LENGTH), "character", "characters")} long`
    case "maxLength":
      return `Password must be at most ${plural(numberOr(value, PASSWORD_MAX_LENGTH), "character", "characters")} long`
    case "requireUppercase":
      return "Password must contain at least one uppercase letter"
    case "requireLowercase":
      return "Password must contain at least one lowercase letter"
    case "requireNumbers":
      return "Password must contain at least one number"
    case "requireSpecialChars":
      return "Password must contain at least one special character"
    case "preventCommonPasswords":
      return "This password is too common. Please choose a less common password"
    case "preventSequentialChars": {
      const limit = numberOr(value, PASSWORD_SEQUENTIAL_OR_REPEATED_LIMIT)
      return `Password must not contain more than ${limit} sequential characters (like ${sequenceExample(limit + 1)})`
    }
    case "preventRepeatedChars": {
      const limit = numberOr(value, PASSWORD_SEQUENTIAL_OR_REPEATED_LIMIT)
      return `Password must not contain more than ${limit} repeated characters in a row (like ${"a".repeat(limit + 1)})`
    }
    case "preventUserInfo":
      return "Password must not contain your name or email address"
    case "preventRecentPasswords": {
      const count = numberOr(value, PASSWORD_RECENT_HISTORY)
      return count === 1 ? "Password must not be the same as your last password" : `Password must not be one of your last ${count} passwords`
    }
  }
}

function sequenceExample(length: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz".slice(0, length)
  return length <= 9 ? `${letters} or ${"123456789".slice(0, length)}` : letters
}

function defaultRule(name: BuiltInRuleName): PolicyRule {
  const rule: PolicyRule = { name, enabled: true, required: true, message: defaultRuleMessage(name), errorCode: RULE_ERROR_CODES[name] }
  const value = DEFAULT_RULE_VALUES[name]
  if (value !== undefined) rule.value = value
  return rule
}

/** A fresh, mutable copy of the default policy. */
export function createDefaultPasswordPolicy(): PasswordPolicyConfig {
  const rules = Object.fromEntries(BUILT_IN_RULE_NAMES.map((name) => [name, defaultRule(name)])) as Record<BuiltInRuleName, PolicyRule>
  return {
    rules,
    customRules: [],
    messages: {},
    strictMode: false,
    allowOverride: false,
    logViolations: true,
    rateLimitAttempts: LOGIN_RATE_LIMIT_ATTEMPTS,
    lockoutDuration: LOGIN_LOCKOUT_DURATION_MS
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

/**
 * The default policy: min 8, max 128, upper, lower, digit, special character, not common, at most
 * 3 sequential or repeated characters, no personal info, not one of the last 5 passwords; every
 * rule enabled and required. Deeply frozen: use createDefaultPasswordPolicy() for a copy to change.
 */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicyConfig = deepFreeze(createDefaultPasswordPolicy())
