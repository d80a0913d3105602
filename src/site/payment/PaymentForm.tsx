/** The test-mode payment form: the card fields, their checks, and the one request that pays. */
import { useEffect, useRef, useState, type FormEvent } from "react"

import { ApiRequestError } from "~http/http-client"
import { useSession } from "~site-session/session-store"
import { TEST_MODE_NOTICE } from "~core/billing/billing"
import { SelectField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import {
  COUNTRIES,
  EMPTY_PAYMENT,
  formatRupees,
  validatePayment,
  type PaymentErrors,
  type PaymentField,
  type PaymentValues
} from "~core/billing/payment"
import { billingErrorMessage, payInTestMode, useSubscriptionChanged } from "~site/shared/billing/billing-requests"
import { type PaidPlan } from "~site/shared/billing/subscription-view"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { amountOf, OrderSummary } from "./OrderSummary"
import { useSuccessRedirect } from "./use-success-redirect"

export { PAYMENT_SUCCESS_PATH } from "./use-success-redirect"

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

const isPaymentField = (name: string): name is PaymentField => (FIELD_ORDER as string[]).includes(name)

/**
 * VALIDATION_FAILED details are "field: message"; those naming a form field go next to it, the rest stay in the
 * message above the form.
 */
export function fieldErrorsOf(details: readonly string[] | undefined): { fields: PaymentErrors; other: string[] } {
  const fields: PaymentErrors = {}
  const other: string[] = []
  for (const detail of details ?? []) {
    const colon = detail.indexOf(":")
    const name = colon > 0 ? detail.slice(0, colon).trim() : ""
    const message = colon > 0 ? detail.slice(colon + 1).trim() : detail
    if (isPaymentField(name) && message && !fields[name]) fields[name] = message
    else other.push(detail)
  }
  return { fields, other }
}

export interface PaymentFormProps {
  plan: PaidPlan
  annual: boolean
  /** The current time, for the expiry check; tests pass a fixed one. */
  now?: () => Date
  /** The payment went through; called before the record is refreshed (the page keeps this view during the wait). */
  onPaid?: () => void
}

/**
 * The spec's payment form in test mode (no card is charged): after the form's own checks, POST
 * /api/billing/test-payment; on success the spec's 2 s wait, then /dashboard?subscription=success. Card data lives
 * only in this component's state and that one request, and is dropped before leaving; a refusal keeps what was typed.
 */
export function PaymentForm({ plan, annual, now = () => new Date(), onPaid }: PaymentFormProps) {
  const signedInEmail = useSession((state) => state.user?.email)
  const subscriptionChanged = useSubscriptionChanged()
  const redirect = useSuccessRedirect()
  const [values, setValues] = useState<PaymentValues>(() => ({ ...EMPTY_PAYMENT, email: signedInEmail ?? "" }))
  const [errors, setErrors] = useState<PaymentErrors>({})
  const [refusal, setRefusal] = useState<{ message: string; details: string[] } | null>(null)
  const [paid, setPaid] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  // A field the server refused gets the focus once the form is enabled again.
  const focusAfterRefusal = useRef<PaymentField | null>(null)

  const payment = useFormMutation({
    mutationFn: () => payInTestMode({ planId: plan.id, annual, ...values }),
    onMutate: () => setRefusal(null),
    onSuccess: (subscription) => {
      setPaid(true)
      onPaid?.()
      redirect(() => setValues(EMPTY_PAYMENT))
      // Returned, so a failure to refresh the record is reported as the payment's own failure.
      return subscriptionChanged(subscription)
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.code === "VALIDATION_FAILED") {
        const { fields, other } = fieldErrorsOf(error.details)
        setErrors(fields)
        setRefusal({ message: error.message, details: other })
        focusAfterRefusal.current = FIELD_ORDER.find((name) => fields[name]) ?? null
      } else {
        setRefusal({ message: billingErrorMessage(error), details: [] })
      }
    }
  })
  // Once paid, the form is no longer waiting for the server but for the redirect.
  const submitting = payment.isPending && !paid

  useEffect(() => {
    if (!focusAfterRefusal.current || submitting) return
    formRef.current?.querySelector<HTMLElement>(`[name="${focusAfterRefusal.current}"]`)?.focus()
    focusAfterRefusal.current = null
  }, [errors, submitting])

  const [thisYear] = useState(() => now().getFullYear())
  const years = Array.from({ length: 16 }, (_, index) => String(thisYear + index))
  const months = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, "0"))
  const amount = amountOf(plan, annual)
  const busy = submitting || paid

  const field = (name: PaymentField) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: busy,
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value
      setValues((current) => ({ ...current, [name]: value }))
      if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }))
    }
  })

  const focusFirst = (found: PaymentErrors) => {
    const first = FIELD_ORDER.find((name) => found[name])
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
    return Boolean(first)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (busy || payment.isRunning()) return
    const found = validatePayment(values, now())
    setErrors(found)
    setRefusal(null)
    if (focusFirst(found)) return
    payment.mutate()
  }

  const problemCount = Object.values(errors).filter(Boolean).length

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-3">
      <OrderSummary plan={plan} annual={annual} note="Your card details go only to the test payment and are never stored." />

      <form
        ref={formRef}
        noValidate
        onSubmit={submit}
        aria-label="Payment details"
        aria-busy={submitting}
        className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm lg:col-span-2"
      >
        <p data-testid="test-mode-notice" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900">
          {TEST_MODE_NOTICE}
        </p>
        {refusal && <Notice details={refusal.details}>{refusal.message}</Notice>}
        {!refusal && problemCount > 0 && <Notice>{problemCount === 1 ? "One field needs your attention." : `${problemCount} fields need your attention.`}</Notice>}
        <TextField label="Email" type="email" autoComplete="email" {...field("email")} />
        <TextField
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          hint="Use the test card 4242 4242 4242 4242."
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
        <button type="submit" disabled={busy} className={`w-full ${buttonStyles.primary}`}>
          {busy ? "Processing payment…" : `Pay ${formatRupees(amount)}`}
        </button>
        {busy && (
          <p role="status" className="sr-only">
            {paid ? "Payment accepted. Taking you to your dashboard…" : "Processing payment…"}
          </p>
        )}
      </form>
    </div>
  )
}
