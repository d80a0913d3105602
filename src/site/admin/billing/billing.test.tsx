/**
 * /admin/billing through the whole app with a fake API: the MRR and its change, subscribers per plan and status, the
 * subscriptions with failed payments marked, Stripe's links opening the dashboard in a new tab, paging, and a failure
 * said in words.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"
import type { AdminBilling, AdminSubscription } from "~core/admin/admin-analytics"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { answer, createFakeApi, refuse, resetSiteForTest, type Handler } from "../../fake-api-server"
import { SiteApp } from "../../SiteApp"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const ADMIN_ID = "00000000-0000-4000-8000-0000000000ad"

const subscription = (overrides: Partial<AdminSubscription> = {}): AdminSubscription => ({
  userId: "u1",
  email: "ada@example.com",
  name: "Ada Lovelace",
  plan: "pro",
  interval: "month",
  status: "active",
  periodEnd: "2027-01-23T12:00:00.000Z",
  cancelAtPeriodEnd: false,
  provider: "test",
  stripeCustomerUrl: null,
  ...overrides
})

const billing = (overrides: Partial<AdminBilling> = {}): AdminBilling => ({
  subscribers: { pro: 3, enterprise: 1 },
  statuses: { trialing: 2, active: 3, past_due: 1, unpaid: 0, paused: 0, canceled: 4 },
  mrr: { currency: "USD", now: 183.5, thirtyDaysAgo: 120, change: 63.5, changePercent: 52.9 },
  subscriptions: [
    subscription({ userId: "u9", email: "late@example.com", name: "Late Payer", status: "past_due", provider: "stripe", stripeCustomerUrl: "https://dashboard.stripe.com/test/customers/cus_9" }),
    subscription({ plan: "enterprise", interval: "year", cancelAtPeriodEnd: true })
  ],
  total: 2,
  page: 1,
  pageSize: 50,
  ...overrides
})

function openBilling(handler: Handler) {
  const server = createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { name: "Root", email: "root@example.com", role: "admin", provider: "email", id: ADMIN_ID, emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z", organization: null } })],
    ["GET /api/admin/billing", handler]
  ])
  resetSiteForTest(server.fetch)
  const user: User = { name: "Root", email: "root@example.com", role: "admin", provider: "email" }
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
  render(<SiteApp router="memory" initialPath="/admin/billing" />)
  return server
}

const table = () => screen.findByRole("table", { name: /Subscriptions, failed payments first/ })

describe("the billing page", () => {
  it("shows the MRR with its change, subscribers per plan and status", async () => {
    openBilling(() => answer(billing()))
    expect(await screen.findByRole("heading", { level: 1, name: "Billing" })).toBeTruthy()
    expect((await screen.findByText("$183.50")).closest("div")!.textContent).toContain("+$63.50 (+52.9%) in 30 days, from $120")
    expect(screen.getByText("Paying subscribers").closest("div")!.textContent).toContain("4Pro 3, Enterprise 1")
    const statuses = screen.getByText("Subscriptions by status").closest("div")!
    expect([...statuses.querySelectorAll("li")].map((item) => item.textContent)).toEqual(["Trial2", "Active3", "Past due1", "Unpaid0", "Paused0", "Ended4"])
  })

  it("lists the subscriptions in the server's order, a failed payment marked, Stripe's link opening a new tab safely", async () => {
    openBilling(() => answer(billing()))
    const [failed, yearly] = within(await table()).getAllByRole("row").slice(1)
    // The wide screen's columns and the narrow screen's summary (CSS shows one of them) both mark it and link it.
    expect(within(failed!).getAllByText("Payment failed: past due")).toHaveLength(2)
    const links = within(failed!).getAllByRole("link", { name: /Open in Stripe/ })
    expect(links).toHaveLength(2)
    for (const link of links) {
      expect([link.getAttribute("href"), link.getAttribute("target"), link.getAttribute("rel")]).toEqual(["https://dashboard.stripe.com/test/customers/cus_9", "_blank", "noopener noreferrer"])
      expect(link.textContent).toContain("opens in a new tab")
    }
    expect([...yearly!.querySelectorAll("td")].slice(1).map((cell) => cell.textContent)).toEqual(["EnterpriseYearly", "ActiveCancelled at period end", "23 Jan 2027", "Test mode"])
    expect(yearly!.querySelector("[data-narrow-only]")!.textContent).toBe("ActiveCancelled at period endEnterprise, yearly · ends 23 Jan 2027 · Test mode")
    expect(within(yearly!).queryByRole("link")).toBeNull()
  })

  it("pages through the subscriptions", async () => {
    const server = openBilling((request) => {
      const page = Number(new URLSearchParams(request.query).get("page"))
      return answer(billing({ total: 120, page, subscriptions: [subscription({ userId: `p${page}`, name: `Customer ${page}` })] }))
    })
    expect(await screen.findByText("Page 1 of 3")).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Next" }))
    expect(await screen.findByText("Customer 2")).toBeTruthy()
    expect(screen.getByText("Page 2 of 3")).toBeTruthy()
    await waitFor(() => expect(server.calls("GET /api/admin/billing").map((request) => request.query)).toEqual(["?page=1", "?page=2"]))
  })

  it("says when no one has subscribed", async () => {
    openBilling(() => answer(billing({ subscriptions: [], total: 0 })))
    expect(await screen.findByText("No one has subscribed yet.")).toBeTruthy()
  })

  it("says a failure in words, with a way to try again", async () => {
    openBilling(() => refuse(403, "FORBIDDEN", "You do not have permission to do this."))
    expect((await screen.findByText(/We could not load the billing figures\./)).textContent).toContain("You do not have permission to do this.")
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy()
  })
})
