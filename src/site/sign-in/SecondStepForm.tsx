import { useState, type FormEvent } from "react"

import { ApiRequestError } from "~http/http-client"
import { recoveryCodeField, TOTP_CODE_MESSAGE, typedTotpCode } from "~core/two-step"
import { type SecondStepRequired, useSession } from "~site-session/session-store"
import { TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { failureText } from "~site/shared/failure-text"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { PasskeySignInButton } from "./PasskeySignInButton"

export interface SecondStepFormProps {
  /** What the sign-in answered with mfaRequired: its token and the ways the account can take the step. */
  step: SecondStepRequired
  onSignedIn: () => void
  /** The sign-in ended (expired, too many wrong codes): back to the password, with why. */
  onRestart: (why: string) => void
}

type Proof = { code: string } | { recoveryCode: string }

/** The second step of a sign-in: the authenticator app's 6-digit code, a recovery code, or a passkey of the account. */
export function SecondStepForm({ step, onSignedIn, onRestart }: SecondStepFormProps) {
  const { mfaToken, methods } = step
  const withCode = methods.includes("totp")
  const completeSecondStep = useSession((state) => state.completeSecondStep)
  const [recovery, setRecovery] = useState(false)
  const [value, setValue] = useState("")
  const [error, setError] = useState<string | null>(null)
  const verifying = useFormMutation({
    mutationFn: (proof: Proof) => completeSecondStep(mfaToken, proof),
    onSuccess: onSignedIn,
    onError: (failure) => {
      if (failure instanceof ApiRequestError && failure.code === "MFA_TOKEN_INVALID") onRestart(failure.message)
      else setError(failureText(failure))
    }
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (verifying.isRunning()) return
    if (recovery) {
      const code = recoveryCodeField.safeParse(value)
      if (!code.success) return setError(code.error.issues[0]?.message ?? "Enter one of your recovery codes")
      setError(null)
      return verifying.mutate({ recoveryCode: code.data })
    }
    const code = typedTotpCode(value)
    if (!code) return setError(TOTP_CODE_MESSAGE)
    setError(null)
    verifying.mutate({ code })
  }

  const switchProof = () => {
    setRecovery((current) => !current)
    setValue("")
    setError(null)
  }

  const passkey = methods.includes("passkey") && <PasskeySignInButton label="Use a passkey" mfaToken={mfaToken} onSignedIn={onSignedIn} />
  const startOver = (
    <button type="button" className="font-medium text-gray-700 hover:underline" onClick={() => onRestart("")}>
      Start over
    </button>
  )
  const heading = (hint: string) => (
    <div className="space-y-1">
      <h2 id="second-step-heading" className="text-base font-semibold">
        Two-step sign-in
      </h2>
      <p className="text-sm text-gray-600">{hint}</p>
    </div>
  )

  if (!withCode) {
    // A passkey is the account's only second factor.
    return (
      <section className="space-y-4" aria-labelledby="second-step-heading">
        {heading("Confirm it is you with a passkey you added to your account.")}
        {passkey}
        <div className="text-sm">{startOver}</div>
      </section>
    )
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate aria-busy={verifying.isPending} aria-labelledby="second-step-heading">
      {heading(recovery ? "Enter one of the recovery codes you saved when you turned on two-step sign-in. Each works once." : TOTP_CODE_MESSAGE)}
      {recovery ? (
        <TextField key="recovery" label="Recovery code" autoComplete="off" autoCapitalize="off" spellCheck={false} value={value} onChange={(event) => setValue(event.target.value)} autoFocus />
      ) : (
        <TextField key="code" label="6-digit code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={value} onChange={(event) => setValue(event.target.value)} autoFocus />
      )}
      {error && <Notice>{error}</Notice>}
      <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={verifying.isPending}>
        {verifying.isPending ? "Verifying..." : "Verify"}
      </button>
      {passkey}
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" className="font-medium text-blue-700 hover:underline" onClick={switchProof}>
          {recovery ? "Use your authenticator app" : "Use a recovery code"}
        </button>
        {startOver}
      </div>
    </form>
  )
}
