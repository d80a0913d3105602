// @vitest-environment node
import { describe, expect, it, vi } from "vitest"

import { createDefaultPasswordPolicy, DEFAULT_PASSWORD_POLICY } from "./defaults"
import { evaluatePassword, hasRepeatedRun, hasSequentialRun, userInfoParts } from "./engine"
import { UnsafeRegexError } from "./safe-regex"
import { BUILT_IN_RULE_NAMES, type BuiltInRuleName, type CustomRule, type PasswordContext, type PasswordPolicyConfig } from "./types"

const GOOD = "Blue-Harbor-42!"

/** The default policy with only the named rules enabled. */
function only(...names: BuiltInRuleName[]): PasswordPolicyConfig {
  const config = createDefaultPasswordPolicy()
  for (const name of BUILT_IN_RULE_NAMES) config.rules[name].enabled = names.includes(name)
  return config
}

async function codes(password: string, config: PasswordPolicyConfig, context?: PasswordContext): Promise<string[]> {
  return (await evaluatePassword(password, config, context)).failures.map((failure) => failure.code)
}

const isCommonPassword = (password: string) => ["password", "letmein", "blue-harbor-42!"].includes(password.toLowerCase())

describe("the default policy", () => {
  it("accepts a strong password", async () => {
    expect(await evaluatePassword(GOOD, DEFAULT_PASSWORD_POLICY, { email: "ann@example.com", name: "Ann Lee", isCommonPassword: () => false })).toEqual({
      valid: true,
      failures: [],
      warnings: []
    })
    expect((await evaluatePassword("Correct-Horse-9?", DEFAULT_PASSWORD_POLICY)).valid).toBe(true)
  })

  it("refuses 'password' with every failure in rule order and plain messages", async () => {
    const evaluation = await evaluatePassword("password", DEFAULT_PASSWORD_POLICY, { isCommonPassword })
    expect(evaluation.valid).toBe(false)
    expect(evaluation.failures).toEqual([
      { rule: "requireUppercase", code: "PASSWORD_NO_UPPERCASE", message: "Password must contain at least one uppercase letter" },
      { rule: "requireNumbers", code: "PASSWORD_NO_NUMBER", message: "Password must contain at least one number" },
      { rule: "requireSpecialChars", code: "PASSWORD_NO_SPECIAL_CHAR", message: "Password must contain at least one special character" },
      { rule: "preventCommonPasswords", code: "PASSWORD_TOO_COMMON", message: "This password is too common. Please choose a less common password" }
    ])
    expect(evaluation.warnings).toEqual([])
  })

  it("is frozen; createDefaultPasswordPolicy gives independent copies", () => {
    expect(Object.isFrozen(DEFAULT_PASSWORD_POLICY.rules.minLength)).toBe(true)
    const copy = createDefaultPasswordPolicy()
    copy.rules.minLength.value = 12
    expect(DEFAULT_PASSWORD_POLICY.rules.minLength.value).toBe(8)
    expect(createDefaultPasswordPolicy().rules.minLength.value).toBe(8)
  })
})

describe("length rules", () => {
  it("needs at least minLength code points (7 refused, 8 accepted)", async () => {
    const config = only("minLength")
    expect(await codes("Abcdef1", config)).toEqual(["PASSWORD_TOO_SHORT"])
    expect(await codes("Abcdef12", config)).toEqual([])
    expect((await evaluatePassword("", config)).failures[0]?.message).toBe("Password must be at least 8 characters long")
  })

  it("allows at most maxLength code points (128 accepted, 129 refused)", async () => {
    const config = only("maxLength")
    expect(await codes("a".repeat(128), config)).toEqual([])
    expect(await codes("a".repeat(129), config)).toEqual(["PASSWORD_TOO_LONG"])
  })

  it("counts code points, not UTF-16 units", async () => {
    const config = only("minLength", "maxLength")
    expect(await codes("😀".repeat(8), config)).toEqual([])
    expect(await codes("😀".repeat(7), config)).toEqual(["PASSWORD_TOO_SHORT"])
    expect(await codes("😀".repeat(128), config)).toEqual([])
  })

  it("refuses a password over 1024 code points at once, even with maxLength disabled", async () => {
    const isRecentPassword = vi.fn(async () => false)
    const evaluation = await evaluatePassword("a".repeat(1025), only("minLength"), { isRecentPassword })
    expect(evaluation.failures).toEqual([{ rule: "maxLength", code: "PASSWORD_TOO_LONG", message: "Password must be at most 1024 characters long" }])
    expect(isRecentPassword).not.toHaveBeenCalled()
    expect(await codes("x".repeat(5_000_000), DEFAULT_PASSWORD_POLICY)).toEqual(["PASSWORD_TOO_LONG"])
    expect(await codes("😀".repeat(1024), only())).toEqual([])
  })
})

