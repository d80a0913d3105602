import { Dialog } from "radix-ui"
import { useState, type FormEvent } from "react"

import { forgotPassword } from "~site-session/account-requests"
import { CONNECTION_ERROR_MESSAGE } from "~site-session/error-messages"
import { DialogFormActions } from "~ui/DialogFormActions"
import { TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

/**
 * "Forgot password?" on the login page: asks for the address and sends the reset e-mail. The page
 * also opens it from the lock message, so it can be controlled.
 */
export function ForgotPasswordDialog({ initialEmail, open, onOpenChange }: { initialEmail: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const setOpen = onOpenChange
  const [email, setEmail] = useState(initialEmail)
  const [error, setError] = useState("")

  const sending = useFormMutation({
    mutationFn: forgotPassword,
    onSuccess: () => {
      toast.success("Password reset email sent successfully!")
      setOpen(false)
    },
    onError: (failure) => {
      const code = (failure as { code?: string }).code
      const message = code === "NETWORK_ERROR" ? CONNECTION_ERROR_MESSAGE : (failure as { status?: number }).status === 429 ? failure.message : "Failed to send password reset email. Please try again."
      setError(message)
      toast.error(message)
    }
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // The dialog sits inside the sign-in form in React's tree: its submit must not sign in too.
    event.stopPropagation()
    // The button turns disabled only once the pending state has rendered; a submit before that is ignored here.
    if (sending.isRunning()) return
    if (!email.trim()) return setError("Please enter your email address")
    setError("")
    sending.mutate(email.trim())
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="text-sm font-medium text-blue-700 hover:underline focus-ring">
        Forgot password?
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold">Reset your password</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-gray-600">
            Enter the email address of your account and we will send you a link to choose a new password.
          </Dialog.Description>
          <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
            <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
            {error && <Notice>{error}</Notice>}
            <DialogFormActions confirmLabel="Send reset link" busyLabel="Sending..." busy={sending.isPending} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
