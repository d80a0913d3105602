import { useState } from "react"

import { resendVerification } from "~site-session/account-requests"
import { resendErrorView } from "~site-session/error-messages"
import { RESEND_COOLDOWN_SECONDS } from "~core/api-answer"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { useCooldown } from "./use-cooldown"

/** The resend box: a new verification e-mail, then 60 s to wait (also after a too-many-attempts answer). */
export function ResendVerification({ email, startWithCooldown = false }: { email: string; startWithCooldown?: boolean }) {
  const cooldown = useCooldown(startWithCooldown ? RESEND_COOLDOWN_SECONDS : 0)
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null)

  const resending = useFormMutation({
    mutationFn: resendVerification,
    onSuccess: (_, sentTo) => {
      setNotice({ tone: "success", text: `Verification email sent to ${sentTo}. Check your inbox.` })
      cooldown.start(RESEND_COOLDOWN_SECONDS)
    },
    onError: (failure) => {
      const view = resendErrorView(failure)
      setNotice({ tone: "error", text: view.message })
      if (view.cooldownSeconds) cooldown.start(view.cooldownSeconds)
    }
  })
  const sending = resending.isPending

  const resend = () => {
    // The button turns disabled only once the pending state has rendered; a click before that is ignored here.
    if (resending.isRunning()) return
    setNotice(null)
    resending.mutate(email)
  }

  return (
    <div className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" data-testid="resend-verification">
      <p>Didn&apos;t get the email? Check your spam folder, or send a new verification link to {email}.</p>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      <button type="button" className={buttonStyles.secondary} onClick={resend} disabled={sending || cooldown.secondsLeft > 0}>
        {cooldown.secondsLeft > 0 ? `Resend available in ${cooldown.secondsLeft} s` : sending ? "Sending..." : "Resend verification email"}
      </button>
    </div>
  )
}
