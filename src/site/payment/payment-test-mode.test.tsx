// The payment page in test mode, through the whole app: the test payment, the server's refusals and field details.
import { fireEvent, render, screen, waitFor } from "@testing-library/react"
import { beforeEach, describe, expect, it } from "vitest"

import { useSession } from "~site-session/session-store"
import { CARD_DECLINED_MESSAGE, TEST_CARD_REQUIRED_MESSAGE, TEST_MODE_NOTICE } from "~core/billing/billing"
import { SESSION_STORAGE_KEYS } from "~core/user"

import { refuse } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { CARD_TYPED, createFakeServer, everythingStored, EXPIRY_YEAR, fillValidCard, openPayment, server, setUpPaymentTests, signIn, useServer } from "./payment-test-kit"

setUpPaymentTests()

describe("the payment page in test mode", () => {
  beforeEach(() => {
    useServer(createFakeServer("test"))
    signIn()
  })

  it("says no card is charged, pays through the test route, waits 2 s and shows the dashboard on the new plan", async () => {
    let paidAt = 0
    server.on("POST /api/billing/test-payment", () => {
      paidAt = Date.now()
      return server.moveTo("pro")
    })
    await openPayment()
    expect((await screen.findByTestId("test-mode-notice")).textContent).toBe(TEST_MODE_NOTICE)
    expect(screen.queryByText(/Demonstration checkout/)).toBeNull()
    await fillValidCard()
    fireEvent.click(screen.getByRole("button", { name: "Pay ₹19" }))

    await waitFor(() => expect(server.calls("POST /api/billing/test-payment")).toHaveLength(1))
    expect(server.calls("POST /api/billing/test-payment")[0]!.body).toEqual({
      planId: "pro",
      annual: false,
      email: "ada@example.com",
      cardNumber: CARD_TYPED,
      expiryMonth: "04",
      expiryYear: EXPIRY_YEAR,
      cvc: "123",
      cardholderName: "Ada Lovelace",
      billingAddress: "12 MG Road, Bengaluru",
      country: "IN"
    })
    // The stored user (the header's plan) is refreshed from the profile.
    await waitFor(() => expect(useSession.getState().user?.subscription?.plan.id).toBe("pro"))
    // Still on the payment page during the wait.
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Payment: Pro plan")
    expect(screen.getByRole("button", { name: "Processing payment…" }).hasAttribute("disabled")).toBe(true)

    await screen.findByRole("heading", { level: 1, name: "Dashboard" }, { timeout: 4000 })
    expect(Date.now() - paidAt).toBeGreaterThanOrEqual(1900)
    expect((await screen.findByText("Thank you! You are now on the Pro plan.")).getAttribute("role")).toBe("status")
    // Nothing of the card is kept in the browser's storage.
    expect(everythingStored()).not.toMatch(/4242|Bengaluru/)
  })

  it.each([
    ["a declined card", 402, "CARD_DECLINED", CARD_DECLINED_MESSAGE, "4000 0000 0000 0002"],
    ["a card that is not a test card", 400, "TEST_CARD_REQUIRED", TEST_CARD_REQUIRED_MESSAGE, "5555 5555 5555 4444"]
  ])("shows the server's words for %s, keeps what was typed and the session, and stays", async (_name, status, code, message, card) => {
    server.on("POST /api/billing/test-payment", () => refuse(status, code, message))
    await openPayment()
    await fillValidCard(card)
    fireEvent.click(screen.getByRole("button", { name: "Pay ₹19" }))

    expect((await screen.findByRole("alert")).textContent).toBe(message)
    expect((screen.getByLabelText("Card number") as HTMLInputElement).value).toBe(card)
    expect((screen.getByLabelText("Cardholder name") as HTMLInputElement).value).toBe("Ada Lovelace")
    expect(screen.getByRole("button", { name: "Pay ₹19" }).hasAttribute("disabled")).toBe(false)
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.authToken)).toBe("access-0")
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Payment: Pro plan")
  })

  it("puts the server's field details next to their fields", async () => {
    server.on("POST /api/billing/test-payment", () =>
      refuse(400, "VALIDATION_FAILED", "Some fields are not valid.", { details: ["cvc: The security code is 3 or 4 digits.", "planId: Invalid option"] })
    )
    await openPayment()
    await fillValidCard()
    fireEvent.click(screen.getByRole("button", { name: "Pay ₹19" }))

    const alert = await screen.findByRole("alert")
    expect(alert.textContent).toBe("Some fields are not valid.planId: Invalid option")
    const cvc = screen.getByLabelText("CVC")
    await waitFor(() => expect(cvc.getAttribute("aria-invalid")).toBe("true"))
    expect(document.getElementById(cvc.getAttribute("aria-describedby")!)?.textContent).toBe("The security code is 3 or 4 digits.")
    expect(document.activeElement).toBe(cvc)
    expect(screen.getByLabelText("Card number").getAttribute("aria-invalid")).toBeNull()
  })

  it("sends a Free plan address back to the pricing page", async () => {
    render(<SiteApp router="memory" initialPath="/payment?plan=free&annual=false" />)
    await screen.findByRole("heading", { level: 1, name: "Pricing" })
  })
})
