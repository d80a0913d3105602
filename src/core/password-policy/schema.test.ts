// @vitest-environment node
import { describe, expect, it } from "vitest"

import { createDefaultPasswordPolicy, DEFAULT_PASSWORD_POLICY } from "./defaults"
import { customRuleSchema, passwordPolicyConfigSchema, policyRuleUpdateSchema } from "./schema"
import { BUILT_IN_RULE_NAMES, RULE_ERROR_CODES, type CustomRule, type PasswordPolicyConfig } from "./types"

function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] {
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`)
}

function withChange(change: (config: PasswordPolicyConfig) => void): unknown {
  const config = createDefaultPasswordPolicy()
  change(config)
  return config
}

const custom: CustomRule = {
  id: "no-company",
  name: "No company name",
  enabled: true,
  required: true,
  message: "Do not use the company name",
  errorCode: "PASSWORD_HAS_COMPANY",
  regex: "acme",
  mode: "mustNotMatch"
}

describe("passwordPolicyConfigSchema", () => {
  it("accepts the default policy unchanged", () => {
    const result = passwordPolicyConfigSchema.safeParse(DEFAULT_PASSWORD_POLICY)
    expect(messagesOf(result)).toEqual([])
    expect(result.data).toEqual(DEFAULT_PASSWORD_POLICY)
  })

  it("has every built-in rule, in order, with its code, enabled and required", () => {
    expect(Object.keys(DEFAULT_PASSWORD_POLICY.rules)).toEqual([...BUILT_IN_RULE_NAMES])
    for (const name of BUILT_IN_RULE_NAMES) {
      expect(DEFAULT_PASSWORD_POLICY.rules[name]).toMatchObject({ name, enabled: true, required: true, errorCode: RULE_ERROR_CODES[name] })
    }
    const { rules, ...options } = DEFAULT_PASSWORD_POLICY
    expect(options).toEqual({
      customRules: [],
      messages: {},
      strictMode: false,
      allowOverride: false,
      logViolations: true,
      rateLimitAttempts: 5,
      lockoutDuration: 900_000
    })
    expect(rules.minLength.value).toBe(8)
    expect(rules.maxLength.value).toBe(128)
    expect(rules.preventSequentialChars.value).toBe(3)
    expect(rules.preventRepeatedChars.value).toBe(3)
    expect(rules.preventRecentPasswords.value).toBe(5)
    expect(rules.requireSpecialChars.value).toBe("!@#$%^&*()_+-=[]{};':\"\\|,.<>/?`~")
    expect(rules.minLength.message).toBe("Password must be at least 8 characters long")
    expect(rules.preventSequentialChars.message).toBe("Password must not contain more than 3 sequential characters (like abcd or 1234)")
  })

  it("accepts a policy with custom rules, message overrides and overrides of character tests", () => {
    const config = withChange((policy) => {
      policy.customRules = [custom, { ...custom, id: "starts", regex: "^\\p{L}", mode: "mustMatch", errorCode: "START_LETTER" }]
      policy.messages = { PASSWORD_TOO_SHORT: "Longer, please", PASSWORD_HAS_COMPANY: "No ACME" }
      policy.rules.requireUppercase.regex = "[A-Z]"
      policy.rules.minLength.value = 1
      policy.rules.maxLength.value = 1024
      policy.rules.preventRecentPasswords.value = 0
    })
    expect(messagesOf(passwordPolicyConfigSchema.safeParse(config))).toEqual([])
  })

  it.each<[string, (config: PasswordPolicyConfig) => void, RegExp]>([
    ["minLength 0", (c) => (c.rules.minLength.value = 0), /rules\.minLength\.value: Minimum length must be at least 1/],
    ["minLength 129", (c) => (c.rules.minLength.value = 129), /rules\.minLength\.value: Minimum length must be at most 128/],
    ["minLength 8.5", (c) => (c.rules.minLength.value = 8.5), /whole number/],
    ["minLength as a string", (c) => (c.rules.minLength.value = "8"), /rules\.minLength\.value/],
    ["maxLength 7", (c) => (c.rules.maxLength.value = 7), /rules\.maxLength\.value: Maximum length must be at least 8/],
    ["maxLength 1025", (c) => (c.rules.maxLength.value = 1025), /Maximum length must be at most 1024/],
    ["sequential 1", (c) => (c.rules.preventSequentialChars.value = 1), /preventSequentialChars\.value: .* at least 2/],
    ["sequential 21", (c) => (c.rules.preventSequentialChars.value = 21), /preventSequentialChars\.value: .* at most 20/],
    ["repeated 1", (c) => (c.rules.preventRepeatedChars.value = 1), /preventRepeatedChars\.value: .* at least 2/],
    ["repeated 21", (c) => (c.rules.preventRepeatedChars.value = 21), /preventRepeatedChars\.value: .* at most 20/],
    ["recent -1", (c) => (c.rules.preventRecentPasswords.value = -1), /preventRecentPasswords\.value: .* at least 0/],
    ["recent 25", (c) => (c.rules.preventRecentPasswords.value = 25), /preventRecentPasswords\.value: .* at most 24/],
    ["no special characters", (c) => (c.rules.requireSpecialChars.value = ""), /special characters must not be empty/],
    ["101 special characters", (c) => (c.rules.requireSpecialChars.value = "!".repeat(101)), /special characters must be at most 100/],
    ["a value on a rule without one", (c) => (c.rules.preventUserInfo.value = 3), /rules\.preventUserInfo: Unrecognized key/],
    ["a missing value", (c) => delete c.rules.minLength.value, /rules\.minLength\.value/],
    ["a regex on a length rule", (c) => (c.rules.minLength.regex = "a"), /rules\.minLength: Unrecognized key/],
    ["an unsafe override", (c) => (c.rules.requireUppercase.regex = "([A-Z]+)+"), /rules\.requireUppercase\.regex: Unsafe or invalid regular expression: nested/],
    ["a blank message", (c) => (c.rules.minLength.message = "  "), /Message must not be empty/],
    ["a 301-character message", (c) => (c.rules.minLength.message = "m".repeat(301)), /Message must be at most 300 characters/],
    ["a changed error code", (c) => (c.rules.minLength.errorCode = "PASSWORD_TOO_LONG"), /rules\.minLength\.errorCode: The error code of minLength is PASSWORD_TOO_SHORT/],
    ["a changed name", (c) => (c.rules.minLength.name = "maxLength"), /rules\.minLength\.name/],
    ["a missing rule", (c) => delete (c.rules as Partial<PasswordPolicyConfig["rules"]>).preventUserInfo, /rules\.preventUserInfo/],
    ["an unknown rule", (c) => Object.assign(c.rules, { preventEmoji: c.rules.preventUserInfo }), /Unrecognized key/],
    ["an unknown top-level key", (c) => Object.assign(c, { extra: true }), /Unrecognized key/],
    ["an unknown key in a rule", (c) => Object.assign(c.rules.minLength, { hint: "x" }), /rules\.minLength: Unrecognized key/],
    ["rateLimitAttempts 0", (c) => (c.rateLimitAttempts = 0), /rateLimitAttempts: .* at least 1/],
    ["rateLimitAttempts 101", (c) => (c.rateLimitAttempts = 101), /rateLimitAttempts: .* at most 100/],
    ["lockoutDuration 999", (c) => (c.lockoutDuration = 999), /lockoutDuration: .* at least 1000/],
    ["lockoutDuration over a day", (c) => (c.lockoutDuration = 86_400_001), /lockoutDuration: .* at most 86400000/],
    ["a non-boolean option", (c) => Object.assign(c, { strictMode: "yes" }), /strictMode/],
    ["maxLength below minLength", (c) => ((c.rules.minLength.value = 20), (c.rules.maxLength.value = 12)), /rules\.maxLength\.value: Maximum length \(12\) must be at least the minimum length \(20\)/],
    ["21 custom rules", (c) => (c.customRules = Array.from({ length: 21 }, (_, i) => ({ ...custom, id: `r${i}` }))), /At most 20 custom rules/],
    ["a duplicate custom id", (c) => (c.customRules = [custom, { ...custom }]), /customRules\.1\.id: Custom rule id "no-company" is used twice/],
    ["a message override with a bad code", (c) => (c.messages = { "too short": "x" }), /messages/],
    ["a 301-character message override", (c) => (c.messages = { PASSWORD_TOO_SHORT: "m".repeat(301) }), /messages\.PASSWORD_TOO_SHORT: Message must be at most 300/]
  ])("refuses %s", (_label, change, expected) => {
    const result = passwordPolicyConfigSchema.safeParse(withChange(change))
    expect(result.success).toBe(false)
    expect(messagesOf(result).join("\n")).toMatch(expected)
  })
})

