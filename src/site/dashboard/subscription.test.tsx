/**
 * Component tests of the dashboard's subscription card and its billing actions, rendered through the whole app
 * against a fake API answering the billing routes in the wrapper.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"

import { teardownSession, useSession } from "~site-session/session-store"
import { SUBSCRIPTION_ON_HOLD_MESSAGE, type Subscription } from "~core/billing/billing"
import { DAY_MS } from "~core/time"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { providerNavigation } from "~site/shared/billing/billing-requests"
import { FREE_SUBSCRIPTION as FREE, PERIOD_END } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { preloadDashboard } from "../pages.test-support"

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }

const PRO: Subscription = { ...FREE, plan: "pro", interval: "month", currentPeriodEnd: PERIOD_END, trialAvailable: false }

function createFakeServer(initial: Subscription) {
  const state = { subscription: initial }
  const userFor = () => ({
    ...accountUser,
    subscription: { plan: { id: state.subscription.plan, name: state.subscription.plan === "free" ? "Free" : "Pro" }, status: state.subscription.status }
  })
  const changeTo = (next: Subscription) => {
    state.subscription = next
    return answer({ subscription: next })
  }
  const server = createFakeApi([
    ["GET /api/billing/subscription", () => answer(state.subscription)],
    ["GET /api/auth/profile", () => answer({ user: userFor() })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["POST /api/billing/cancel", () => changeTo({ ...state.subscription, cancelAtPeriodEnd: true })],
    ["POST /api/billing/resume", () => changeTo({ ...state.subscription, cancelAtPeriodEnd: false })],
    [
      "POST /api/billing/trial",
      () => changeTo({ ...PRO, status: "trialing", interval: null, trialEnd: new Date(Date.now() + 14 * DAY_MS).toISOString(), currentPeriodEnd: null })
    ],
    ["POST /api/billing/portal", () => answer({ url: "https://billing.stripe.test/p/session/test_1" })]
  ])
  return { ...server, state }
}

let server: ReturnType<typeof createFakeServer>

async function openDashboard(subscription: Subscription, { path = "/dashboard", storedPlan = "free" as "free" | "pro" } = {}) {
  server = createFakeServer(subscription)
  resetSiteForTest(server.fetch)
  const stored: User = storedPlan === "free" ? member : { ...member, subscription: { plan: { id: "pro", name: "Pro" }, status: "active" } }
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(stored))
  render(<SiteApp router="memory" initialPath={path} />)
  await screen.findByRole("heading", { level: 1, name: "Dashboard" })
  return screen.findByRole("region", { name: "Subscription" })
}

/** The card once its record has arrived: its status line is there. */
async function loadedCard(subscription: Subscription, options?: Parameters<typeof openDashboard>[1]) {
  const card = await openDashboard(subscription, options)
  await within(card).findByText(/^Status: /)
  return card
}

const currentPlanStat = () => screen.getByText("Current plan").nextElementSibling?.textContent

beforeAll(preloadDashboard, 60_000)
beforeEach(() => window.localStorage.clear())
afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

