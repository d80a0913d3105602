// The payment page through the whole app: in Stripe mode, for a visitor, during a free trial, for a paying account.
import { fireEvent, screen, waitFor } from "@testing-library/react"
import { beforeEach, describe, expect, it, vi } from "vitest"

import { useSession } from "~site-session/session-store"
import { longDate } from "~core/format"
import { TEST_MODE_NOTICE } from "~core/billing/billing"
import { providerNavigation } from "~site/shared/billing/billing-requests"
import { PERIOD_END } from "~site/shared/billing/subscriptions.test-support"

import { answer, refuse } from "../fake-api-server"
import { createFakeServer, member, openPayment, paid, server, setUpPaymentTests, signIn, useServer } from "./payment-test-kit"

setUpPaymentTests()

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
