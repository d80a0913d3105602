import { QueryClientProvider } from "@tanstack/react-query"
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { MemoryRouter, Route, Routes, useLocation } from "react-router"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { teardownSession, useSession } from "~site-session/session-store"
import { longDate } from "~core/format"
import { CARD_DECLINED_MESSAGE, TEST_CARD_REQUIRED_MESSAGE, TEST_MODE_NOTICE, type Subscription } from "~core/billing"
import { getPlan } from "~core/plans"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { providerNavigation } from "../billing/billing-api"
import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api"
import { createQueryClient } from "../query-client"
import { SiteApp } from "../SiteApp"
import { fieldErrorsOf, PaymentForm } from "./PaymentForm"
import { passesLuhn, validatePayment, type PaymentValues } from "~core/payment"
import { FREE_SUBSCRIPTION as FREE, PERIOD_END } from "../billing/subscriptions.test-support"

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

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

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

/* The payment page through the whole app, against a fake API. */

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }
const onPlan = (id: "pro" | "enterprise") => ({ ...accountUser, subscription: { plan: { id, name: getPlan(id).name }, status: "active" } })

const paid = (plan: "pro" | "enterprise", extra: Partial<Subscription> = {}): Subscription => ({
  ...FREE,
  plan,
  interval: "month",
  currentPeriodEnd: PERIOD_END,
  trialAvailable: false,
  ...extra
})

const EXPIRY_YEAR = String(new Date().getFullYear() + 2)
const CARD_TYPED = "4242 4242 4242 4242"

