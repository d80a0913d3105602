/**
 * *Sign in with a passkey* on /login, with no address typed (the passkey the person picks names the account), and
 * *Use a passkey* as a sign-in's second step (`mfaToken`: the passkey must then be that account's).
 */
import { useState } from "react"

import { useSession } from "~site-session/session-store"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { passkeyAnswer, passkeyFailureText, passkeysSupported } from "~site/shared/passkey-ceremony"
import { useFormMutation } from "~site/shared/use-form-mutation"

export function PasskeySignInButton({ label = "Sign in with a passkey", mfaToken, onSignedIn }: { label?: string; mfaToken?: string; onSignedIn: () => void }) {
  const passkeyLogin = useSession((state) => state.passkeyLogin)
  const [error, setError] = useState<string | null>(null)
  const signingIn = useFormMutation({
    mutationFn: async () => passkeyLogin(await passkeyAnswer(), mfaToken),
    onSuccess: onSignedIn,
    onError: (failure) => setError(passkeyFailureText(failure))
  })
  if (!passkeysSupported()) return null
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={`${buttonStyles.secondary} w-full`}
        disabled={signingIn.isPending}
        onClick={() => {
          if (signingIn.isRunning()) return
          setError(null)
          signingIn.mutate()
        }}
      >
        {signingIn.isPending ? "Waiting for your passkey..." : label}
      </button>
      {error && <Notice>{error}</Notice>}
    </div>
  )
}