describe("customRuleSchema", () => {
  it("accepts a valid rule", () => {
    expect(customRuleSchema.safeParse(custom).success).toBe(true)
  })

  it.each<[string, Partial<Record<keyof CustomRule, unknown>> & Record<string, unknown>, RegExp]>([
    ["a missing regex", { regex: undefined }, /regex/],
    ["an empty regex", { regex: "" }, /must not be empty/],
    ["an unsafe regex", { regex: "(a|aa)+" }, /Unsafe or invalid regular expression: alternation inside a repeated group/],
    ["an invalid regex", { regex: "(" }, /not a valid regular expression/],
    ["a lower-case error code", { errorCode: "no_company" }, /error code/],
    ["a too short error code", { errorCode: "AB" }, /error code/],
    ["a 61-character name", { name: "n".repeat(61) }, /Name must be at most 60 characters/],
    ["a blank name", { name: " " }, /Name must not be empty/],
    ["a built-in rule name as id", { id: "minLength" }, /must not be a built-in rule name/],
    ["an id with spaces", { id: "no company" }, /custom rule id/],
    ["an unknown mode", { mode: "contains" }, /mode/],
    ["an unknown key", { severity: "high" }, /Unrecognized key/]
  ])("refuses %s", (_label, change, expected) => {
    const result = customRuleSchema.safeParse({ ...custom, ...change })
    expect(result.success).toBe(false)
    expect(messagesOf(result).join("\n")).toMatch(expected)
  })
})

