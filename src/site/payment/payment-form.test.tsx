// The payment form on its own: the validation of its fields, its own checks before any call, the server's field details.
import { QueryClientProvider } from "@tanstack/react-query"
import { act, fireEvent, render, screen } from "@testing-library/react"
import { MemoryRouter, Route, Routes, useLocation } from "react-router"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { useSession } from "~site-session/session-store"
import { getPlan } from "~core/billing/plans"
import { passesLuhn, validatePayment, type PaymentValues } from "~core/billing/payment"

import { createFakeApi, resetSiteForTest } from "../fake-api-server"
import { createQueryClient } from "../query-client"
import { fill, setUpPaymentTests } from "./payment-test-kit"
import { fieldErrorsOf, PaymentForm } from "./PaymentForm"

setUpPaymentTests()

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
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={["/payment"]}>
        <Routes>
          <Route path="/payment" element={<PaymentForm plan={{ ...getPlan("pro"), id: "pro" }} annual={annual} now={() => NOW} />} />
          <Route path="/dashboard" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>
  )
}

describe("the payment form's own checks", () => {
  beforeEach(() => {
    resetSiteForTest(createFakeApi([]).fetch)
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

  it("shows the errors, focuses the first bad field, makes no call and does not leave", () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch")
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
    expect(fetchSpy).not.toHaveBeenCalled()
    fetchSpy.mockRestore()
  })
})

describe("the server's field details", () => {
  it("puts 'field: message' details next to their fields and keeps the others", () => {
    expect(fieldErrorsOf(["cardNumber: Use a test card.", "cvc:Too short", "planId: Invalid option", "no field here"])).toEqual({
      fields: { cardNumber: "Use a test card.", cvc: "Too short" },
      other: ["planId: Invalid option", "no field here"]
    })
  })
})
