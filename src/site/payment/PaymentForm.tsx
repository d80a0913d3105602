import { useEffect, useRef, useState, type FormEvent } from "react"
import { Link, useNavigate } from "react-router"

import { useSession } from "~auth/session-store"
import { MOCK_PAYMENT_WAIT_MS } from "~core/limits"
import { ANNUAL_SAVINGS_PERCENT, type Plan } from "~core/plans"
import { FormMessage, SelectField, TextField } from "~ui/fields"
import { Lock } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

import {
  COUNTRIES,
  EMPTY_PAYMENT,
  formatRupees,
  validatePayment,
  type PaymentErrors,
  type PaymentField,
  type PaymentValues
} from "./payment-validation"

export const PAYMENT_SUCCESS_PATH = "/dashboard?subscription=success"

const FIELD_ORDER: PaymentField[] = [
  "email",
  "cardNumber",
  "expiryMonth",
  "expiryYear",
  "cvc",
  "cardholderName",
  "billingAddress",
  "country"
]

export interface PaymentFormProps {
  plan: Plan
  annual: boolean
  /** The current time, for the expiry check; tests pass a fixed one. */
  now?: () => Date
}

/**
 * A mock checkout: it makes no call. After a valid submit it waits 2 s and goes to
 * /dashboard?subscription=success. Card data lives only in this component's state and is dropped
 * before leaving.
 */
export function PaymentForm({ plan, annual, now = () => new Date() }: PaymentFormProps) {
  const navigate = useNavigate()
  const signedInEmail = useSession((state) => state.user?.email)
  const [values, setValues] = useState<PaymentValues>(() => ({ ...EMPTY_PAYMENT, email: signedInEmail ?? "" }))
  const [errors, setErrors] = useState<PaymentErrors>({})
  const [submitting, setSubmitting] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current)
  }, [])

  const [thisYear] = useState(() => now().getFullYear())
  const years = Array.from({ length: 16 }, (_, index) => String(thisYear + index))
  const months = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, "0"))

  const amount = annual ? plan.annualPrice : plan.price
  const period = annual ? "year" : "month"

  const field = (name: PaymentField) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: submitting,
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value
      setValues((current) => ({ ...current, [name]: value }))
      if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }))
    }
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (submitting) return
    const found = validatePayment(values, now())
    setErrors(found)
    const first = FIELD_ORDER.find((name) => found[name])
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
      return
    }
    setSubmitting(true)
    timer.current = setTimeout(() => {
      setValues(EMPTY_PAYMENT)
      void navigate(PAYMENT_SUCCESS_PATH)
    }, MOCK_PAYMENT_WAIT_MS)
  }

  const problemCount = Object.values(errors).filter(Boolean).length

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-3">
      <aside aria-labelledby="order-summary" className="order-first rounded-2xl border border-gray-200 bg-gray-50 p-6 lg:order-last">
        <h2 id="order-summary" className="text-lg font-semibold">
          Order summary
        </h2>
        <dl className="mt-4 space-y-2 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-gray-600">Plan</dt>
            <dd className="font-medium">{plan.name}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-gray-600">Billing</dt>
            <dd className="font-medium">{annual ? "Annual" : "Monthly"}</dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-gray-200 pt-3 text-base">
            <dt className="font-semibold">Total</dt>
            <dd className="font-bold" data-testid="payment-price">
              {formatRupees(amount)} / {period}
            </dd>
          </div>
        </dl>
        {!annual && plan.price > 0 && (
          <p className="mt-4 text-sm">
            <Link className="font-medium text-blue-700 hover:underline" to={`/payment?plan=${plan.id}&annual=true`}>
              Pay yearly and save {ANNUAL_SAVINGS_PERCENT}%
            </Link>
          </p>
        )}
        <p className="mt-4 flex gap-2 text-xs leading-5 text-gray-600">
          <Lock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          Demonstration checkout: no payment is taken, and your card details never leave this page.
        </p>
      </aside>

      <form ref={formRef} noValidate onSubmit={submit} aria-label="Payment details" className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm lg:col-span-2">
        {problemCount > 0 && (
          <FormMessage>
            {problemCount === 1 ? "One field needs your attention." : `${problemCount} fields need your attention.`}
          </FormMessage>
        )}
        <TextField label="Email" type="email" autoComplete="email" {...field("email")} />
        <TextField
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          {...field("cardNumber")}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <SelectField label="Expiry month" autoComplete="cc-exp-month" {...field("expiryMonth")}>
            <option value="">Month</option>
            {months.map((month) => (
              <option key={month} value={month}>
                {month}
              </option>
            ))}
          </SelectField>
          <SelectField label="Expiry year" autoComplete="cc-exp-year" {...field("expiryYear")}>
            <option value="">Year</option>
            {years.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </SelectField>
          <TextField label="CVC" inputMode="numeric" autoComplete="cc-csc" maxLength={4} {...field("cvc")} />
        </div>
        <TextField label="Cardholder name" autoComplete="cc-name" {...field("cardholderName")} />
        <TextField label="Billing address" autoComplete="street-address" {...field("billingAddress")} />
        <SelectField label="Country" autoComplete="country" {...field("country")}>
          {COUNTRIES.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
        <button type="submit" disabled={submitting} className={`w-full ${buttonStyles.primary}`}>
          {submitting ? "Processing payment…" : `Pay ${formatRupees(amount)}`}
        </button>
        {submitting && <p role="status" className="sr-only">Processing payment…</p>}
      </form>
    </div>
  )
}
