/**
 * The password-policy engine: checks one password against a policy. Used by the server (with
 * every predicate) and by the browser (without them). Pure: no DOM and no Node APIs.
 */
import { DEFAULT_RULE_VALUES, DEFAULT_SPECIAL_CHARS, PASSWORD_POLICY_LENGTH_CAP, defaultRuleMessage } from "./defaults"
import { compileSafeRegex } from "./safe-regex"
import {
  BUILT_IN_RULE_NAMES,
  type BuiltInRuleName,
  type PasswordContext,
  type PasswordPolicyConfig,
  type PolicyEvaluation,
  type PolicyFailure,
  type PolicyRule
} from "./types"

/** The default character tests, which a character rule's `regex` replaces. */
const DEFAULT_CHARACTER_TESTS = {
  requireUppercase: /\p{Lu}/u,
  requireLowercase: /\p{Ll}/u,
  requireNumbers: /\p{Nd}/u
} as const

function numberValue(rule: PolicyRule, fallback: number): number {
  return typeof rule.value === "number" && Number.isFinite(rule.value) ? rule.value : fallback
}

function defaultNumber(name: BuiltInRuleName): number {
  const value = DEFAULT_RULE_VALUES[name]
  return typeof value === "number" ? value : 0
}

function fold(text: string): string {
  return text.normalize("NFC").toLowerCase()
}

const ASCII_LETTER_OR_DIGIT = /^[a-z0-9]$/

/**
 * True when the password has a run of more than `limit` consecutive sequential characters:
 * ascending or descending by one, all ASCII letters (case-insensitive) or all digits, so with limit
 * 3 "abcd", "DCBA" and "6789" fail and "abc" or "9012" pass. Other characters (and the jump from a
 * letter to a digit) break a run; keyboard patterns such as "qwerty" are left to the common-password
 * list.
 */
export function hasSequentialRun(chars: readonly string[], limit: number): boolean {
  let run = 1
  let step = 0
  for (let i = 1; i < chars.length; i++) {
    const previous = (chars[i - 1] ?? "").toLowerCase()
    const current = (chars[i] ?? "").toLowerCase()
    const sameKind = ASCII_LETTER_OR_DIGIT.test(previous) && ASCII_LETTER_OR_DIGIT.test(current) && isDigit(previous) === isDigit(current)
    const difference = sameKind ? current.charCodeAt(0) - previous.charCodeAt(0) : 0
    if (difference === 1 || difference === -1) {
      run = difference === step ? run + 1 : 2
      step = difference
    } else {
      run = 1
      step = 0
    }
    if (run > limit) return true
  }
  return false
}

function isDigit(char: string): boolean {
  return char >= "0" && char <= "9"
}

/**
 * True when the password has a run of more than `limit` equal characters ("aaaa" with limit 3).
 * Compared without case, like sequences: "aAaA" is a repetition too.
 */
export function hasRepeatedRun(chars: readonly string[], limit: number): boolean {
  let run = 1
  for (let i = 1; i < chars.length; i++) {
    run = fold(chars[i] ?? "") === fold(chars[i - 1] ?? "") ? run + 1 : 1
    if (run > limit) return true
  }
  return false
}

const MIN_USER_INFO_PART = 3
const NAME_SEPARATORS = /[\s._-]+/u
const LOCAL_PART_SEPARATORS = /[\s._+\-\p{Nd}]+/u

/**
 * The pieces of the user's identity a password must not contain, lower-cased: the whole e-mail,
 * its local part (before the last "@"; an address without "@" is all local part), the parts of the
 * local part split on dots, hyphens, underscores, plus signs and digits, and the parts of the name
 * split on spaces, dots, hyphens and underscores. Only pieces of at least 3 characters count.
 */
export function userInfoParts(context: Pick<PasswordContext, "email" | "name">): string[] {
  const parts = new Set<string>()
  const add = (piece: string) => {
    if (Array.from(piece).length >= MIN_USER_INFO_PART) parts.add(piece)
  }
  const email = fold(context.email?.trim() ?? "")
  if (email) {
    add(email)
    const at = email.lastIndexOf("@")
    const local = at === -1 ? email : email.slice(0, at)
    add(local)
    for (const piece of local.split(LOCAL_PART_SEPARATORS)) add(piece)
  }
  for (const piece of fold(context.name ?? "").split(NAME_SEPARATORS)) add(piece)
  return [...parts]
}

/** The configured failure message: messages[code] first, then the rule's own message. */
function messageFor(config: PasswordPolicyConfig, code: string, ruleMessage: string): string {
  return (Object.hasOwn(config.messages, code) ? config.messages[code] : undefined) ?? ruleMessage
}

