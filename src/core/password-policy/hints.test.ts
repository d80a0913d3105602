// @vitest-environment node
import { describe, expect, it } from "vitest"

import { createDefaultPasswordPolicy, DEFAULT_PASSWORD_POLICY } from "./defaults"
import { FALLBACK_PASSWORD_HINTS, passwordRequirementHints } from "./hints"

const DEFAULT_HINTS = [
  { text: "At least 8 characters", required: true },
  { text: "One uppercase letter", required: true },
  { text: "One lowercase letter", required: true },
  { text: "One number", required: true },
  { text: "One special character (!@#$…)", required: true }
]

describe("passwordRequirementHints", () => {
  it("lists length, upper, lower, number and special character for the default policy", () => {
    expect(passwordRequirementHints(DEFAULT_PASSWORD_POLICY)).toEqual(DEFAULT_HINTS)
  })

  it("follows the configured length and special characters", () => {
    const config = createDefaultPasswordPolicy()
    config.rules.minLength.value = 12
    config.rules.requireSpecialChars.value = "!?"
    expect(passwordRequirementHints(config).map((hint) => hint.text)).toEqual([
      "At least 12 characters",
      "One uppercase letter",
      "One lowercase letter",
      "One number",
      "One special character (!?)"
    ])
    config.rules.minLength.value = 1
    expect(passwordRequirementHints(config)[0]?.text).toBe("At least 1 character")
  })

  it("marks enabled rules that are not required as optional", () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireUppercase.required = false
    config.rules.requireSpecialChars.required = false
    expect(passwordRequirementHints(config).map((hint) => hint.required)).toEqual([true, false, true, true, false])
  })

  it("counts every enabled rule as required in strictMode", () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireUppercase.required = false
    config.strictMode = true
    expect(passwordRequirementHints(config)).toEqual(DEFAULT_HINTS)
  })

  it("needs only the rules, as the public config call returns them", () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireNumbers.required = false
    expect(passwordRequirementHints({ rules: config.rules })[3]).toEqual({ text: "One number", required: false })
  })

  it("leaves disabled rules out", () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireLowercase.enabled = false
    config.rules.requireSpecialChars.enabled = false
    expect(passwordRequirementHints(config).map((hint) => hint.text)).toEqual(["At least 8 characters", "One uppercase letter", "One number"])
    config.rules.minLength.enabled = false
    config.rules.requireUppercase.enabled = false
    config.rules.requireNumbers.enabled = false
    expect(passwordRequirementHints(config)).toEqual([])
  })
})

describe("FALLBACK_PASSWORD_HINTS", () => {
  it("is 8 characters, upper, lower, number and special, all required, and frozen", () => {
    expect(FALLBACK_PASSWORD_HINTS).toEqual(DEFAULT_HINTS)
    expect(Object.isFrozen(FALLBACK_PASSWORD_HINTS)).toBe(true)
    expect(Object.isFrozen(FALLBACK_PASSWORD_HINTS[0])).toBe(true)
  })
})
