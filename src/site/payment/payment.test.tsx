import { act, fireEvent, render, screen } from "@testing-library/react"
import { MemoryRouter, Route, Routes, useLocation } from "react-router"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { useSession } from "~auth/session-store"
import { getPlan } from "~core/plans"

import { PaymentForm } from "./PaymentForm"
import { passesLuhn, validatePayment, type PaymentValues } from "./payment-validation"

const NOW = new Date(2026, 10, 22, 12, 0, 0)

const valid: PaymentValues = {
  email: "ada@example.com",
  cardNumber: "4242 4242 4242 4242",
  expiryMonth: "11",
  expiryYear: "2026",
  cvc: "123",
  cardholderName: "Ada Lovelace",
  billingAddress: "12 MG Road, Bengaluru",
  country: "IN"
}

describe("payment validation", () => {
  it("accepts a complete form with a valid card", () => {
    expect(validatePayment(valid, NOW)).toEqual({})
  })

  it("checks card numbers with the Luhn checksum", () => {
    expect(passesLuhn("4242424242424242")).toBe(true)
    expect(passesLuhn("5555555555554444")).toBe(true)
    expect(passesLuhn("4242424242424241")).toBe(false)
    expect(validatePayment({ ...valid, cardNumber: "4242 4242 4242 4241" }, NOW).cardNumber).toBe(
      "This card number is not valid. Check it for typing mistakes."
    )
    expect(validatePayment({ ...valid, cardNumber: "4242-abcd" }, NOW).cardNumber).toBe("A card number has digits only.")
    expect(validatePayment({ ...valid, cardNumber: "42424" }, NOW).cardNumber).toBe("A card number has 12 to 19 digits.")
  })

  it("refuses an expiry in the past but accepts the current month", () => {
    expect(validatePayment({ ...valid, expiryMonth: "10", expiryYear: "2026" }, NOW).expiryMonth).toBe("This card has expired.")
    expect(validatePayment({ ...valid, expiryMonth: "12", expiryYear: "2025" }, NOW).expiryMonth).toBe("This card has expired.")
    expect(validatePayment({ ...valid, expiryMonth: "11", expiryYear: "2026" }, NOW)).toEqual({})
    expect(validatePayment({ ...valid, expiryMonth: "01", expiryYear: "2027" }, NOW)).toEqual({})
  })

  it("wants a CVC of 3 or 4 digits", () => {
    expect(validatePayment({ ...valid, cvc: "1234" }, NOW)).toEqual({})
    expect(validatePayment({ ...valid, cvc: "12" }, NOW).cvc).toBe("The security code is 3 or 4 digits.")
    expect(validatePayment({ ...valid, cvc: "12a" }, NOW).cvc).toBe("The security code is 3 or 4 digits.")
  })

  it("names every missing field", () => {
    const errors = validatePayment(
      { email: "", cardNumber: "", expiryMonth: "", expiryYear: "", cvc: "", cardholderName: " ", billingAddress: "", country: "FR" },
      NOW
    )
    expect(errors).toEqual({
      email: "Enter your e-mail address.",
      cardNumber: "Enter your card number.",
      expiryMonth: "Choose the expiry month.",
      expiryYear: "Choose the expiry year.",
      cvc: "Enter the security code (CVC).",
      cardholderName: "Enter the name on the card.",
      billingAddress: "Enter your billing address.",
      country: "Choose a country."
    })
    expect(validatePayment({ ...valid, email: "ada@" }, NOW).email).toBe("Enter a valid e-mail address, like name@example.com.")
  })
})

function Where() {
  const location = useLocation()
  return <p data-testid="where">{location.pathname + location.search}</p>
}

function renderForm(annual: boolean) {
  return render(
    <MemoryRouter initialEntries={["/payment"]}>
      <Routes>
        <Route path="/payment" element={<PaymentForm plan={getPlan("pro")} annual={annual} now={() => NOW} />} />
        <Route path="/dashboard" element={<Where />} />
      </Routes>
    </MemoryRouter>
  )
}

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe("the payment form", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    useSession.setState({ status: "loggedOut", user: null })
  })
  afterEach(() => vi.useRealTimers())

  it("shows the price with a rupee sign and India as the default country of four", () => {
    renderForm(true)
    expect(screen.getByTestId("payment-price").textContent).toBe("₹190 / year")
    const country = screen.getByLabelText("Country") as HTMLSelectElement
    expect(country.value).toBe("IN")
    expect([...country.options].map((option) => option.text)).toEqual(["India", "United States", "United Kingdom", "Canada"])
  })

  it("starts with the signed-in user's e-mail address", () => {
    useSession.setState({ status: "loggedIn", user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" } })
    renderForm(false)
    expect((screen.getByLabelText("Email") as HTMLInputElement).value).toBe("ada@example.com")
  })

  it("shows the errors, focuses the first bad field and does not leave", () => {
    renderForm(false)
    expect(screen.getByTestId("payment-price").textContent).toBe("₹19 / month")
    fill("Email", "ada@example.com")
    fill("Card number", "4242 4242 4242 4241")
    fireEvent.click(screen.getByRole("button", { name: "Pay ₹19" }))
    expect(screen.getByText("This card number is not valid. Check it for typing mistakes.")).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByLabelText("Card number"))
    expect(screen.getByRole("alert").textContent).toBe("6 fields need your attention.")
    act(() => void vi.advanceTimersByTime(5000))
    expect(screen.queryByTestId("where")).toBeNull()
  })

  it("makes no call, waits 2 s and goes to the dashboard after a valid submit", () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch")
    renderForm(false)
    fill("Email", valid.email)
    fill("Card number", valid.cardNumber)
    fill("Expiry month", valid.expiryMonth)
    fill("Expiry year", valid.expiryYear)
    fill("CVC", valid.cvc)
    fill("Cardholder name", valid.cardholderName)
    fill("Billing address", valid.billingAddress)
    fireEvent.click(screen.getByRole("button", { name: "Pay ₹19" }))
    expect(screen.getByRole("button", { name: "Processing payment…" }).hasAttribute("disabled")).toBe(true)
    act(() => void vi.advanceTimersByTime(1999))
    expect(screen.queryByTestId("where")).toBeNull()
    act(() => void vi.advanceTimersByTime(1))
    expect(screen.getByTestId("where").textContent).toBe("/dashboard?subscription=success")
    expect(fetchSpy).not.toHaveBeenCalled()
    fetchSpy.mockRestore()
  })
})
