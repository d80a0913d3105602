/** Export and import of the password policy as a JSON file, checked against the policy schema. */
import { passwordPolicyConfigSchema, type PasswordPolicyConfig } from "~core/password-policy"

export const POLICY_FILE_NAME = "password-policy.json"
/** A policy is a few kilobytes; anything far larger is not one. */
export const POLICY_FILE_MAX_BYTES = 512 * 1024

export function policyFileContent(policy: PasswordPolicyConfig): string {
  return `${JSON.stringify(policy, null, 2)}\n`
}

export type PolicyFileResult = { ok: true; policy: PasswordPolicyConfig } | { ok: false; problems: string[] }

/** Reads an imported file; a refusal lists every reason, so the admin can fix the file. */
export async function readPolicyFile(file: Blob): Promise<PolicyFileResult> {
  if (file.size > POLICY_FILE_MAX_BYTES) return { ok: false, problems: [`The file is larger than ${POLICY_FILE_MAX_BYTES / 1024} KB.`] }
  let parsed: unknown
  try {
    parsed = JSON.parse(await file.text())
  } catch (error) {
    return { ok: false, problems: [`The file is not valid JSON (${error instanceof Error ? error.message : String(error)}).`] }
  }
  const result = passwordPolicyConfigSchema.safeParse(parsed)
  if (result.success) return { ok: true, policy: result.data }
  return {
    ok: false,
    problems: result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
  }
}