/**
 * Checks a password against the policy.
 *
 * - Only enabled rules are checked. A failure of a required rule (or of any enabled rule with
 *   strictMode) goes to `failures` and makes the password invalid; a failure of a rule that is not
 *   required goes to `warnings`.
 * - Lengths count Unicode code points. A password longer than PASSWORD_POLICY_LENGTH_CAP (1024) is
 *   refused as too long at once, even when maxLength is disabled, and nothing else is checked.
 * - Upper case, lower case and numbers are Unicode (`\p{Lu}`, `\p{Ll}`, `\p{Nd}`: "É" is an
 *   upper-case letter) unless the rule's regex replaces the test; special characters are those in
 *   the rule's value.
 * - preventCommonPasswords is skipped when the context has no isCommonPassword, preventUserInfo
 *   when it has neither e-mail nor name, and preventRecentPasswords when it has no
 *   isRecentPassword or the rule's value is 0. The server always gives the predicates (the recent
 *   one for existing accounts); the browser does not, so its answer may be "valid" where the
 *   server's is not.
 * - isRecentPassword is expensive (argon2 on the server), so it is called last, after every other
 *   rule including the custom ones, and only when no required rule has failed (the password is
 *   valid so far, possibly with warnings): there is no point hashing a password already refused.
 * - A predicate that throws rejects the returned promise; callers must treat that as an error, never
 *   as a pass. A regex that fails checkRegexSafety (a policy that bypassed the schema) throws
 *   UnsafeRegexError.
 */
export async function evaluatePassword(
  password: string,
  config: PasswordPolicyConfig,
  context: PasswordContext = {}
): Promise<PolicyEvaluation> {
  const failures: PolicyFailure[] = []
  const warnings: PolicyFailure[] = []
  const report = (rule: string, required: boolean, code: string, ruleMessage: string) => {
    const failure: PolicyFailure = { rule, code, message: messageFor(config, code, ruleMessage) }
    if (config.strictMode || required) failures.push(failure)
    else warnings.push(failure)
  }

  // A string of more than 2 x cap UTF-16 units has more than cap code points: no need to split it.
  const length = password.length > 2 * PASSWORD_POLICY_LENGTH_CAP ? Infinity : Array.from(password).length
  if (length > PASSWORD_POLICY_LENGTH_CAP) {
    const rule = config.rules.maxLength
    // Always a refusal; a disabled maxLength's message could name a smaller limit, so name the cap.
    report("maxLength", true, rule.errorCode, rule.enabled ? rule.message : defaultRuleMessage("maxLength", PASSWORD_POLICY_LENGTH_CAP))
    return { valid: false, failures, warnings }
  }
  const chars = Array.from(password)

  const passes = (name: Exclude<BuiltInRuleName, "preventRecentPasswords">, rule: PolicyRule): boolean | "skipped" => {
    switch (name) {
      case "minLength":
        return chars.length >= numberValue(rule, defaultNumber(name))
      case "maxLength":
        return chars.length <= numberValue(rule, defaultNumber(name))
      case "requireUppercase":
      case "requireLowercase":
      case "requireNumbers":
        return (rule.regex ? compileSafeRegex(rule.regex) : DEFAULT_CHARACTER_TESTS[name]).test(password)
      case "requireSpecialChars": {
        if (rule.regex) return compileSafeRegex(rule.regex).test(password)
        const special = new Set(Array.from(typeof rule.value === "string" && rule.value ? rule.value : DEFAULT_SPECIAL_CHARS))
        return chars.some((char) => special.has(char))
      }
      case "preventCommonPasswords":
        return context.isCommonPassword ? !context.isCommonPassword(password) : "skipped"
      case "preventSequentialChars":
        return !hasSequentialRun(chars, numberValue(rule, defaultNumber(name)))
      case "preventRepeatedChars":
        return !hasRepeatedRun(chars, numberValue(rule, defaultNumber(name)))
      case "preventUserInfo": {
        const parts = userInfoParts(context)
        if (parts.length === 0) return "skipped"
        const folded = fold(password)
        return !parts.some((part) => folded.includes(part))
      }
    }
  }

  for (const name of BUILT_IN_RULE_NAMES) {
    if (name === "preventRecentPasswords") continue
    const rule = config.rules[name]
    if (rule.enabled && passes(name, rule) === false) report(name, rule.required, rule.errorCode, rule.message)
  }

  const customFailures: PolicyFailure[] = []
  const customWarnings: PolicyFailure[] = []
  for (const rule of config.customRules) {
    if (!rule.enabled) continue
    const matches = compileSafeRegex(rule.regex).test(password)
    if (matches === (rule.mode === "mustMatch")) continue
    const failure: PolicyFailure = { rule: rule.id, code: rule.errorCode, message: messageFor(config, rule.errorCode, rule.message) }
    if (config.strictMode || rule.required) customFailures.push(failure)
    else customWarnings.push(failure)
  }

  // preventRecentPasswords is the last built-in rule, so appending keeps the rule order.
  const recent = config.rules.preventRecentPasswords
  if (
    recent.enabled &&
    context.isRecentPassword &&
    numberValue(recent, defaultNumber("preventRecentPasswords")) > 0 &&
    failures.length === 0 &&
    customFailures.length === 0 &&
    (await context.isRecentPassword(password))
  ) {
    report("preventRecentPasswords", recent.required, recent.errorCode, recent.message)
  }

  failures.push(...customFailures)
  warnings.push(...customWarnings)
  return { valid: failures.length === 0, failures, warnings }
}