function createFakeServer(mode: "test" | "stripe", subscription: Subscription = FREE) {
  const state = { subscription, user: accountUser as typeof accountUser & { subscription?: unknown } }
  /** A payment or plan change that leaves the account on `plan`, answered as the server does. */
  const moveTo = (plan: "pro" | "enterprise") => {
    state.subscription = paid(plan, { mode })
    state.user = onPlan(plan)
    return answer({ subscription: state.subscription })
  }
  const server = createFakeApi([
    ["GET /api/billing/config", () => answer({ mode, trialDays: 14 })],
    ["GET /api/billing/subscription", () => answer(state.subscription)],
    ["GET /api/auth/profile", () => answer({ user: state.user })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["POST /api/billing/test-payment", () => moveTo("pro")],
    ["POST /api/billing/checkout", () => answer({ url: "https://checkout.stripe.test/c/pay/cs_test_1" })]
  ])
  return { ...server, state, moveTo }
}

let server: ReturnType<typeof createFakeServer>

function useServer(next: ReturnType<typeof createFakeServer>) {
  server = next
  resetSiteForTest(server.fetch)
}

function signIn(user: User = member) {
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
}

async function openPayment(search = "?plan=pro&annual=false") {
  render(<SiteApp router="memory" initialPath={`/payment${search}`} />)
  await screen.findByRole("heading", { level: 1, name: /^Payment: / })
}

async function fillValidCard(cardNumber = CARD_TYPED) {
  const email = (await screen.findByLabelText("Email")) as HTMLInputElement
  await waitFor(() => expect(email.value).toBe("ada@example.com"))
  fill("Card number", cardNumber)
  fill("Expiry month", "04")
  fill("Expiry year", EXPIRY_YEAR)
  fill("CVC", "123")
  fill("Cardholder name", "Ada Lovelace")
  fill("Billing address", "12 MG Road, Bengaluru")
}

const everythingStored = () => Object.keys(window.localStorage).map((key) => `${key}=${window.localStorage.getItem(key)}`).join("\n")

beforeEach(() => {
  window.localStorage.clear()
})

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

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

describe("the payment page in Stripe mode", () => {
  beforeEach(() => {
    useServer(createFakeServer("stripe"))
    signIn()
  })

  it("shows no card field and sends the user to the Checkout page the server created", async () => {
    const assign = vi.spyOn(providerNavigation, "assign").mockImplementation(() => {})
    await openPayment("?plan=enterprise&annual=true")
    const go = await screen.findByRole("button", { name: "Continue to secure payment" })
    expect(screen.queryByLabelText("Card number")).toBeNull()
    expect(screen.queryByTestId("test-mode-notice")).toBeNull()
    expect(screen.getByTestId("payment-price").textContent).toBe("₹990 / year")
    go.focus()
    expect(document.activeElement).toBe(go)
    fireEvent.click(go)

    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://checkout.stripe.test/c/pay/cs_test_1"))
    expect(server.calls("POST /api/billing/checkout").map((call) => call.body)).toEqual([{ planId: "enterprise", annual: true }])
  })

  it("refuses an address that is not a web page and says why", async () => {
    const assign = vi.spyOn(providerNavigation, "assign").mockImplementation(() => {})
    server.on("POST /api/billing/checkout", () => answer({ url: "javascript:alert(1)" }))
    await openPayment()
    fireEvent.click(await screen.findByRole("button", { name: "Continue to secure payment" }))
    expect((await screen.findByRole("alert")).textContent).toBe("The server sent an unexpected answer. Please try again later.")
    expect(assign).not.toHaveBeenCalled()
  })

  it("shows the server's refusal of a checkout", async () => {
    server.on("POST /api/billing/checkout", () => refuse(502, "BILLING_PROVIDER_ERROR", "The payment provider is not answering. Please try again."))
    await openPayment()
    fireEvent.click(await screen.findByRole("button", { name: "Continue to secure payment" }))
    expect((await screen.findByRole("alert")).textContent).toBe("The payment provider is not answering. Please try again.")
    expect(screen.getByRole("button", { name: "Continue to secure payment" }).hasAttribute("disabled")).toBe(false)
  })
})

describe("the payment page for a visitor", () => {
  it("shows the order and a link to sign in, and takes no payment", async () => {
    useServer(createFakeServer("test"))
    await openPayment("?plan=pro&annual=true")
    const signInLink = await screen.findByRole("link", { name: "Sign in to continue" })
    expect(signInLink.getAttribute("href")).toBe("/login")
    expect(screen.getByTestId("payment-price").textContent).toBe("₹190 / year")
    expect(screen.queryByLabelText("Card number")).toBeNull()
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull()

    fireEvent.click(signInLink)
    await screen.findByRole("heading", { name: /sign in/i })
    expect(server.calls("GET /api/billing/subscription")).toHaveLength(0)
  })
})

describe("the payment page during a free trial", () => {
  it("takes a payment (the trial had no card), not a plan change", async () => {
    useServer(createFakeServer("test", paid("pro", { status: "trialing", interval: null, trialEnd: PERIOD_END, currentPeriodEnd: null })))
    signIn({ ...member, subscription: { plan: { id: "pro", name: "Pro" }, status: "trialing" } })
    await openPayment()
    expect((await screen.findByTestId("test-mode-notice")).textContent).toBe(TEST_MODE_NOTICE)
    expect(screen.queryByText(/takes effect/)).toBeNull()
  })
})

describe("the payment page for a paying account", () => {
  it("offers an upgrade that takes effect now, then waits and shows the dashboard", async () => {
    useServer(createFakeServer("test", paid("pro")))
    signIn({ ...member, subscription: { plan: { id: "pro", name: "Pro" }, status: "active" } })
    let changedAt = 0
    server.on("POST /api/billing/change", () => {
      changedAt = Date.now()
      return server.moveTo("enterprise")
    })
    await openPayment("?plan=enterprise&annual=false")
    expect((await screen.findByTestId("change-effect")).textContent).toBe("Upgrade takes effect now")
    expect(screen.queryByLabelText("Card number")).toBeNull()
    fireEvent.click(screen.getByRole("button", { name: "Change to Enterprise" }))

    await waitFor(() => expect(server.calls("POST /api/billing/change").map((call) => call.body)).toEqual([{ planId: "enterprise", annual: false }]))
    await waitFor(() => expect(useSession.getState().user?.subscription?.plan.id).toBe("enterprise"))
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Payment: Enterprise plan")
    expect(screen.getByRole("button", { name: "Changing your plan…" }).hasAttribute("disabled")).toBe(true)
    expect(screen.getByTestId("change-effect").textContent).toBe("Upgrade takes effect now")
    await screen.findByRole("heading", { level: 1, name: "Dashboard" }, { timeout: 4000 })
    expect(Date.now() - changedAt).toBeGreaterThanOrEqual(1900)
    await screen.findByText("Thank you! You are now on the Enterprise plan.")
    expect(server.calls("POST /api/billing/test-payment")).toHaveLength(0)
  })

  it("says a downgrade takes effect at the period's end, and shows a refusal", async () => {
    useServer(createFakeServer("test", paid("enterprise")))
    signIn({ ...member, subscription: { plan: { id: "enterprise", name: "Enterprise" }, status: "active" } })
    server.on("POST /api/billing/change", () => refuse(409, "WRONG_BILLING_MODE", "Plan changes go through the billing portal."))
    await openPayment("?plan=pro&annual=false")
    const effect = await screen.findByTestId("change-effect")
    expect(effect.textContent).toBe(`Downgrade takes effect on ${longDate(PERIOD_END)}`)
    expect(effect.textContent).toContain("December 2026")
    fireEvent.click(screen.getByRole("button", { name: "Change to Pro" }))
    expect((await screen.findByRole("alert")).textContent).toBe("Plan changes go through the billing portal.")
  })

  it("tells an account already on the chosen plan so, with no button to pay again", async () => {
    useServer(createFakeServer("test", paid("pro")))
    signIn()
    await openPayment("?plan=pro&annual=false")
    await screen.findByText("You are already on the Pro plan, billed this way.")
    expect(screen.queryByRole("button", { name: /Change to|Pay/ })).toBeNull()
  })
})
