/** What the admin reads for each built-in rule: its title, and the label of its value when it has one. */
import type { BuiltInRuleName } from "~core/password-policy"

export const RULE_LABELS: Record<BuiltInRuleName, string> = {
  minLength: "Minimum length",
  maxLength: "Maximum length",
  requireUppercase: "Require an uppercase letter",
  requireLowercase: "Require a lowercase letter",
  requireNumbers: "Require a number",
  requireSpecialChars: "Require a special character",
  preventCommonPasswords: "Refuse common passwords",
  preventSequentialChars: "Limit sequential characters",
  preventRepeatedChars: "Limit repeated characters",
  preventUserInfo: "Refuse personal information",
  preventRecentPasswords: "Refuse recent passwords"
}

export const VALUE_LABELS: Partial<Record<BuiltInRuleName, string>> = {
  minLength: "Characters",
  maxLength: "Characters",
  requireSpecialChars: "Special characters",
  preventSequentialChars: "Longest run allowed",
  preventRepeatedChars: "Longest run allowed",
  preventRecentPasswords: "Passwords remembered"
}
