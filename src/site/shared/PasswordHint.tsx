import { FALLBACK_PASSWORD_HINTS, passwordRequirementHints } from "~core/password-policy"

import { usePasswordPolicy } from "./account-queries"

/** The server policy is read on every visit: an admin's change shows on the next form. */
export function usePasswordHints() {
  const { data, isError } = usePasswordPolicy()
  if (isError || !data) return FALLBACK_PASSWORD_HINTS
  return passwordRequirementHints(data.config)
}

/** The requirements a new password must meet, built from the server policy (the default policy's when it cannot be fetched). */
export function PasswordHint() {
  const hints = usePasswordHints()
  return (
    <div data-testid="password-hint">
      <p className="font-medium text-gray-600">Password must contain:</p>
      <ul className="mt-1 list-inside list-disc space-y-0.5">
        {hints.map((hint) => (
          <li key={hint.text}>
            {hint.text}
            {!hint.required && <span className="text-gray-400"> (optional)</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}
