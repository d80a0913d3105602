/** Checks of the payment form, shared by the form and the test-mode payment route. Card data is never stored or logged. */
import { isEmailAddress } from "../auth-schemas"
import type { TestPayment } from "./billing"

/** What the site's forms say of an address that is not one. */
export const INVALID_EMAIL_MESSAGE = "Enter a valid e-mail address, like name@example.com."

export const COUNTRIES = [
  { code: "IN", name: "India" },
  { code: "US", name: "United States" },
  { code: "GB", name: "United Kingdom" },
  { code: "CA", name: "Canada" }
] as const

export type CountryCode = (typeof COUNTRIES)[number]["code"]
export const DEFAULT_COUNTRY: CountryCode = "IN"

/** The payment form's fields: the test payment's body without the plan choice. */
export type PaymentValues = Omit<TestPayment, "planId" | "annual">

export type PaymentField = keyof PaymentValues
export type PaymentErrors = Partial<Record<PaymentField, string>>

export const EMPTY_PAYMENT: PaymentValues = {
  email: "",
  cardNumber: "",
  expiryMonth: "",
  expiryYear: "",
  cvc: "",
  cardholderName: "",
  billingAddress: "",
  country: DEFAULT_COUNTRY
}

/** The Luhn checksum every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** Card numbers may be typed with spaces or dashes between groups. */
export const cardDigits = (value: string) => value.replace(/[\s-]/g, "")

/** Every problem of the form, by field; empty when the form may be submitted. `now` is the current time. */
export function validatePayment(values: PaymentValues, now: Date): PaymentErrors {
  const errors: PaymentErrors = {}
  const email = values.email.trim()
  if (!email) errors.email = "Enter your e-mail address."
  else if (!isEmailAddress(email)) errors.email = INVALID_EMAIL_MESSAGE

  const digits = cardDigits(values.cardNumber)
  if (!digits) errors.cardNumber = "Enter your card number."
  else if (!/^\d+$/.test(digits)) errors.cardNumber = "A card number has digits only."
  else if (digits.length < 12 || digits.length > 19) errors.cardNumber = "A card number has 12 to 19 digits."
  else if (!passesLuhn(digits)) errors.cardNumber = "This card number is not valid. Check it for typing mistakes."

  const month = Number(values.expiryMonth)
  const year = Number(values.expiryYear)
  if (!values.expiryMonth) errors.expiryMonth = "Choose the expiry month."
  else if (!Number.isInteger(month) || month < 1 || month > 12) errors.expiryMonth = "Choose a month from 01 to 12."
  if (!values.expiryYear) errors.expiryYear = "Choose the expiry year."
  else if (!Number.isInteger(year) || !/^\d{4}$/.test(values.expiryYear)) errors.expiryYear = "Choose a four-digit year."
  if (!errors.expiryMonth && !errors.expiryYear) {
    // A card is valid through the last day of its expiry month.
    const thisMonth = now.getFullYear() * 12 + now.getMonth()
    if (year * 12 + (month - 1) < thisMonth) errors.expiryMonth = "This card has expired."
  }

  const cvc = values.cvc.trim()
  if (!cvc) errors.cvc = "Enter the security code (CVC)."
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = "The security code is 3 or 4 digits."

  if (!values.cardholderName.trim()) errors.cardholderName = "Enter the name on the card."
  if (!values.billingAddress.trim()) errors.billingAddress = "Enter your billing address."
  if (!COUNTRIES.some((country) => country.code === values.country)) errors.country = "Choose a country."
  return errors
}

/** The payment page shows the price with a rupee sign; the figure is the plan's price as it is, not converted. */
export function formatRupees(amount: number): string {
  return `₹${amount.toLocaleString("en-IN")}`
}
