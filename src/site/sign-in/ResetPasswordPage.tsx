import { useEffect, useState, type FormEvent } from "react"
import { Link, useNavigate, useSearchParams } from "react-router"

import { resetPassword } from "~site-session/account-requests"
import { passwordRequirementsMessage } from "~site-session/error-messages"
import { PASSWORD_MIN_LENGTH } from "~core/password-policy/defaults"
import { PasswordField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { SECOND_MS } from "~core/time"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { AuthCard } from "~site/shared/AuthCard"
import { PasswordHint } from "~site/shared/PasswordHint"

export const RESET_PASSWORD_REDIRECT_MS = 3 * SECOND_MS

const INVALID_LINK = "Invalid password reset link. Please request a new password reset."

/** Only the link's mode and oobCode count; its apiKey and lang are ignored. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const code = params.get("mode") === "resetPassword" ? params.get("oobCode") : null
  const [password, setPassword] = useState("")
  const [confirmPassword, setConfirmPassword] = useState("")
  const [error, setError] = useState("")
  const [done, setDone] = useState(false)

  const resetting = useFormMutation({
    mutationFn: (reset: { code: string; password: string }) => resetPassword(reset.code, reset.password),
    onSuccess: () => {
      toast.success("Password reset successfully!")
      setDone(true)
    },
    onError: (failure) => {
      const message =
        (failure as { code?: string }).code === "INVALID_OR_EXPIRED_CODE"
          ? INVALID_LINK
          : passwordRequirementsMessage(failure, "Failed to reset password. Please try again.")
      setError(message)
      toast.error(message)
    }
  })
  const submitting = resetting.isPending

  useEffect(() => {
    if (!done) return
    const timer = setTimeout(() => navigate("/login", { replace: true }), RESET_PASSWORD_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [done, navigate])

  if (!code) {
    return (
      <AuthCard title="Reset your password">
        <div className="space-y-4">
          <Notice>{INVALID_LINK}</Notice>
          <Link to="/login" className={`${buttonStyles.secondary} w-full`}>
            Go to sign in
          </Link>
        </div>
      </AuthCard>
    )
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (resetting.isRunning()) return
    if (!password || !confirmPassword) return setError("Please fill in all fields")
    if (password !== confirmPassword) return setError("Passwords do not match")
    if ([...password].length < PASSWORD_MIN_LENGTH) return setError(`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
    setError("")
    resetting.mutate({ code, password })
  }

  if (done) {
    return (
      <AuthCard title="Password reset">
        <Notice tone="success">Password reset successfully! Taking you to sign in…</Notice>
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Reset your password" subtitle="Choose a new password for your account.">
      <form className="space-y-4" onSubmit={submit} noValidate aria-busy={submitting}>
        <PasswordField label="New password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} hint={<PasswordHint />} />
        <PasswordField label="Confirm new password" autoComplete="new-password" value={confirmPassword} onChange={(event) => setConfirmPassword(event.target.value)} />
        {error && <Notice>{error}</Notice>}
        <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={submitting}>
          {submitting ? "Resetting..." : "Reset password"}
        </button>
      </form>
    </AuthCard>
  )
}