describe("character rules", () => {
  it("requires an upper-case letter, Unicode included", async () => {
    const config = only("requireUppercase")
    expect(await codes("abc", config)).toEqual(["PASSWORD_NO_UPPERCASE"])
    expect(await codes("abC", config)).toEqual([])
    expect(await codes("élan É", config)).toEqual([])
    expect(await codes("élan", config)).toEqual(["PASSWORD_NO_UPPERCASE"])
  })

  it("requires a lower-case letter, Unicode included", async () => {
    const config = only("requireLowercase")
    expect(await codes("ABC1", config)).toEqual(["PASSWORD_NO_LOWERCASE"])
    expect(await codes("ABCß", config)).toEqual([])
  })

  it("requires a number", async () => {
    const config = only("requireNumbers")
    expect(await codes("abc", config)).toEqual(["PASSWORD_NO_NUMBER"])
    expect(await codes("abc0", config)).toEqual([])
  })

  it("requires a special character from the rule's set", async () => {
    const config = only("requireSpecialChars")
    expect(await codes("abc", config)).toEqual(["PASSWORD_NO_SPECIAL_CHAR"])
    for (const char of "!@#$%^&*()_+-=[]{};':\"\\|,.<>/?`~") expect(await codes(`abc${char}`, config)).toEqual([])
    expect(await codes("abc €", config)).toEqual(["PASSWORD_NO_SPECIAL_CHAR"])
    config.rules.requireSpecialChars.value = "€"
    expect(await codes("abc€", config)).toEqual([])
    expect(await codes("abc!", config)).toEqual(["PASSWORD_NO_SPECIAL_CHAR"])
  })

  it("uses a rule's regex instead of its default test", async () => {
    const config = only("requireUppercase", "requireSpecialChars")
    config.rules.requireUppercase.regex = "[A-Z]"
    config.rules.requireSpecialChars.regex = "[^\\p{L}\\p{Nd}]"
    expect(await codes("ÉÉ€", config)).toEqual(["PASSWORD_NO_UPPERCASE"])
    expect(await codes("AÉ€", config)).toEqual([])
  })
})

describe("sequential and repeated characters", () => {
  it("allows a run of 3 sequential characters and refuses 4", async () => {
    const config = only("preventSequentialChars")
    for (const ok of ["xabcx", "x123x", "cba", "xyz", "abd", "ab12", "9012", "a-b-c-d"]) expect(await codes(ok, config)).toEqual([])
    for (const bad of ["abcd", "1234", "dcba", "DCBA", "aBcD", "6789", "9876", "x-wxyz-"]) expect(await codes(bad, config)).toEqual(["PASSWORD_SEQUENTIAL_CHARS"])
  })

  it("follows the configured limit", async () => {
    const config = only("preventSequentialChars")
    config.rules.preventSequentialChars.value = 2
    expect(await codes("ab", config)).toEqual([])
    expect(await codes("abc", config)).toEqual(["PASSWORD_SEQUENTIAL_CHARS"])
    expect(hasSequentialRun(Array.from("abcde"), 5)).toBe(false)
    expect(hasSequentialRun(Array.from("abcdef"), 5)).toBe(true)
    expect(hasSequentialRun(Array.from("abcba"), 2)).toBe(true)
    expect(hasSequentialRun(Array.from("abab"), 2)).toBe(false)
  })

  it("allows 3 repeated characters and refuses 4", async () => {
    const config = only("preventRepeatedChars")
    expect(await codes("xaaax", config)).toEqual([])
    expect(await codes("aaaa", config)).toEqual(["PASSWORD_REPEATED_CHARS"])
    expect(await codes("x1111", config)).toEqual(["PASSWORD_REPEATED_CHARS"])
    expect(await codes("aAaA", config)).toEqual(["PASSWORD_REPEATED_CHARS"])
    expect(await codes("😀😀😀😀", config)).toEqual(["PASSWORD_REPEATED_CHARS"])
    expect(hasRepeatedRun(Array.from("aaab"), 3)).toBe(false)
  })
})

