/** The policy's options: three switches and the two numbers of the sign-in lockout, each written once in a list. */
import { PASSWORD_POLICY_BOUNDS as BOUNDS, type PasswordPolicyConfig } from "~core/password-policy"
import { Checkbox, TextField } from "~ui/fields"

type Options = Pick<PasswordPolicyConfig, "strictMode" | "allowOverride" | "logViolations" | "rateLimitAttempts" | "lockoutDuration">

const SWITCHES: readonly { key: "strictMode" | "allowOverride" | "logViolations"; label: string }[] = [
  { key: "strictMode", label: "Strict mode (every enabled rule is required)" },
  { key: "allowOverride", label: "Allow override of ADMIN_PASSWORD" },
  { key: "logViolations", label: "Log violations" }
]

const NUMBERS: readonly { key: "rateLimitAttempts" | "lockoutDuration"; label: string; hint?: (value: number) => string }[] = [
  { key: "rateLimitAttempts", label: "Sign-in attempts before lockout" },
  { key: "lockoutDuration", label: "Lockout duration (milliseconds)", hint: (milliseconds) => `${Math.round((milliseconds / 60_000) * 10) / 10} minutes` }
]

interface PolicyOptionsProps {
  options: Options
  onChange: <K extends keyof Options>(key: K, value: PasswordPolicyConfig[K]) => void
}

export function PolicyOptions({ options, onChange }: PolicyOptionsProps) {
  return (
    <>
      <div className="flex flex-wrap gap-6">
        {SWITCHES.map(({ key, label }) => (
          <Checkbox key={key} label={label} checked={options[key]} onChange={(value) => onChange(key, value)} />
        ))}
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {NUMBERS.map(({ key, label, hint }) => (
          <TextField
            key={key}
            label={label}
            type="number"
            min={BOUNDS[key].min}
            max={BOUNDS[key].max}
            value={options[key]}
            hint={hint?.(options[key])}
            onChange={(event) => onChange(key, Number(event.target.value))}
          />
        ))}
      </div>
    </>
  )
}
