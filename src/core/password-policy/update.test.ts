// @vitest-environment node
import { describe, expect, it } from "vitest"

import { createDefaultPasswordPolicy, DEFAULT_PASSWORD_POLICY } from "./defaults"
import { applyRuleUpdate, PasswordPolicyUpdateError } from "./update"
import type { PolicyRuleUpdate } from "./types"

describe("applyRuleUpdate", () => {
  it("returns a new policy with the rule changed and leaves the old one alone", () => {
    const config = createDefaultPasswordPolicy()
    const next = applyRuleUpdate(config, { ruleName: "requireSpecialChars", required: false, value: "!?" })
    expect(next.rules.requireSpecialChars).toMatchObject({ required: false, enabled: true, value: "!?", errorCode: "PASSWORD_NO_SPECIAL_CHAR" })
    expect(config.rules.requireSpecialChars).toEqual(DEFAULT_PASSWORD_POLICY.rules.requireSpecialChars)
    expect(next.rules.minLength).toEqual(config.rules.minLength)
  })

  it("works on the frozen default policy", () => {
    expect(applyRuleUpdate(DEFAULT_PASSWORD_POLICY, { ruleName: "preventUserInfo", enabled: false }).rules.preventUserInfo.enabled).toBe(false)
  })

  it("keeps a default message in step with the value, and keeps a written one", () => {
    const next = applyRuleUpdate(DEFAULT_PASSWORD_POLICY, { ruleName: "minLength", value: 12 })
    expect(next.rules.minLength.message).toBe("Password must be at least 12 characters long")
    const written = applyRuleUpdate(applyRuleUpdate(DEFAULT_PASSWORD_POLICY, { ruleName: "minLength", message: "Make it long" }), {
      ruleName: "minLength",
      value: 10
    })
    expect(written.rules.minLength).toMatchObject({ value: 10, message: "Make it long" })
    expect(applyRuleUpdate(DEFAULT_PASSWORD_POLICY, { ruleName: "minLength", value: 10, message: "Ten!" }).rules.minLength.message).toBe("Ten!")
  })

  it("sets and removes a regex override", () => {
    const withRegex = applyRuleUpdate(DEFAULT_PASSWORD_POLICY, { ruleName: "requireUppercase", regex: "[A-Z]" })
    expect(withRegex.rules.requireUppercase.regex).toBe("[A-Z]")
    const without = applyRuleUpdate(withRegex, { ruleName: "requireUppercase", regex: null })
    expect(without.rules.requireUppercase).not.toHaveProperty("regex")
  })

  it.each<[PolicyRuleUpdate, RegExp]>([
    [{ ruleName: "minLength", value: 200 }, /value: Minimum length must be at most 128/],
    [{ ruleName: "maxLength", value: 7 }, /Maximum length must be at least 8/],
    [{ ruleName: "minLength" }, /Nothing to change/],
    [{ ruleName: "requireUppercase", regex: "(A+)+" }, /nested quantifiers/],
    [{ ruleName: "preventUserInfo", value: 3 }, /has no value/]
  ])("refuses %j with a readable error", (update, expected) => {
    expect(() => applyRuleUpdate(DEFAULT_PASSWORD_POLICY, update)).toThrow(PasswordPolicyUpdateError)
    expect(() => applyRuleUpdate(DEFAULT_PASSWORD_POLICY, update)).toThrow(expected)
  })

  it("refuses a minLength above maxLength on the whole policy", () => {
    const narrow = applyRuleUpdate(DEFAULT_PASSWORD_POLICY, { ruleName: "maxLength", value: 16 })
    expect(() => applyRuleUpdate(narrow, { ruleName: "minLength", value: 20 })).toThrow(
      "rules.maxLength.value: Maximum length (16) must be at least the minimum length (20)"
    )
  })
})