describe("personal information", () => {
  const context = { email: "John.Smith99@example.com", name: "Mary-Jane O Li" }

  it("refuses the e-mail, its local part and their parts, without case", async () => {
    const config = only("preventUserInfo")
    for (const bad of ["xJOHN.SMITH99x", "john.smith99@example.com!", "Smithy!", "xxJohnxx"]) {
      expect(await codes(bad, config, context)).toEqual(["PASSWORD_CONTAINS_USER_INFO"])
    }
    expect(await codes("Example!", config, context)).toEqual([]) // the domain alone is not personal
  })

  it("refuses parts of the name of 3 or more characters, and ignores shorter ones", async () => {
    const config = only("preventUserInfo")
    expect(await codes("mary!", config, context)).toEqual(["PASSWORD_CONTAINS_USER_INFO"])
    expect(await codes("JANE!", config, context)).toEqual(["PASSWORD_CONTAINS_USER_INFO"])
    expect(await codes("Li-O-go!", config, context)).toEqual([])
    expect(await codes("Al-Bo-Xi!", config, { email: "ab@x.io", name: "Al Bo Xi" })).toEqual([])
    expect(await codes("Alice1!", config, { name: "ALICE Bo" })).toEqual(["PASSWORD_CONTAINS_USER_INFO"])
  })

  it("splits the local part on digits and the name on dots, hyphens and underscores", () => {
    expect(userInfoParts({ email: "ann2bob_x@mail.com", name: "Émile.Zola_de-la" })).toEqual([
      "ann2bob_x@mail.com",
      "ann2bob_x",
      "ann",
      "bob",
      "émile",
      "zola"
    ])
    expect(userInfoParts({})).toEqual([])
  })

  it("is skipped without e-mail or name", async () => {
    expect(await codes("john", only("preventUserInfo"))).toEqual([])
  })
})

describe("common and recent passwords", () => {
  it("refuses a common password through the predicate, and skips the rule without one", async () => {
    const config = only("preventCommonPasswords")
    expect(await codes("LetMeIn", config, { isCommonPassword })).toEqual(["PASSWORD_TOO_COMMON"])
    expect(await codes("Rare-Words-7", config, { isCommonPassword })).toEqual([])
    expect(await codes("LetMeIn", config)).toEqual([])
  })

  it("calls the recent predicate for an otherwise valid password and refuses a recent one", async () => {
    const isRecentPassword = vi.fn(async (password: string) => password === GOOD)
    const evaluation = await evaluatePassword(GOOD, DEFAULT_PASSWORD_POLICY, { isRecentPassword, isCommonPassword: () => false })
    expect(isRecentPassword).toHaveBeenCalledWith(GOOD)
    expect(evaluation).toEqual({
      valid: false,
      failures: [{ rule: "preventRecentPasswords", code: "PASSWORD_RECENTLY_USED", message: "Password must not be one of your last 5 passwords" }],
      warnings: []
    })
    expect((await evaluatePassword("Other-Harbor-42!", DEFAULT_PASSWORD_POLICY, { isRecentPassword })).valid).toBe(true)
  })

  it("does not call the recent predicate when a required rule already failed (custom rules included)", async () => {
    const isRecentPassword = vi.fn(async () => true)
    expect(await codes("short", DEFAULT_PASSWORD_POLICY, { isRecentPassword })).not.toContain("PASSWORD_RECENTLY_USED")
    const config = createDefaultPasswordPolicy()
    config.customRules = [customRule({ regex: "Harbor", mode: "mustNotMatch" })]
    expect(await codes(GOOD, config, { isRecentPassword })).toEqual(["NO_HARBOR"])
    expect(isRecentPassword).not.toHaveBeenCalled()
  })

  it("calls the recent predicate when the other failures are only warnings, and reports it before custom rules", async () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireSpecialChars.required = false
    config.customRules = [customRule({ regex: "Harbor", mode: "mustNotMatch", required: false })]
    const isRecentPassword = vi.fn(async () => true)
    const evaluation = await evaluatePassword("BlueHarbor42", config, { isRecentPassword })
    expect(isRecentPassword).toHaveBeenCalledTimes(1)
    expect(evaluation.failures.map((failure) => failure.rule)).toEqual(["preventRecentPasswords"])
    expect(evaluation.warnings.map((warning) => warning.rule)).toEqual(["requireSpecialChars", "harbor"])
  })

  it("calls the recent predicate after the cheaper checks, and not when the rule is disabled or its value is 0", async () => {
    const calls: string[] = []
    const context: PasswordContext = {
      isCommonPassword: () => {
        calls.push("common")
        return false
      },
      isRecentPassword: async () => {
        calls.push("recent")
        return false
      }
    }
    await evaluatePassword(GOOD, DEFAULT_PASSWORD_POLICY, context)
    expect(calls).toEqual(["common", "recent"])
    calls.length = 0
    const disabled = createDefaultPasswordPolicy()
    disabled.rules.preventRecentPasswords.enabled = false
    await evaluatePassword(GOOD, disabled, context)
    const none = createDefaultPasswordPolicy()
    none.rules.preventRecentPasswords.value = 0
    await evaluatePassword(GOOD, none, context)
    expect(calls).toEqual(["common", "common"])
  })

  it("rejects when a predicate throws", async () => {
    const failing = async () => {
      throw new Error("database down")
    }
    await expect(evaluatePassword(GOOD, DEFAULT_PASSWORD_POLICY, { isRecentPassword: failing })).rejects.toThrow("database down")
  })
})

