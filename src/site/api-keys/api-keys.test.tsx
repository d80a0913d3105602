/**
 * The dashboard's API keys card, through the whole app with a fake API: a Free account is offered the upgrade and
 * asks for no keys; a Pro account creates a key with its password, sees it once with a curl call on this origin,
 * and revokes a key after confirming; its calls of the last 30 days show as a chart or, pressed, as a table of the
 * same figures, with words for no calls and for a failure.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeAll, describe, expect, it } from "vitest"

import type { ApiKeySummary, ApiKeyUsage } from "~core/api-keys"
import { teardownSession } from "~site-session/session-store"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { FREE_SUBSCRIPTION, PERIOD_END } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest, type Handler } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { preloadDashboard } from "../pages.test-support"

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const PASSWORD = "Blue-Harbor-42!"
const KEY = `iqa_${"A1b2C3d4".repeat(5)}xyz`
const PRO = { ...FREE_SUBSCRIPTION, plan: "pro" as const, interval: "month" as const, currentPeriodEnd: PERIOD_END, trialAvailable: false }

const NONE = { ocr: 0, faces: 0, objects: 0, ask: 0, translate: 0 }

/** 30 days to Friday 27 November 2026, oldest first as the server gives them, with `calls` on the days named. */
function usageWith(calls: Record<string, Partial<typeof NONE>> = {}): ApiKeyUsage {
  const days = Array.from({ length: 30 }, (_, index) => {
    const day = new Date(Date.UTC(2026, 10, 27) - (29 - index) * 86_400_000).toISOString().slice(0, 10)
    return { day, ...NONE, ...calls[day] }
  })
  const totals = { ...NONE }
  for (const day of days) for (const endpoint of Object.keys(NONE) as (keyof typeof NONE)[]) totals[endpoint] += day[endpoint]
  return { days, totals }
}

function fakeServer(subscription: typeof FREE_SUBSCRIPTION, usage: Handler = () => answer(usageWith())) {
  const keys: ApiKeySummary[] = [{ id: "key-1", name: "nightly", prefix: "iqa_Zz9Yy8Xx", createdAt: "2030-01-02T00:00:00.000Z", lastUsedAt: null }]
  return createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" } })],
    ["GET /api/billing/subscription", () => answer(subscription)],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/keys", () => answer(keys)],
    ["GET /api/keys/usage", usage],
    [
      "POST /api/keys",
      (request) => {
        const body = request.body as { name: string; currentPassword?: string }
        if (body.currentPassword !== PASSWORD) return refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect")
        const created = { id: "key-2", name: body.name, prefix: KEY.slice(0, 12), createdAt: "2030-01-03T00:00:00.000Z" }
        keys.unshift({ ...created, lastUsedAt: null })
        return answer({ ...created, key: KEY }, 201)
      }
    ],
    [
      "DELETE /api/keys/key-1",
      () => {
        keys.splice(keys.findIndex((key) => key.id === "key-1"), 1)
        return answer({ revoked: true })
      }
    ]
  ])
}

let server: ReturnType<typeof fakeServer>

async function openDashboard(subscription: typeof FREE_SUBSCRIPTION, usage?: Handler) {
  server = fakeServer(subscription, usage)
  resetSiteForTest(server.fetch)
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(member))
  render(<SiteApp router="memory" initialPath="/dashboard" />)
  await screen.findByRole("heading", { level: 1, name: "Dashboard" })
  return screen.getByRole("region", { name: "API keys" })
}

afterEach(() => teardownSession())

