import { useId, useState, type FormEvent, type ReactNode } from "react"

import { isEmailAddress } from "~core/auth-schemas"
import { INVALID_EMAIL_MESSAGE } from "~core/billing/payment"
import { buttonStyles } from "~ui/styles"

import { HiddenLabelInput } from "./HiddenLabelInput"

const TONES = {
  dark: {
    box: "rounded-2xl bg-brand-secondary p-8 text-white",
    title: "text-2xl font-bold",
    input: "border-gray-600 text-brand-secondary focus:ring-brand-primary",
    button: buttonStyles.primary,
    note: "mt-3 text-sm text-gray-200"
  },
  light: {
    box: "rounded-2xl border border-gray-200 bg-gray-50 p-6",
    title: "text-lg font-semibold",
    input: "border-gray-300 shadow-sm focus:border-brand-primary focus:ring-brand-primary/30",
    button: buttonStyles.secondary,
    note: "mt-2 text-sm text-gray-700"
  }
}

export interface InertSubscribeFormProps {
  title: string
  children?: ReactNode
  /** What a valid address is told: that nothing was sent or stored, and where to look instead. */
  notice: string
  tone: "dark" | "light"
  className?: string
}

/** An e-mail box for updates that are not sent yet: it checks the address, sends and keeps nothing, and says so. */
export function InertSubscribeForm({ title, children, notice, tone, className = "" }: InertSubscribeFormProps) {
  const id = useId()
  const [email, setEmail] = useState("")
  const [note, setNote] = useState("")
  const styles = TONES[tone]
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setNote(isEmailAddress(email) ? notice : INVALID_EMAIL_MESSAGE)
  }
  return (
    <section aria-labelledby={`${id}-title`} className={`${styles.box} ${className}`}>
      <h2 id={`${id}-title`} className={styles.title}>
        {title}
      </h2>
      {children}
      <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-3 sm:flex-row">
        <HiddenLabelInput
          label="E-mail address"
          id={id}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder="you@example.com"
          className={`block w-full rounded-lg border bg-white px-3 py-2 text-sm focus:outline-none focus:ring-2 ${styles.input}`}
        />
        <button type="submit" className={styles.button}>
          Subscribe
        </button>
      </form>
      <p role="status" className={styles.note}>
        {note}
      </p>
    </section>
  )
}