describe("required, warnings and strictMode", () => {
  it("turns a failure of a rule that is not required into a warning", async () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireSpecialChars.required = false
    const evaluation = await evaluatePassword("BlueHarbor42", config)
    expect(evaluation.valid).toBe(true)
    expect(evaluation.failures).toEqual([])
    expect(evaluation.warnings).toEqual([
      { rule: "requireSpecialChars", code: "PASSWORD_NO_SPECIAL_CHAR", message: "Password must contain at least one special character" }
    ])
  })

  it("counts every enabled rule as required in strictMode", async () => {
    const config = createDefaultPasswordPolicy()
    config.rules.requireSpecialChars.required = false
    config.strictMode = true
    const evaluation = await evaluatePassword("BlueHarbor42", config)
    expect(evaluation.valid).toBe(false)
    expect(evaluation.failures.map((failure) => failure.code)).toEqual(["PASSWORD_NO_SPECIAL_CHAR"])
    expect(evaluation.warnings).toEqual([])
  })

  it("does not check disabled rules", async () => {
    expect(await codes("password", only())).toEqual([])
    const config = createDefaultPasswordPolicy()
    config.rules.requireUppercase.enabled = false
    config.rules.requireNumbers.enabled = false
    expect(await codes("blue-harbor-!", config)).toEqual([])
  })
})

describe("messages", () => {
  it("uses messages[code] over the rule's message, for built-in and custom codes", async () => {
    const config = only("minLength")
    config.messages = { PASSWORD_TOO_SHORT: "Longer, please", NO_HARBOR: "No harbours" }
    config.customRules = [customRule({ regex: "Harbor", mode: "mustNotMatch" })]
    const evaluation = await evaluatePassword("Harbor", config)
    expect(evaluation.failures.map((failure) => failure.message)).toEqual(["Longer, please", "No harbours"])
  })

  it("uses the rule's own message otherwise", async () => {
    const config = only("minLength")
    config.rules.minLength.message = "Eight or more"
    expect((await evaluatePassword("short", config)).failures[0]?.message).toBe("Eight or more")
  })
})

function customRule(overrides: Partial<CustomRule> = {}): CustomRule {
  return {
    id: "harbor",
    name: "No harbour",
    enabled: true,
    required: true,
    message: "Do not mention the harbour",
    errorCode: "NO_HARBOR",
    regex: "Harbor",
    mode: "mustNotMatch",
    ...overrides
  }
}

describe("custom rules", () => {
  it("mustMatch fails when the regex does not match", async () => {
    const config = only()
    config.customRules = [customRule({ id: "starts", errorCode: "MUST_START_WITH_LETTER", regex: "^\\p{L}", mode: "mustMatch" })]
    expect(await codes("1abc", config)).toEqual(["MUST_START_WITH_LETTER"])
    expect(await codes("Éabc", config)).toEqual([])
  })

  it("mustNotMatch fails when the regex matches; the failure names the rule's id", async () => {
    const config = only()
    config.customRules = [customRule()]
    expect((await evaluatePassword("Blue-Harbor", config)).failures).toEqual([
      { rule: "harbor", code: "NO_HARBOR", message: "Do not mention the harbour" }
    ])
    expect(await codes("Blue-Bay", config)).toEqual([])
  })

  it("are reported after the built-in rules, in list order, and skipped when disabled", async () => {
    const config = only("minLength")
    config.customRules = [
      customRule({ id: "b", errorCode: "SECOND_RULE", regex: "b" }),
      customRule({ id: "off", errorCode: "OFF_RULE", regex: "a", enabled: false }),
      customRule({ id: "a", errorCode: "FIRST_RULE", regex: "a" })
    ]
    expect(await codes("ab", config)).toEqual(["PASSWORD_TOO_SHORT", "SECOND_RULE", "FIRST_RULE"])
  })

  it("throws for an unsafe regex that bypassed the schema", async () => {
    const config = only()
    config.customRules = [customRule({ regex: "(a+)+$" })]
    await expect(evaluatePassword("aaaa", config)).rejects.toThrow(UnsafeRegexError)
  })
})
