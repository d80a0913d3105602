import { useState } from "react"

import { unlinkSignInMethod } from "~site-session/account-requests"
import type { SignInMethod } from "~core/auth-schemas"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { PasswordField } from "~ui/fields"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"

const TEXTS: Record<SignInMethod, { label: string; title: string; after: string; done: string }> = {
  google: {
    label: "Remove Google sign-in",
    title: "Remove Google sign-in?",
    after: "You will sign in with your email address and password only.",
    done: "Google sign-in removed. Your other sessions were signed out."
  },
  email: {
    label: "Remove password",
    title: "Remove your password?",
    after: "You will sign in with Google only.",
    done: "Password removed. Your other sessions were signed out."
  }
}

/**
 * Removes one of two ways to sign in, after the current password (the server's proof of the person); every other
 * session of the account ends, and the owner is e-mailed.
 */
export function RemoveSignInMethodDialog({ method, onRemoved }: { method: SignInMethod; onRemoved: () => void }) {
  const [password, setPassword] = useState("")
  const texts = TEXTS[method]
  return (
    <ConfirmDialog
      trigger={{ label: texts.label, className: buttonStyles.secondary }}
      title={texts.title}
      description={`${texts.after} Every other session of your account, the extension's included, is signed out, and we e-mail you about the change.`}
      confirm={{ label: texts.label, busyLabel: "Removing..." }}
      confirmDisabled={password.length === 0}
      onConfirm={async (close) => {
        try {
          await unlinkSignInMethod(method, password)
        } catch (failure) {
          return (failure as { message?: string }).message || "The sign-in method could not be removed. Please try again."
        }
        setPassword("")
        close()
        toast.success(texts.done)
        onRemoved()
        return null
      }}
    >
      <PasswordField label="Current password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
    </ConfirmDialog>
  )
}