describe("the subscription card", () => {
  it("shows a trial with its days left, and no renewal", async () => {
    const trialEnd = new Date(Date.now() + 5 * DAY_MS - 3_600_000).toISOString()
    const card = await loadedCard({ ...PRO, status: "trialing", interval: null, trialEnd, currentPeriodEnd: trialEnd }, { storedPlan: "pro" })
    expect(within(card).getByText("Status: Trial")).toBeTruthy()
    expect(within(card).getByText("5 days left in your free trial")).toBeTruthy()
    expect(within(card).queryByText(/^Renews on/)).toBeNull()
    expect(within(card).queryByRole("button", { name: /free trial/ })).toBeNull()
  })

  it("shows an active plan with its renewal date, follows the record in the stat and the stored user, and opens the portal", async () => {
    const assign = vi.spyOn(providerNavigation, "assign").mockImplementation(() => {})
    // The stored user still says Free: the record says Pro.
    const card = await loadedCard({ ...PRO, portalAvailable: true, mode: "stripe" })
    expect(within(card).getByText("Pro")).toBeTruthy()
    expect(within(card).getByText("Status: Active")).toBeTruthy()
    expect(within(card).getByText("Renews on 23 December 2026")).toBeTruthy()
    expect(currentPlanStat()).toBe("Pro")
    await waitFor(() => expect(useSession.getState().user?.subscription?.plan.id).toBe("pro"))
    expect(within(card).queryByRole("button", { name: "Resume subscription" })).toBeNull()

    const manage = within(card).getByRole("button", { name: "Manage billing" })
    manage.focus()
    expect(document.activeElement).toBe(manage)
    fireEvent.click(manage)
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://billing.stripe.test/p/session/test_1"))
    expect(server.calls("POST /api/billing/portal")).toHaveLength(1)
  })

  it("counts a cancelled plan of the stored user as Free until the record arrives", async () => {
    server = createFakeServer(PRO)
    const never = () => new Promise<never>(() => {})
    server.on("GET /api/billing/subscription", never)
    server.on("GET /api/auth/profile", never)
    resetSiteForTest(server.fetch)
    window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
    window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
    window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify({ ...member, subscription: { plan: { id: "pro", name: "Pro" }, status: "canceled" } }))
    render(<SiteApp router="memory" initialPath="/dashboard" />)
    await screen.findByRole("heading", { level: 1, name: "Dashboard" })
    await waitFor(() => expect(currentPlanStat()).toBe("Free"))
  })

  it("offers no portal when the record says it is not open", async () => {
    const card = await loadedCard(PRO, { storedPlan: "pro" })
    expect(within(card).queryByRole("button", { name: "Manage billing" })).toBeNull()
    expect(within(card).getByRole("button", { name: "Cancel subscription" })).toBeTruthy()
  })

  it("shows the end date of a cancelled subscription and resumes it", async () => {
    const card = await loadedCard({ ...PRO, cancelAtPeriodEnd: true }, { storedPlan: "pro" })
    expect(within(card).getByText("Ends on 23 December 2026")).toBeTruthy()
    expect(within(card).queryByText(/^Renews on/)).toBeNull()
    expect(within(card).queryByRole("button", { name: "Cancel subscription" })).toBeNull()

    fireEvent.click(within(card).getByRole("button", { name: "Resume subscription" }))
    await within(card).findByText("Renews on 23 December 2026")
    expect(server.calls("POST /api/billing/resume")).toHaveLength(1)
    expect(within(card).queryByRole("button", { name: "Resume subscription" })).toBeNull()
  })

  it("says a payment failed", async () => {
    const card = await loadedCard({ ...PRO, status: "past_due", portalAvailable: true }, { storedPlan: "pro" })
    expect(within(card).getByText("Status: Payment failed")).toBeTruthy()
    expect(within(card).getByText("Your last payment failed. Update your payment method to keep your plan.")).toBeTruthy()
    expect(within(card).getByRole("button", { name: "Manage billing" })).toBeTruthy()
  })

  it("shows an unpaid subscription as Free, on hold, with the portal to pay it", async () => {
    const card = await loadedCard({ ...PRO, plan: "free", status: "unpaid", interval: null, trialAvailable: false, portalAvailable: true })
    expect(within(card).getByText("Status: Unpaid")).toBeTruthy()
    expect(within(card).getByText(SUBSCRIPTION_ON_HOLD_MESSAGE)).toBeTruthy()
    expect(within(card).getByText("Up to 10 AI requests per month.")).toBeTruthy()
    expect(currentPlanStat()).toBe("Free")
    expect(within(card).getByRole("button", { name: "Manage billing" })).toBeTruthy()
    expect(within(card).queryByRole("button", { name: "Cancel subscription" })).toBeNull()
  })

  it("shows a downgrade waiting for the period's end", async () => {
    const card = await loadedCard({ ...PRO, plan: "enterprise", scheduledPlan: "pro" }, { storedPlan: "pro" })
    expect(within(card).getByText("Changes to Pro on 23 December 2026")).toBeTruthy()
  })

  it("shows a cancelled subscription as Free", async () => {
    const card = await loadedCard({ ...PRO, status: "canceled", trialAvailable: false })
    expect(within(card).getByText("Status: Canceled")).toBeTruthy()
    expect(within(card).getByText("Up to 10 AI requests per month.")).toBeTruthy()
    expect(currentPlanStat()).toBe("Free")
    expect(within(card).queryByRole("button", { name: "Cancel subscription" })).toBeNull()
  })

  it("starts the free trial of a Free account and shows it", async () => {
    const card = await loadedCard(FREE)
    expect(within(card).getByText("Status: Active")).toBeTruthy()
    expect(within(card).queryByRole("button", { name: "Cancel subscription" })).toBeNull()
    fireEvent.click(within(card).getByRole("button", { name: "Start 14-day free trial" }))

    await within(card).findByText("Status: Trial")
    expect(server.calls("POST /api/billing/trial").map((call) => call.body)).toEqual([{ planId: "pro" }])
    expect(within(card).getByText("14 days left in your free trial")).toBeTruthy()
    await waitFor(() => expect(useSession.getState().user?.subscription?.plan.id).toBe("pro"))
    expect(currentPlanStat()).toBe("Pro")
  })

  it("shows a refused trial in words", async () => {
    const card = await loadedCard(FREE)
    server.on("POST /api/billing/trial", () => refuse(409, "TRIAL_ALREADY_USED", "This account has already used its free trial."))
    fireEvent.click(within(card).getByRole("button", { name: "Start 14-day free trial" }))
    expect((await within(card).findByRole("alert")).textContent).toBe("This account has already used its free trial.")
    expect(within(card).getByText("Status: Active")).toBeTruthy()
  })

  it("in Stripe mode, says the trial takes a card and sends the account to Stripe's Checkout for it", async () => {
    const assign = vi.spyOn(providerNavigation, "assign").mockImplementation(() => {})
    const card = await loadedCard({ ...FREE, mode: "stripe" })
    expect(within(card).getByText("A card is needed to start it. Nothing is charged before the trial ends, and you can cancel any time before then.")).toBeTruthy()
    expect(card.textContent).not.toMatch(/no card/i)
    server.on("POST /api/billing/trial", () => answer({ url: "https://checkout.stripe.test/c/cs_trial" }))
    fireEvent.click(within(card).getByRole("button", { name: "Start 14-day free trial" }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://checkout.stripe.test/c/cs_trial"))
    expect(server.calls("POST /api/billing/trial").map((call) => call.body)).toEqual([{ planId: "pro" }])
    // Nothing changes here: the trial starts when Stripe reports it.
    expect(within(card).getByText("Status: Active")).toBeTruthy()
  })

  it("offers no trial to an account that has used it", async () => {
    const card = await loadedCard({ ...FREE, trialAvailable: false })
    expect(within(card).queryByRole("button", { name: /free trial/ })).toBeNull()
  })
})

describe("cancelling", () => {
  it("asks first, then cancels at the period's end", async () => {
    const card = await loadedCard(PRO, { storedPlan: "pro" })
    fireEvent.click(within(card).getByRole("button", { name: "Cancel subscription" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel your subscription?" })
    expect(within(dialog).getByText(/You keep the Pro plan until 23 December 2026/)).toBeTruthy()
    expect(server.calls("POST /api/billing/cancel")).toHaveLength(0)

    fireEvent.click(within(dialog).getByRole("button", { name: "Yes, cancel subscription" }))
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull())
    expect(server.calls("POST /api/billing/cancel")).toHaveLength(1)
    await within(card).findByText("Ends on 23 December 2026")
    expect(within(card).getByRole("button", { name: "Resume subscription" })).toBeTruthy()
  })

  it("can be left without any call", async () => {
    const card = await loadedCard(PRO, { storedPlan: "pro" })
    fireEvent.click(within(card).getByRole("button", { name: "Cancel subscription" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel your subscription?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep my subscription" }))
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull())
    expect(server.calls("POST /api/billing/cancel")).toHaveLength(0)
    expect(within(card).getByText("Renews on 23 December 2026")).toBeTruthy()
  })

  it("shows a refusal in the dialog", async () => {
    const card = await loadedCard(PRO, { storedPlan: "pro" })
    server.on("POST /api/billing/cancel", () => refuse(502, "BILLING_PROVIDER_ERROR", "The payment provider is not answering. Please try again."))
    fireEvent.click(within(card).getByRole("button", { name: "Cancel subscription" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel your subscription?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Yes, cancel subscription" }))
    expect((await within(dialog).findByRole("alert")).textContent).toBe("The payment provider is not answering. Please try again.")
  })
})

describe("after a payment", () => {
  it("thanks the user once the record shows the paid plan", async () => {
    await loadedCard(PRO, { path: "/dashboard?subscription=success", storedPlan: "pro" })
    expect((await screen.findByText("Thank you! You are now on the Pro plan.")).getAttribute("role")).toBe("status")
    expect(screen.queryByText(/subscription request was received/)).toBeNull()
  })

  it("waits for the record (a late webhook), asking again, before thanking", async () => {
    await loadedCard(FREE, { path: "/dashboard?subscription=success" })
    expect(screen.getByText("We are confirming your payment. Your plan shows here as soon as it is confirmed.")).toBeTruthy()
    expect(screen.queryByText(/^Thank you!/)).toBeNull()
    server.state.subscription = PRO
    await screen.findByText("Thank you! You are now on the Pro plan.", {}, { timeout: 4000 })
    expect(server.calls("GET /api/billing/subscription").length).toBeGreaterThanOrEqual(2)
    expect(currentPlanStat()).toBe("Pro")
  })

  it("says nothing of a payment without the success address", async () => {
    await loadedCard(PRO, { storedPlan: "pro" })
    expect(screen.queryByText(/^Thank you!/)).toBeNull()
    expect(screen.queryByText(/confirming your payment/)).toBeNull()
  })
})