beforeAll(preloadDashboard, 60_000)
describe("the dashboard's API keys", () => {
  it("offers a Free account the upgrade, and asks the server for no keys", async () => {
    const card = await openDashboard(FREE_SUBSCRIPTION)
    expect(within(card).getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("/pricing")
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.calls("GET /api/keys")).toEqual([])
    expect(server.calls("GET /api/keys/usage")).toEqual([])
    expect(within(card).queryByText(/API calls in the last/)).toBeNull()
  })

  it("creates a key with the password, shows it once with a curl call on this origin, and revokes another after confirming", async () => {
    const card = await openDashboard(PRO)
    await within(card).findByText("nightly")

    fireEvent.change(within(card).getByLabelText("Key name"), { target: { value: "ci" } })
    fireEvent.change(within(card).getByLabelText("Current password"), { target: { value: "wrong" } })
    fireEvent.click(within(card).getByRole("button", { name: "Create key" }))
    expect(await within(card).findByText("Current password is incorrect")).toBeTruthy()

    fireEvent.change(within(card).getByLabelText("Current password"), { target: { value: PASSWORD } })
    fireEvent.click(within(card).getByRole("button", { name: "Create key" }))
    expect((await within(card).findByTestId("new-api-key")).textContent).toBe(KEY)
    expect(within(card).getByText(`curl -H "Authorization: Bearer ${KEY}" -F image=@picture.png ${window.location.origin}/api/v1/ocr`)).toBeTruthy()
    await within(card).findByText("ci")
    fireEvent.click(within(card).getByRole("button", { name: "I have copied it" }))
    await waitFor(() => expect(within(card).queryByTestId("new-api-key")).toBeNull())

    fireEvent.click(within(card).getByRole("button", { name: "Revoke nightly" }))
    const dialog = await screen.findByRole("alertdialog")
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke key" }))
    await waitFor(() => expect(within(card).queryByText("nightly")).toBeNull())
    expect(server.calls("DELETE /api/keys/key-1")).toHaveLength(1)
  })

  it("shows the last 30 days' calls by endpoint with a legend, and the same figures in a table when pressed", async () => {
    const card = await openDashboard(PRO, () => answer(usageWith({ "2026-11-27": { translate: 3, ask: 1 }, "2026-11-20": { ocr: 1200 } })))
    const usage = await within(card).findByRole("region", { name: "API calls in the last 30 days" })
    expect(server.calls("GET /api/keys/usage").map((request) => request.query)).toEqual(["?days=30"])
    const chart = await within(usage).findByRole("figure", { name: "API calls in the last 30 days" })
    const legend = within(chart).getByRole("list", { name: /Legend/ })
    expect(within(legend).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["OCR1,200", "Faces0", "Objects0", "Ask1", "Translate3"])
    expect(within(usage).queryByRole("table")).toBeNull()

    const toggle = within(usage).getByRole("button", { name: "Show as table" })
    expect(toggle.getAttribute("aria-pressed")).toBe("false")
    fireEvent.click(toggle)
    expect(toggle.getAttribute("aria-pressed")).toBe("true")
    const table = within(usage).getByRole("table")
    const rows = within(table).getAllByRole("row").map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent))
    expect(rows[0]).toEqual(["Day", "OCR", "Faces", "Objects", "Ask", "Translate", "Total"])
    // Newest first: today, then the 29 days before, then the totals.
    expect(rows).toHaveLength(32)
    expect(rows[1]).toEqual(["Fri 27 Nov", "0", "0", "0", "1", "3", "4"])
    expect(rows[2]).toEqual(["Thu 26 Nov", "0", "0", "0", "0", "0", "0"])
    expect(rows.find((row) => row[0] === "Fri 20 Nov")).toEqual(["Fri 20 Nov", "1,200", "0", "0", "0", "0", "1,200"])
    expect(rows[30]![0]).toBe("Thu 29 Oct")
    expect(rows[31]).toEqual(["Total", "1,200", "0", "0", "1", "3", "1,204"])
    expect(within(usage).queryByRole("figure")).toBeNull()

    fireEvent.click(toggle)
    expect(await within(usage).findByRole("figure", { name: "API calls in the last 30 days" })).toBeTruthy()
  })

  it("says so when the account made no calls, with no chart nor table to show", async () => {
    const card = await openDashboard(PRO)
    const usage = await within(card).findByRole("region", { name: "API calls in the last 30 days" })
    expect(await within(usage).findByText("No API calls in the last 30 days.")).toBeTruthy()
    expect(within(usage).queryByRole("button", { name: "Show as table" })).toBeNull()
    expect(within(usage).queryByRole("figure")).toBeNull()
  })

  it("says in words when the calls could not be loaded, and loads them on Try again", async () => {
    let failing = true
    const card = await openDashboard(PRO, () => (failing ? refuse(500, "INTERNAL_ERROR", "Something went wrong on our side.") : answer(usageWith({ "2026-11-27": { ask: 5 } }))))
    const usage = await within(card).findByRole("region", { name: "API calls in the last 30 days" })
    const alert = await within(usage).findByRole("alert")
    expect(alert.textContent).toBe("We could not load your API calls. Something went wrong on our side.")
    failing = false
    fireEvent.click(within(usage).getByRole("button", { name: "Try again" }))
    fireEvent.click(await within(usage).findByRole("button", { name: "Show as table" }))
    expect(within(usage).getByRole("row", { name: /Fri 27 Nov/ }).textContent).toBe("Fri 27 Nov000505")
  })
})
