/**
 * The password policy: its vocabulary (rule names, error codes) and its types. One policy module is
 * used by the server's check and by the forms' hint.
 */
import { PASSWORD_POLICY_ERROR_CODES } from "../api-answer"

/** The built-in rules, in evaluation and reporting order. */
export const BUILT_IN_RULE_NAMES = [
  "minLength",
  "maxLength",
  "requireUppercase",
  "requireLowercase",
  "requireNumbers",
  "requireSpecialChars",
  "preventCommonPasswords",
  "preventSequentialChars",
  "preventRepeatedChars",
  "preventUserInfo",
  "preventRecentPasswords"
] as const

export type BuiltInRuleName = (typeof BUILT_IN_RULE_NAMES)[number]

export { PASSWORD_POLICY_ERROR_CODES }

export type PasswordErrorCode = (typeof PASSWORD_POLICY_ERROR_CODES)[number]

/** The fixed error code of each built-in rule; it never changes. */
export const RULE_ERROR_CODES: Readonly<Record<BuiltInRuleName, PasswordErrorCode>> = Object.freeze({
  minLength: "PASSWORD_TOO_SHORT",
  maxLength: "PASSWORD_TOO_LONG",
  requireUppercase: "PASSWORD_NO_UPPERCASE",
  requireLowercase: "PASSWORD_NO_LOWERCASE",
  requireNumbers: "PASSWORD_NO_NUMBER",
  requireSpecialChars: "PASSWORD_NO_SPECIAL_CHAR",
  preventCommonPasswords: "PASSWORD_TOO_COMMON",
  preventSequentialChars: "PASSWORD_SEQUENTIAL_CHARS",
  preventRepeatedChars: "PASSWORD_REPEATED_CHARS",
  preventUserInfo: "PASSWORD_CONTAINS_USER_INFO",
  preventRecentPasswords: "PASSWORD_RECENTLY_USED"
})

/**
 * The rules whose check is a character test, which `regex` may replace. On every other rule a
 * regex would be meaningless, so the schema refuses it there.
 */
export const CHARACTER_RULE_NAMES = ["requireUppercase", "requireLowercase", "requireNumbers", "requireSpecialChars"] as const

export type CharacterRuleName = (typeof CHARACTER_RULE_NAMES)[number]

export function isCharacterRule(name: string): name is CharacterRuleName {
  return (CHARACTER_RULE_NAMES as readonly string[]).includes(name)
}

export function isBuiltInRuleName(name: string): name is BuiltInRuleName {
  return (BUILT_IN_RULE_NAMES as readonly string[]).includes(name)
}

/** Custom error codes: upper-case letters, digits and underscores, 3 to 64 characters. */
export const CUSTOM_ERROR_CODE_PATTERN = /^[A-Z][A-Z0-9_]{2,63}$/

/** Custom rule ids: letters, digits, underscores and hyphens, 1 to 64 characters. */
export const CUSTOM_RULE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/**
 * One built-in rule.
 *
 * - `enabled`: the rule is checked at all.
 * - `required`: a failure refuses the password; an enabled rule that is not required only produces
 *   a warning (unless the policy's `strictMode` is on).
 * - `value`: the number of minLength (8), maxLength (128), preventSequentialChars (3: no run of more
 *   than 3 sequential characters), preventRepeatedChars (3: no run of more than 3 equal characters)
 *   and preventRecentPasswords (5; 0 keeps no history and skips the rule); for requireSpecialChars
 *   the string of characters that count as special. The other rules have no value.
 * - `message`: the failure message (the policy's `messages[errorCode]` overrides it).
 * - `regex`: only on the character rules (CHARACTER_RULE_NAMES); replaces the default character
 *   test (for example requireUppercase's `\p{Lu}`). Compiled with the `u` flag; the rule passes
 *   when the regex matches somewhere in the password.
 */
export interface PolicyRule {
  name: BuiltInRuleName
  enabled: boolean
  required: boolean
  value?: number | string
  message: string
  errorCode: PasswordErrorCode
  regex?: string
}

/**
 * A rule added by the admin: a regular expression the password must match (`mustMatch`) or must
 * not match (`mustNotMatch`). The regex is compiled with the `u` flag and must pass
 * checkRegexSafety. `id` is unique among the custom rules and is never a built-in rule name; it is
 * what a failure reports as its `rule`.
 */
export interface CustomRule {
  id: string
  name: string
  enabled: boolean
  required: boolean
  message: string
  /** A built-in code or a custom one matching CUSTOM_ERROR_CODE_PATTERN. */
  errorCode: string
  regex: string
  mode: "mustMatch" | "mustNotMatch"
}

/**
 * The whole policy.
 *
 * - `messages`: overrides of failure messages, keyed by error code (built-in or custom).
 * - `strictMode`: every enabled rule counts as required.
 * - `allowOverride`: passwords set by the operator (the ADMIN_PASSWORD at server start) may be
 *   accepted despite failures, with a warning in the log. The server implements this; the engine
 *   only reports.
 * - `logViolations`: the server records each refused password's rule codes (never the password).
 * - `rateLimitAttempts`, `lockoutDuration` (ms): sign-in protection settings kept with the policy.
 */
export interface PasswordPolicyConfig {
  rules: Record<BuiltInRuleName, PolicyRule>
  customRules: CustomRule[]
  messages: Partial<Record<string, string>>
  strictMode: boolean
  allowOverride: boolean
  logViolations: boolean
  rateLimitAttempts: number
  /** Milliseconds. */
  lockoutDuration: number
}

/** The body of `PUT /api/password-policy/rules`: the rule's name and the fields that change. */
export interface PolicyRuleUpdate {
  ruleName: BuiltInRuleName
  enabled?: boolean
  required?: boolean
  value?: number | string
  message?: string
  /** A new character-test override; `null` removes the override. */
  regex?: string | null
}

/** What a password is checked against besides the policy. */
export interface PasswordContext {
  email?: string
  name?: string
  /** Given by the server (a large word list); without it preventCommonPasswords is skipped. */
  isCommonPassword?: (password: string) => boolean
  /**
   * Given by the server for an existing account (argon2 comparisons with the password history);
   * without it preventRecentPasswords is skipped. Called last and only for a password that no
   * other rule refuses.
   */
  isRecentPassword?: (password: string) => Promise<boolean>
}

/** One failed rule. `rule` is the built-in rule name or the custom rule's id. */
export interface PolicyFailure {
  rule: string
  code: string
  message: string
}

/**
 * The outcome of a check. `failures` refuse the password (valid is false when there is any);
 * `warnings` are failed rules that are enabled but not required. Both are in rule order: the
 * built-in rules in BUILT_IN_RULE_NAMES order, then the custom rules in list order.
 */
export interface PolicyEvaluation {
  valid: boolean
  failures: PolicyFailure[]
  warnings: PolicyFailure[]
}

/** One line of the password hint under a form's password field. */
export interface PasswordHint {
  text: string
  /** False for a rule that is enabled but not required: the form shows "(optional)". */
  required: boolean
}
