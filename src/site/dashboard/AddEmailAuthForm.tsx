import { useState, type FormEvent } from "react"

import { linkEmail } from "~site-session/account-requests"
import { PASSWORD_MIN_LENGTH } from "~core/password-policy/defaults"
import { PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { PasswordHint } from "~site/shared/PasswordHint"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { ProofMessage } from "~site/shared/ProofRefusal"

/** Add Email Authentication, for an account that signs in only with Google; the name is optional. */
export function AddEmailAuthForm({ email, onLinked }: { email: string; onLinked: () => void }) {
  const [form, setForm] = useState({ email, name: "", password: "", confirmPassword: "" })
  const [errors, setErrors] = useState<string[]>([])
  const [proof, setProof] = useState<{ code: string; message: string } | null>(null)
  const update = (field: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => setForm((current) => ({ ...current, [field]: event.target.value }))

  const adding = useFormMutation({
    mutationFn: linkEmail,
    onSuccess: () => {
      toast.success("Email sign-in added to your account.")
      onLinked()
    },
    onError: (failure) => {
      const { code, details, message } = failure as { code?: string; details?: string[]; message?: string }
      // A sign-in too old to prove the person: said with the way to sign in again.
      if (code === "REAUTHENTICATION_REQUIRED" && message) return setProof({ code, message })
      setErrors(details?.length ? details : [message ?? "Failed to add email sign-in. Please try again."])
    }
  })
  const submitting = adding.isPending

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // The button turns disabled only once the pending state has rendered; a submit before that is ignored here.
    if (adding.isRunning()) return
    if (!form.email.trim() || !form.password || !form.confirmPassword) return setErrors(["Please fill in all fields"])
    if (form.password !== form.confirmPassword) return setErrors(["Passwords do not match"])
    if ([...form.password].length < PASSWORD_MIN_LENGTH) return setErrors([`Password must be at least ${PASSWORD_MIN_LENGTH} characters long`])
    setErrors([])
    setProof(null)
    adding.mutate({ email: form.email.trim(), password: form.password, ...(form.name.trim() ? { name: form.name.trim() } : {}) })
  }

  return (
    <form className="space-y-3" onSubmit={submit} noValidate>
      <TextField label="Email" type="email" value={form.email} onChange={update("email")} />
      <TextField label="Name (optional)" value={form.name} onChange={update("name")} />
      <PasswordField label="Password" autoComplete="new-password" value={form.password} onChange={update("password")} hint={<PasswordHint />} />
      <PasswordField label="Confirm password" autoComplete="new-password" value={form.confirmPassword} onChange={update("confirmPassword")} />
      {proof && <ProofMessage {...proof} />}
      {errors.length > 0 && (
        <Notice>
          {errors.length === 1 ? errors[0] : (
            <ul className="list-inside list-disc">
              {errors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <button type="submit" className={buttonStyles.primary} disabled={submitting}>
        {submitting ? "Adding..." : "Add Email Authentication"}
      </button>
    </form>
  )
}
