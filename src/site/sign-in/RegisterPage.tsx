import { useState, type FormEvent } from "react"
import { Link, Navigate, useLocation } from "react-router"

import { register } from "~site-session/account-requests"
import { registerErrorView } from "~site-session/error-messages"
import { useSession } from "~site-session/session-store"
import { PASSWORD_MIN_LENGTH } from "~core/password-policy/defaults"
import { OrDivider, PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { afterSignInPath } from "~site/shared/login-redirect"
import { TermsModal } from "~site/shared/legal/TermsModal"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { AuthCard } from "~site/shared/AuthCard"
import { PasswordHint } from "~site/shared/PasswordHint"

import { GoogleSignInButton } from "./GoogleSignInButton"
import { ResendVerification } from "./ResendVerification"
import { useVerificationWatch } from "./use-verification-watch"

interface RegisterForm {
  name: string
  email: string
  password: string
  confirmPassword: string
  termsChecked: boolean
}

const EMPTY_FORM: RegisterForm = { name: "", email: "", password: "", confirmPassword: "", termsChecked: false }

/** All fields filled, passwords equal, minimum length, terms checked, in that order; the server checks the full policy again. */
export function validateRegistration(form: RegisterForm): string | null {
  if (!form.name.trim() || !form.email.trim() || !form.password || !form.confirmPassword) return "Please fill in all fields"
  if (form.password !== form.confirmPassword) return "Passwords do not match"
  if ([...form.password].length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`
  if (!form.termsChecked) return "Please agree to the Terms of Service and Privacy Policy"
  return null
}

function MatchIndicator({ password, confirmPassword }: { password: string; confirmPassword: string }) {
  if (!confirmPassword) return null
  const matches = password === confirmPassword
  return (
    <p role="status" className={`text-xs font-medium ${matches ? "text-emerald-600" : "text-red-600"}`}>
      {matches ? "✓ Passwords match" : "✗ Passwords do not match"}
    </p>
  )
}

export default function RegisterPage() {
  const status = useSession((state) => state.status)
  // Where the sign-in that follows returns to (an invitation's page): passed on to every link to /login.
  const returnState = useLocation().state as unknown
  const [form, setForm] = useState(EMPTY_FORM)
  const [error, setError] = useState<{ text: string; accountExists?: boolean } | null>(null)
  const [termsOpen, setTermsOpen] = useState(false)
  const [created, setCreated] = useState<{ email: string; verificationToken?: string } | null>(null)
  const verified = useVerificationWatch(created?.email ?? null, created?.verificationToken)

  const creating = useFormMutation({
    mutationFn: register,
    onSuccess: ({ user, verificationToken }) => {
      setTermsOpen(false)
      toast.success("Account created successfully!")
      setCreated({ email: user.email, verificationToken })
      setForm(EMPTY_FORM)
    },
    onError: (failure) => {
      setTermsOpen(false)
      const view = registerErrorView(failure)
      setError({ text: view.message, accountExists: view.accountExists })
      if (!view.accountExists) toast.error(view.message)
    }
  })
  const submitting = creating.isPending

  if (status === "loggedIn") return <Navigate to={afterSignInPath(returnState)} replace />

  const update = (field: keyof RegisterForm) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [field]: field === "termsChecked" ? event.target.checked : event.target.value }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problem = validateRegistration(form)
    setError(problem ? { text: problem } : null)
    if (!problem) setTermsOpen(true)
  }

  const createAccount = () => {
    if (creating.isRunning()) return
    creating.mutate({ name: form.name.trim(), email: form.email.trim(), password: form.password })
  }

  if (created && verified) {
    return (
      <AuthCard title="Email verified" subtitle={<>Your address <strong>{created.email}</strong> is verified.</>}>
        <Link to="/login" state={returnState} className={`${buttonStyles.primary} w-full`}>
          Sign in
        </Link>
      </AuthCard>
    )
  }

  if (created) {
    return (
      <AuthCard title="Check your email" subtitle={<>We sent a verification link to <strong>{created.email}</strong>.</>}>
        <div className="space-y-4 text-sm text-gray-700">
          <p>Open the link in that email to verify your address, then sign in. The link works once and expires in 24 hours.</p>
          <ResendVerification email={created.email} startWithCooldown />
          <Link to="/login" state={returnState} className={`${buttonStyles.primary} w-full`}>
            Go to sign in
          </Link>
        </div>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle="Start analysing images with Image Query AI."
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" state={returnState} className="font-medium text-blue-700 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <form className="space-y-4" onSubmit={submit} noValidate aria-busy={submitting}>
        <TextField label="Full name" autoComplete="name" value={form.name} onChange={update("name")} />
        <TextField label="Email" type="email" autoComplete="email" value={form.email} onChange={update("email")} />
        <PasswordField label="Password" autoComplete="new-password" value={form.password} onChange={update("password")} hint={<PasswordHint />} />
        <PasswordField label="Confirm password" toggleKey="c" autoComplete="new-password" value={form.confirmPassword} onChange={update("confirmPassword")} />
        <MatchIndicator password={form.password} confirmPassword={form.confirmPassword} />
        <label className="flex items-start gap-2 text-sm text-gray-700">
          <input type="checkbox" className="mt-0.5 h-4 w-4 rounded border-gray-300 text-brand-primary" checked={form.termsChecked} onChange={update("termsChecked")} />
          <span>
            I agree to the{" "}
            <Link to="/terms" target="_blank" className="font-medium text-blue-700 hover:underline">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link to="/privacy" target="_blank" className="font-medium text-blue-700 hover:underline">
              Privacy Policy
            </Link>
          </span>
        </label>
        {error && (
          <Notice>
            {error.text}
            {error.accountExists && (
              <>
                {" "}
                <Link to="/login" state={returnState} className="font-medium underline">
                  Sign in instead
                </Link>
              </>
            )}
          </Notice>
        )}
        <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={submitting}>
          {submitting ? "Creating account..." : "Create account"}
        </button>
      </form>
      <OrDivider />
      <GoogleSignInButton label="Sign up with Google" flow="register" />
      <TermsModal open={termsOpen} busy={submitting} onAccept={createAccount} onDecline={() => setTermsOpen(false)} />
    </AuthCard>
  )
}
