/**
 * /admin/analytics through the whole app with a fake API: 30 days by default and 90 pressed, a chart per group of
 * figures with its totals, each with a table view of every day, a failure said in words with a way to try again.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"
import type { AnalyticsDay } from "~core/admin/admin-analytics"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { answer, createFakeApi, refuse, resetSiteForTest, type Handler } from "../../fake-api-server"
import { SiteApp } from "../../SiteApp"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const ADMIN_ID = "00000000-0000-4000-8000-0000000000ad"

/** `count` days ending on 27 Nov 2026, each with the given figures (zeros otherwise). */
function days(count: number, figures: (index: number) => Partial<AnalyticsDay> = () => ({})): AnalyticsDay[] {
  return Array.from({ length: count }, (_, index) => ({
    date: new Date(Date.UTC(2026, 10, 27) - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
    questions: 0,
    translations: 0,
    apiCalls: 0,
    signUps: 0,
    activeUsers: 0,
    feedback: 0,
    ...figures(index)
  }))
}

function openAnalytics(analytics: Handler) {
  const server = createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { name: "Root", email: "root@example.com", role: "admin", provider: "email", id: ADMIN_ID, emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z", organization: null } })],
    ["GET /api/admin/analytics", analytics]
  ])
  resetSiteForTest(server.fetch)
  const user: User = { name: "Root", email: "root@example.com", role: "admin", provider: "email" }
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
  render(<SiteApp router="memory" initialPath="/admin/analytics" />)
  return server
}

const fromQuery = (query: string) => Number(new URLSearchParams(query).get("days"))

describe("the analytics page", () => {
  it("asks for 30 days, charts each group with its totals, and shows every day as a table on request", async () => {
    const server = openAnalytics((request) =>
      answer({ days: days(fromQuery(request.query), (index) => ({ questions: index === 29 ? 7 : 1, translations: 2, apiCalls: 3, signUps: 1, activeUsers: index, feedback: index % 2 })) })
    )
    expect(await screen.findByRole("heading", { level: 1, name: "Analytics" })).toBeTruthy()
    const usage = await screen.findByRole("region", { name: "Questions, translations and API calls per day" })
    const chart = await within(usage).findByRole("figure", { name: "Questions, translations and API calls per day" })
    const legend = within(chart).getByRole("list", { name: /Legend/ })
    expect(within(legend).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Questions36", "Translations60", "API calls90"])
    const accounts = screen.getByRole("region", { name: "Sign-ups and active users per day" })
    // Active users over the range: the busiest day, not a sum that counts the same people again each day.
    expect(within(await within(accounts).findByRole("list", { name: /Legend/ })).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Sign-ups30", "Active users (busiest day)29"])
    expect(server.calls("GET /api/admin/analytics").map((request) => request.query)).toEqual(["?days=30"])

    fireEvent.click(within(usage).getByRole("button", { name: "Show as table" }))
    const table = within(usage).getByRole("table", { name: "Questions, translations and API calls per day, newest day first" })
    const rows = within(table).getAllByRole("row")
    // A header, 30 days newest first, the totals.
    expect(rows).toHaveLength(32)
    expect([...rows[1]!.querySelectorAll("th, td")].map((cell) => cell.textContent)).toEqual(["Fri 27 Nov", "7", "2", "3"])
    expect([...rows.at(-1)!.querySelectorAll("th, td")].map((cell) => cell.textContent)).toEqual(["Total", "36", "60", "90"])
    expect(within(usage).getByRole("button", { name: "Show as table" }).getAttribute("aria-pressed")).toBe("true")
    expect(screen.getByRole("region", { name: "Feedback received per day" })).toBeTruthy()
  })

  it("switches to 90 days", async () => {
    const server = openAnalytics((request) => answer({ days: days(fromQuery(request.query), () => ({ feedback: 1 })) }))
    const range = await screen.findByRole("group", { name: "Range" })
    expect(within(range).getByRole("button", { name: "Last 30 days" }).getAttribute("aria-pressed")).toBe("true")
    fireEvent.click(within(range).getByRole("button", { name: "Last 90 days" }))
    await waitFor(() => expect(server.calls("GET /api/admin/analytics").map((request) => request.query)).toEqual(["?days=30", "?days=90"]))
    const feedback = screen.getByRole("region", { name: "Feedback received per day" })
    fireEvent.click(await within(feedback).findByRole("button", { name: "Show as table" }))
    await waitFor(() => expect(within(feedback).getAllByRole("row")).toHaveLength(92))
    expect(within(range).getByRole("button", { name: "Last 90 days" }).getAttribute("aria-pressed")).toBe("true")
  })

  it("says in words when the figures cannot be loaded, and tries again", async () => {
    let failing = true
    openAnalytics(() => (failing ? refuse(500, "INTERNAL_ERROR", "Something went wrong on our side.") : answer({ days: days(30) })))
    expect((await screen.findByText(/We could not load the figures\./)).textContent).toContain("Something went wrong on our side.")
    failing = false
    fireEvent.click(screen.getByRole("button", { name: "Try again" }))
    expect(await screen.findByRole("region", { name: "Feedback received per day" })).toBeTruthy()
  })

  it("refuses an answer that is not the figures, in words", async () => {
    openAnalytics(() => answer({ days: [{ date: "yesterday" }] }))
    expect((await screen.findByText(/We could not load the figures\./)).textContent).toContain("unexpected answer")
  })
})
