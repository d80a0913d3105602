/**
 * *Sign in with SSO* on /login: asks the work address (the one typed in the sign-in form, when there is one), then
 * sends the browser to the identity provider of the organisation that verified its domain. Where the person came
 * from (the extension, a page behind the sign-in) is kept in this tab's sessionStorage for /login/sso.
 */
import { useState, type FormEvent } from "react"

import { startSsoSignIn } from "~site-session/account-requests"
import { TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { failureText } from "~site/shared/failure-text"
import { useFormMutation } from "~site/shared/use-form-mutation"

/** This tab's memory of where an SSO sign-in goes once it is back: read by /login/sso. */
export const SSO_RETURN_KEY = "image-query-ai.sso-return"
export interface SsoReturn {
  next: string
  fromExtension: boolean
}

export function SsoSignInButton({ initialEmail, next, fromExtension }: { initialEmail: string; next: string; fromExtension: boolean }) {
  const [open, setOpen] = useState(false)
  const [email, setEmail] = useState(initialEmail)
  const [error, setError] = useState<string | null>(null)
  const starting = useFormMutation({
    mutationFn: (address: string) => startSsoSignIn(address),
    onSuccess: ({ redirectUrl }) => {
      sessionStorage.setItem(SSO_RETURN_KEY, JSON.stringify({ next, fromExtension } satisfies SsoReturn))
      window.location.assign(redirectUrl)
    },
    onError: (failure) => setError(failureText(failure))
  })

  if (!open) {
    return (
      <button
        type="button"
        className={`${buttonStyles.secondary} w-full`}
        onClick={() => {
          setEmail(initialEmail)
          setOpen(true)
        }}
      >
        Sign in with SSO
      </button>
    )
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (starting.isRunning()) return
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) return setError("Enter your work e-mail address.")
    setError(null)
    starting.mutate(email.trim())
  }
  // A section of its own (not a form inside the sign-in form): Enter here starts SSO, not the password sign-in.
  return (
    <form className="space-y-3 rounded-lg border border-slate-200 p-3" onSubmit={submit} noValidate aria-label="Sign in with SSO" aria-busy={starting.isPending}>
      <TextField label="Work e-mail" type="email" autoComplete="email" autoFocus value={email} onChange={(event) => setEmail(event.target.value)} hint="We send you to your organisation's sign-in page." />
      {error && <Notice>{error}</Notice>}
      <div className="flex gap-2">
        <button type="submit" className={`${buttonStyles.primary} flex-1`} disabled={starting.isPending || starting.isSuccess}>
          {starting.isPending || starting.isSuccess ? "Going to your organisation..." : "Continue with SSO"}
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
