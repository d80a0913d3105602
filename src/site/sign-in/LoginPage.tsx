import { useState, type FormEvent } from "react"
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router"

import { loginErrorView } from "~site-session/error-messages"
import { SecondStepRequired, useSession } from "~site-session/session-store"
import { OrDivider, PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { afterSignInPath } from "~site/shared/login-redirect"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { AuthCard } from "~site/shared/AuthCard"

import { ForgotPasswordDialog } from "./ForgotPasswordDialog"
import { GoogleSignInButton } from "./GoogleSignInButton"
import { ResendVerification } from "./ResendVerification"
import { PasskeySignInButton } from "./PasskeySignInButton"
import { ExtensionSignedIn } from "./ExtensionSignedIn"
import { SecondStepForm } from "./SecondStepForm"
import { SsoSignInButton } from "./SsoSignInButton"

export default function LoginPage() {
  const status = useSession((state) => state.status)
  const login = useSession((state) => state.login)
  const navigate = useNavigate()
  const location = useLocation()
  const [params] = useSearchParams()
  const fromExtension = params.get("source") === "extension"

  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [formError, setFormError] = useState<{ text: string; resetLink?: boolean } | null>(null)
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null)
  const [forgotOpen, setForgotOpen] = useState(false)
  /** The sign-in's second step, when the account has one: the form asks for its code instead of the password. */
  const [secondStep, setSecondStep] = useState<SecondStepRequired | null>(null)
  const goOn = () => {
    if (!fromExtension) navigate(afterSignInPath(location.state), { replace: true })
  }

  const signingIn = useFormMutation({
    mutationFn: (credentials: { email: string; password: string }) => login(credentials.email, credentials.password),
    onSuccess: goOn,
    // The address as sent: the field may have changed while the request was on its way.
    onError: (failure, { email: sentEmail }) => {
      if (failure instanceof SecondStepRequired) return setSecondStep(failure)
      const view = loginErrorView(failure)
      if (view.showResendVerification) setUnverifiedEmail(sentEmail)
      if (view.where === "form") setFormError({ text: view.message, resetLink: view.showResetLink })
      else toast.error(view.message)
    }
  })
  // While signing in, onSuccess above navigates once the session opens: the signed-in redirect below waits for it.
  const submitting = signingIn.isPending

  if (status === "loggedIn") {
    if (fromExtension) return <ExtensionSignedIn />
    if (!submitting) return <Navigate to={afterSignInPath(location.state)} replace />
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (signingIn.isRunning()) return
    if (!email.trim() || !password) return setFormError({ text: "Please fill in all fields" })
    setFormError(null)
    setUnverifiedEmail(null)
    signingIn.mutate({ email: email.trim(), password })
  }

  return (
    <AuthCard
      title="Sign in"
      subtitle={fromExtension ? "Sign in to use Image Query AI in your browser." : "Welcome back to Image Query AI."}
      footer={
        <>
          Don&apos;t have an account?{" "}
          <Link to="/register" state={location.state as unknown} className="font-medium text-blue-700 hover:underline">
            Sign up
          </Link>
        </>
      }
    >
      {secondStep ? (
        <SecondStepForm
          step={secondStep}
          onSignedIn={goOn}
          onRestart={(why) => {
            setSecondStep(null)
            setFormError(why ? { text: why } : null)
          }}
        />
      ) : (
        <>
      <form className="space-y-4" onSubmit={submit} noValidate aria-busy={submitting}>
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        <PasswordField
          label="Password"
          toggleKey="p"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="flex justify-end">
          {/* Keyed by opening, so each opening starts from the address typed in the form. */}
          <ForgotPasswordDialog key={String(forgotOpen)} initialEmail={email} open={forgotOpen} onOpenChange={setForgotOpen} />
        </div>
        {formError && (
          <Notice>
            {formError.text}
            {formError.resetLink && (
              <>
                {" "}
                <button type="button" className="font-medium underline" onClick={() => setForgotOpen(true)}>
                  Reset your password
                </button>
              </>
            )}
          </Notice>
        )}
        <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={submitting}>
          {submitting ? "Signing in..." : "Sign in"}
        </button>
      </form>
      {unverifiedEmail && (
        <div className="mt-4">
          <ResendVerification email={unverifiedEmail} />
        </div>
      )}
      <OrDivider />
      <div className="space-y-3">
        <GoogleSignInButton onSecondStep={setSecondStep} />
        <PasskeySignInButton onSignedIn={goOn} />
        <SsoSignInButton initialEmail={email.trim()} next={afterSignInPath(location.state)} fromExtension={fromExtension} />
      </div>
        </>
      )}
    </AuthCard>
  )
}
