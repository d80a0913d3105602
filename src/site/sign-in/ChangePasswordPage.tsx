import { useEffect, useState, type FormEvent } from "react"
import { Link, useNavigate } from "react-router"

import { changePassword } from "~site-session/account-requests"
import { useAuthStatus } from "~site/shared/account-queries"
import { CONNECTION_ERROR_MESSAGE, passwordRequirementsMessage } from "~site-session/error-messages"
import { PasswordField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { SECOND_MS } from "~core/time"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { AuthCard } from "~site/shared/AuthCard"
import { PasswordHint } from "~site/shared/PasswordHint"

import { validateChangePassword, type ChangePasswordField, type ChangePasswordForm } from "./change-password-rules"

export const CHANGE_PASSWORD_REDIRECT_MS = 2 * SECOND_MS

const EMPTY: ChangePasswordForm = { currentPassword: "", newPassword: "", confirmPassword: "" }

export default function ChangePasswordPage() {
  const navigate = useNavigate()
  const authStatus = useAuthStatus()
  const [form, setForm] = useState(EMPTY)
  const [fieldError, setFieldError] = useState<{ field: ChangePasswordField; message: string } | null>(null)
  const [formError, setFormError] = useState("")
  const [done, setDone] = useState(false)

  const changing = useFormMutation({
    mutationFn: (change: { currentPassword: string; newPassword: string }) => changePassword(change.currentPassword, change.newPassword),
    onSuccess: () => {
      toast.success("Password changed successfully!")
      setDone(true)
    },
    onError: (failure) => {
      const code = (failure as { code?: string }).code
      if (code === "INVALID_CREDENTIALS") {
        setFieldError({ field: "currentPassword", message: "Current password is incorrect" })
      } else {
        if (code === "PASSWORD_UPDATE_FAILED") setForm((current) => ({ ...current, newPassword: "", confirmPassword: "" }))
        setFormError(code === "NETWORK_ERROR" ? CONNECTION_ERROR_MESSAGE : passwordRequirementsMessage(failure, "Failed to change password. Please try again."))
      }
    }
  })
  const submitting = changing.isPending

  useEffect(() => {
    if (!done) return
    const timer = setTimeout(() => navigate("/dashboard"), CHANGE_PASSWORD_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [done, navigate])

  if (authStatus.isPending) {
    return (
      <AuthCard title="Change password">
        <Spinner />
      </AuthCard>
    )
  }
  if (authStatus.data && !authStatus.data.hasEmailAuth) {
    return (
      <AuthCard title="Change password">
        <div className="space-y-4">
          <Notice tone="info">Your account signs in with Google and has no password. Add email sign-in from your dashboard first.</Notice>
          <Link to="/dashboard" className={`${buttonStyles.secondary} w-full`}>
            Back to dashboard
          </Link>
        </div>
      </AuthCard>
    )
  }

  const update = (field: ChangePasswordField) => (event: React.ChangeEvent<HTMLInputElement>) => setForm((current) => ({ ...current, [field]: event.target.value }))
  const errorFor = (field: ChangePasswordField) => (fieldError?.field === field ? fieldError.message : undefined)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (changing.isRunning()) return
    const problem = validateChangePassword(form)
    setFieldError(problem)
    setFormError("")
    if (problem) return
    changing.mutate({ currentPassword: form.currentPassword, newPassword: form.newPassword })
  }

  if (done) {
    return (
      <AuthCard title="Change password">
        <Notice tone="success">Your password has been changed. Taking you back to your dashboard…</Notice>
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Change password" subtitle="Other devices signed in to your account will be signed out.">
      <form className="space-y-4" onSubmit={submit} noValidate aria-busy={submitting}>
        <PasswordField label="Current password" autoComplete="current-password" value={form.currentPassword} onChange={update("currentPassword")} error={errorFor("currentPassword")} />
        <PasswordField label="New password" autoComplete="new-password" value={form.newPassword} onChange={update("newPassword")} error={errorFor("newPassword")} hint={<PasswordHint />} />
        <PasswordField label="Confirm new password" autoComplete="new-password" value={form.confirmPassword} onChange={update("confirmPassword")} error={errorFor("confirmPassword")} />
        {formError && <Notice>{formError}</Notice>}
        <div className="flex gap-3">
          <Link to="/dashboard" className={`${buttonStyles.secondary} flex-1`}>
            Cancel
          </Link>
          <button type="submit" className={`${buttonStyles.primary} flex-1`} disabled={submitting}>
            {submitting ? "Changing..." : "Change password"}
          </button>
        </div>
      </form>
    </AuthCard>
  )
}