describe("policyRuleUpdateSchema", () => {
  it.each([
    { ruleName: "minLength", value: 12 },
    { ruleName: "requireSpecialChars", enabled: false, required: false },
    { ruleName: "requireSpecialChars", value: "!?" },
    { ruleName: "requireUppercase", regex: "[A-Z]" },
    { ruleName: "requireUppercase", regex: null },
    { ruleName: "preventUserInfo", message: "No names" }
  ])("accepts %j", (update) => {
    expect(messagesOf(policyRuleUpdateSchema.safeParse(update))).toEqual([])
  })

  it.each<[unknown, RegExp]>([
    [{ ruleName: "minLength" }, /Nothing to change/],
    [{ ruleName: "unknownRule", enabled: true }, /ruleName/],
    [{ ruleName: "minLength", value: 200 }, /value: Minimum length must be at most 128/],
    [{ ruleName: "minLength", value: "12" }, /value: Minimum length must be a number/],
    [{ ruleName: "preventUserInfo", value: 3 }, /value: The rule preventUserInfo has no value/],
    [{ ruleName: "minLength", regex: "a" }, /regex: The rule minLength does not take a regular expression/],
    [{ ruleName: "requireUppercase", regex: "(?<=a)B" }, /regex: Unsafe or invalid regular expression: lookahead and lookbehind/],
    [{ ruleName: "minLength", errorCode: "PASSWORD_TOO_LONG" }, /Unrecognized key/],
    [{ ruleName: "minLength", name: "maxLength" }, /Unrecognized key/],
    [{ ruleName: "minLength", message: "" }, /Message must not be empty/]
  ])("refuses %j", (update, expected) => {
    const result = policyRuleUpdateSchema.safeParse(update)
    expect(result.success).toBe(false)
    expect(messagesOf(result).join("\n")).toMatch(expected)
  })
})
