/**
 * zod schemas of the password policy: the whole config (GET/PUT /api/password-policy/config and
 * the stored copy), one built-in rule, one custom rule, and the body of PUT
 * /api/password-policy/rules. Every object is strict: unknown keys are refused.
 */
import * as z from "zod"

import { PASSWORD_POLICY_BOUNDS as BOUNDS } from "./defaults"
import { checkRegexSafety } from "./safe-regex"
import {
  BUILT_IN_RULE_NAMES,
  CUSTOM_ERROR_CODE_PATTERN,
  CUSTOM_RULE_ID_PATTERN,
  isBuiltInRuleName,
  isCharacterRule,
  RULE_ERROR_CODES,
  type BuiltInRuleName,
  type CustomRule,
  type PasswordPolicyConfig,
  type PolicyRule,
  type PolicyRuleUpdate
} from "./types"

const codePoints = (text: string) => Array.from(text).length

/** Non-blank text of at most `max` characters (code points). */
function text(what: string, max: number) {
  return z
    .string()
    .refine((value) => /\S/u.test(value), `${what} must not be empty`)
    .refine((value) => codePoints(value) <= max, `${what} must be at most ${max} characters`)
}

function integer(what: string, { min, max }: { min: number; max: number }) {
  return z
    .number({ message: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be at least ${min}`)
    .max(max, `${what} must be at most ${max}`)
}

const messageSchema = text("Message", BOUNDS.messageLength.max)

/** A regex accepted by checkRegexSafety; the refusal's reason is the issue's message. */
export const safeRegexSchema = z
  .string()
  .min(1, "The regular expression must not be empty")
  .superRefine((pattern, ctx) => {
    const safety = checkRegexSafety(pattern)
    if (!safety.ok) ctx.addIssue({ code: "custom", message: `Unsafe or invalid regular expression: ${safety.reason}` })
  })

const specialCharsSchema = z
  .string()
  .refine((value) => codePoints(value) >= BOUNDS.specialCharsLength.min, "The special characters must not be empty")
  .refine(
    (value) => codePoints(value) <= BOUNDS.specialCharsLength.max,
    `The special characters must be at most ${BOUNDS.specialCharsLength.max} characters`
  )

/** The value schema of each rule that has a value. */
const VALUE_SCHEMAS = {
  minLength: integer("Minimum length", BOUNDS.minLength),
  maxLength: integer("Maximum length", BOUNDS.maxLength),
  requireSpecialChars: specialCharsSchema,
  preventSequentialChars: integer("The sequential characters limit", BOUNDS.preventSequentialChars),
  preventRepeatedChars: integer("The repeated characters limit", BOUNDS.preventRepeatedChars),
  preventRecentPasswords: integer("The number of recent passwords", BOUNDS.preventRecentPasswords)
} satisfies Partial<Record<BuiltInRuleName, z.ZodType<number | string>>>

function hasValue(name: BuiltInRuleName): name is keyof typeof VALUE_SCHEMAS {
  return name in VALUE_SCHEMAS
}

function ruleBase<N extends BuiltInRuleName>(name: N) {
  return {
    name: z.literal(name),
    enabled: z.boolean(),
    required: z.boolean(),
    message: messageSchema,
    errorCode: z.literal(RULE_ERROR_CODES[name], { message: `The error code of ${name} is ${RULE_ERROR_CODES[name]}` })
  }
}

/**
 * The schema of each built-in rule: its name and error code are fixed; only the rules with a
 * value have (and need) `value`, and only the character rules may have `regex`.
 */
export const builtInRuleSchemas = {
  minLength: z.strictObject({ ...ruleBase("minLength"), value: VALUE_SCHEMAS.minLength }),
  maxLength: z.strictObject({ ...ruleBase("maxLength"), value: VALUE_SCHEMAS.maxLength }),
  requireUppercase: z.strictObject({ ...ruleBase("requireUppercase"), regex: safeRegexSchema.optional() }),
  requireLowercase: z.strictObject({ ...ruleBase("requireLowercase"), regex: safeRegexSchema.optional() }),
  requireNumbers: z.strictObject({ ...ruleBase("requireNumbers"), regex: safeRegexSchema.optional() }),
  requireSpecialChars: z.strictObject({
    ...ruleBase("requireSpecialChars"),
    value: VALUE_SCHEMAS.requireSpecialChars,
    regex: safeRegexSchema.optional()
  }),
  preventCommonPasswords: z.strictObject(ruleBase("preventCommonPasswords")),
  preventSequentialChars: z.strictObject({ ...ruleBase("preventSequentialChars"), value: VALUE_SCHEMAS.preventSequentialChars }),
  preventRepeatedChars: z.strictObject({ ...ruleBase("preventRepeatedChars"), value: VALUE_SCHEMAS.preventRepeatedChars }),
  preventUserInfo: z.strictObject(ruleBase("preventUserInfo")),
  preventRecentPasswords: z.strictObject({ ...ruleBase("preventRecentPasswords"), value: VALUE_SCHEMAS.preventRecentPasswords })
} satisfies { [N in BuiltInRuleName]: z.ZodType<PolicyRule & { name: N }> }

const errorCodeSchema = z.string().regex(CUSTOM_ERROR_CODE_PATTERN, "An error code is 3 to 64 upper-case letters, digits or underscores, starting with a letter")

/**
 * A custom rule. Unlike the admin form, where the regex is optional, the schema requires one: a
 * rule without a regex would check nothing.
 */
export const customRuleSchema = z.strictObject({
  id: z
    .string()
    .regex(CUSTOM_RULE_ID_PATTERN, "A custom rule id is 1 to 64 letters, digits, underscores or hyphens")
    .refine((id) => !isBuiltInRuleName(id), "A custom rule id must not be a built-in rule name"),
  name: text("Name", BOUNDS.nameLength.max),
  enabled: z.boolean(),
  required: z.boolean(),
  message: messageSchema,
  errorCode: errorCodeSchema,
  regex: safeRegexSchema,
  mode: z.enum(["mustMatch", "mustNotMatch"])
}) satisfies z.ZodType<CustomRule>

const messagesSchema = z
  .record(errorCodeSchema, messageSchema)
  .refine(
    (messages) => Object.keys(messages).length <= BOUNDS.messageOverrides.max,
    `At most ${BOUNDS.messageOverrides.max} message overrides are allowed`
  )

const rulesSchema = z.strictObject(builtInRuleSchemas)

/** The fields of the whole policy, without the checks across fields (the answers' views pick from them). */
const passwordPolicyFields = z.strictObject({
  rules: rulesSchema,
  customRules: z
    .array(customRuleSchema)
    .max(BOUNDS.customRules.max, `At most ${BOUNDS.customRules.max} custom rules are allowed`),
  messages: messagesSchema,
  strictMode: z.boolean(),
  allowOverride: z.boolean(),
  logViolations: z.boolean(),
  rateLimitAttempts: integer("Rate limit attempts", BOUNDS.rateLimitAttempts),
  lockoutDuration: integer("Lockout duration", BOUNDS.lockoutDuration)
})

/**
 * The whole policy. Besides each field's bounds: maxLength's value is at least minLength's (even
 * while one of them is disabled, so enabling it later cannot produce an impossible policy), and the
 * custom rule ids are unique.
 */
export const passwordPolicyConfigSchema = passwordPolicyFields
  .superRefine((config, ctx) => {
    const min = config.rules.minLength.value
    const max = config.rules.maxLength.value
    if (max < min) {
      ctx.addIssue({
        code: "custom",
        path: ["rules", "maxLength", "value"],
        message: `Maximum length (${max}) must be at least the minimum length (${min})`
      })
    }
    const seen = new Set<string>()
    config.customRules.forEach((rule, index) => {
      if (seen.has(rule.id)) {
        ctx.addIssue({ code: "custom", path: ["customRules", index, "id"], message: `Custom rule id "${rule.id}" is used twice` })
      }
      seen.add(rule.id)
    })
  }) satisfies z.ZodType<PasswordPolicyConfig>

/** GET /api/password-policy/config for everyone: what the password hint is built from (strictMode makes every rule required). */
export const publicPolicyViewSchema = z.object({ config: passwordPolicyFields.pick({ rules: true, customRules: true, strictMode: true }) })

/** What the admin screen reads and writes: the rules, the refusal messages and the options. */
export const adminPolicyViewSchema = publicPolicyViewSchema.extend({
  messages: passwordPolicyFields.shape.messages,
  options: passwordPolicyFields.pick({ strictMode: true, allowOverride: true, logViolations: true, rateLimitAttempts: true, lockoutDuration: true })
})

const UPDATABLE_FIELDS = ["enabled", "required", "value", "message", "regex"] as const

/**
 * The body of PUT /api/password-policy/rules: `ruleName` plus the fields that change. Only enabled,
 * required, value, message and regex can change (name and errorCode never do); at least one must
 * be given. `value` is checked against the rule's bounds and is refused on rules without a value;
 * `regex` is allowed on the character rules only, and `null` removes the override. Whether
 * maxLength stays at least minLength is checked on the whole updated config (applyRuleUpdate).
 */
export const policyRuleUpdateSchema = z
  .strictObject({
    ruleName: z.enum(BUILT_IN_RULE_NAMES),
    enabled: z.boolean().optional(),
    required: z.boolean().optional(),
    value: z.union([z.number(), z.string()]).optional(),
    message: messageSchema.optional(),
    regex: safeRegexSchema.nullable().optional()
  })
  .superRefine((update, ctx) => {
    if (UPDATABLE_FIELDS.every((field) => update[field] === undefined)) {
      ctx.addIssue({ code: "custom", message: "Nothing to change: give enabled, required, value, message or regex" })
    }
    if (update.value !== undefined) {
      if (!hasValue(update.ruleName)) {
        ctx.addIssue({ code: "custom", path: ["value"], message: `The rule ${update.ruleName} has no value` })
      } else {
        const result = VALUE_SCHEMAS[update.ruleName].safeParse(update.value)
        for (const issue of result.error?.issues ?? []) ctx.addIssue({ code: "custom", path: ["value"], message: issue.message })
      }
    }
    if (update.regex !== undefined && !isCharacterRule(update.ruleName)) {
      ctx.addIssue({ code: "custom", path: ["regex"], message: `The rule ${update.ruleName} does not take a regular expression` })
    }
  }) satisfies z.ZodType<PolicyRuleUpdate>
