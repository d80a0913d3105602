/**
 * /admin/users and /admin/users/:id through the whole app with a fake API: the search, filters and pages reach the
 * server as query parameters; a user's page shows what the server answered (names as text); each action asks first
 * and sends its call; the server's refusal (the last admin) is shown in plain words; the Enterprise and organisation
 * limits are set through their PUT calls.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import { teardownSession } from "~site-session/session-store"
import type { AdminUserDetail, AdminUserSummary } from "~core/admin/admin-users"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { FREE_SUBSCRIPTION } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest, type SeenRequest } from "../../fake-api-server"
import { SiteApp } from "../../SiteApp"
import { readLimit } from "./UserActions"

afterEach(() => teardownSession())

const ME: User = { name: "Root", email: "root@example.com", role: "admin", provider: "email" }
const ID = "00000000-0000-4000-8000-000000000001"
const ORG = "00000000-0000-4000-8000-0000000000f1"

const summary = (index: number, extra: Partial<AdminUserSummary> = {}): AdminUserSummary => ({
  id: index === 1 ? ID : `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
  email: `person${index}@example.com`,
  name: `Person ${index}`,
  role: "user",
  plan: "free",
  verified: true,
  disabled: false,
  createdAt: "2026-11-01T10:00:00.000Z",
  lastSignInAt: null,
  ...extra
})

function detailOf(user: AdminUserSummary, extra: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    user: { ...user, disabledAt: user.disabled ? "2026-11-20T10:00:00.000Z" : null, requestLimit: null },
    signInMethods: ["email"],
    subscription: FREE_SUBSCRIPTION,
    usage: { month: "2026-11", used: 12, limit: 50, source: "own" },
    sessions: user.disabled ? [] : [{ id: "s1", client: "site", createdAt: "2026-11-20T10:00:00.000Z", lastUsedAt: "2026-11-21T10:00:00.000Z", expiresAt: "2026-12-20T10:00:00.000Z" }],
    organization: null,
    ...extra
  }
}

/** The fake server: 120 accounts, the first of them `first`; PATCH and the limits change the detail it answers. */
function openAt(path: string, first: AdminUserSummary = summary(1), extra: Partial<AdminUserDetail> = {}) {
  let detail = detailOf(first, extra)
  const server = createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { ...ME, id: "root", emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z", organization: null } })],
    [
      "GET /api/admin/users",
      (request: SeenRequest) => {
        const page = Number(new URLSearchParams(request.query).get("page") ?? "1")
        const users = Array.from({ length: 50 }, (_, index) => (page === 1 && index === 0 ? detail.user : summary((page - 1) * 50 + index + 1)))
        return answer({ users: users.slice(0, page === 3 ? 20 : 50), total: 120, page })
      }
    ],
    [`GET /api/admin/users/${ID}`, () => answer(detail)],
    [
      `PATCH /api/admin/users/${ID}`,
      (request) => {
        const change = request.body as { role?: "user" | "admin"; disabled?: boolean }
        if (change.role === "user") return refuse(409, "LAST_ADMIN", "This is the last active admin: make another account an admin first.")
        detail = detailOf({ ...detail.user, ...(change.disabled !== undefined ? { disabled: change.disabled } : {}), ...(change.role ? { role: change.role } : {}) }, extra)
        return answer(detail)
      }
    ],
    [`PUT /api/admin/users/${ID}/request-limit`, (request) => answer({ id: ID, email: first.email, plan: "enterprise", requestLimit: (request.body as { limit: number }).limit, appliesToPlan: true })],
    [`GET /api/admin/organizations/${ORG}`, () => answer({ id: ORG, name: "Acme", subscriber: { id: ID, email: first.email }, pool: { limit: null, used: 7 }, members: [] })],
    [`PUT /api/admin/organizations/${ORG}/request-limit`, () => answer({ id: ORG, name: "Acme", subscriber: { id: ID, email: first.email }, pool: { limit: 900, used: 7 }, members: [] })],
    [`POST /api/admin/users/${ID}/end-sessions`, () => answer({ ended: 1 })]
  ])
  resetSiteForTest(server.fetch)
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(ME))
  render(<SiteApp router="memory" initialPath={path} />)
  return server
}

const lastQuery = (server: ReturnType<typeof openAt>) => new URLSearchParams(server.calls("GET /api/admin/users").at(-1)!.query)

/** Opens the confirmation of `trigger` and confirms it with `confirm`. */
async function confirmWith(trigger: string, confirm = trigger) {
  fireEvent.click(screen.getByRole("button", { name: trigger }))
  const dialog = await screen.findByRole("alertdialog")
  fireEvent.click(within(dialog).getByRole("button", { name: confirm }))
  return dialog
}

describe("/admin/users", () => {
  it("lists accounts with their plan, role and state, and sends the search, filters, order and page to the server", async () => {
    const server = openAt("/admin/users", summary(1, { name: "<b>Ada</b>", disabled: true, plan: "enterprise" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Users" })).toBeTruthy()
    const table = await screen.findByRole("table")
    // The name is text, never markup.
    expect(within(table).getByRole("link", { name: "<b>Ada</b>" }).getAttribute("href")).toBe(`/admin/users/${ID}`)
    expect(screen.getByText("120 accounts, page 1 of 3")).toBeTruthy()

    fireEvent.change(screen.getByRole("searchbox", { name: "Search by e-mail or name" }), { target: { value: "  ada " } })
    fireEvent.click(screen.getByRole("button", { name: "Search" }))
    await waitFor(() => expect(lastQuery(server).get("query")).toBe("ada"))
    fireEvent.change(screen.getByRole("combobox", { name: "Plan" }), { target: { value: "enterprise" } })
    fireEvent.change(screen.getByRole("combobox", { name: "Disabled" }), { target: { value: "true" } })
    fireEvent.change(screen.getByRole("combobox", { name: "Order" }), { target: { value: "lastSignIn" } })
    await waitFor(() => expect(Object.fromEntries(lastQuery(server))).toEqual({ query: "ada", plan: "enterprise", disabled: "true", sort: "lastSignIn" }))

    fireEvent.click(await screen.findByRole("button", { name: "Next" }))
    await waitFor(() => expect(lastQuery(server).get("page")).toBe("2"))
    expect(await screen.findByText("Page 2 of 3")).toBeTruthy()
  })
})

describe("/admin/users/:id", () => {
  it("shows the profile, subscription, usage and sessions, and disables the account after confirming", async () => {
    const server = openAt(`/admin/users/${ID}`)
    expect(await screen.findByRole("heading", { level: 1, name: "Person 1" })).toBeTruthy()
    expect(within(screen.getByRole("region", { name: "This month's usage" })).getByText("12")).toBeTruthy()
    expect(within(screen.getByRole("region", { name: "Sessions" })).getByText("Website")).toBeTruthy()
    expect(within(screen.getByRole("region", { name: "Organisation" })).getByText("Not a member of an organisation.")).toBeTruthy()

    await confirmWith("Disable account")
    await waitFor(() => expect(server.calls(`PATCH /api/admin/users/${ID}`).map((call) => call.body)).toEqual([{ disabled: true }]))
    expect(await screen.findByText("This account is disabled: it cannot sign in, and its API keys are refused.")).toBeTruthy()
    expect(screen.getByRole("button", { name: "Enable account" })).toBeTruthy()
    expect(screen.getByText("No live session: the account is signed out everywhere.")).toBeTruthy()
  })

  it("shows the last-admin refusal in plain words inside the confirmation", async () => {
    openAt(`/admin/users/${ID}`, summary(1, { role: "admin" }))
    await screen.findByRole("heading", { level: 1, name: "Person 1" })
    const dialog = await confirmWith("Remove admin role")
    expect(await within(dialog).findByText("This is the last active admin: make another account an admin first.")).toBeTruthy()
  })

  it("sets an Enterprise account's limit and its organisation's pool through their calls", async () => {
    const server = openAt(`/admin/users/${ID}`, summary(1, { plan: "enterprise" }), { organization: { id: ORG, name: "Acme", role: "owner" } })
    await screen.findByRole("heading", { level: 1, name: "Person 1" })
    fireEvent.change(screen.getByRole("textbox", { name: "Monthly request limit" }), { target: { value: "500" } })
    await confirmWith("Set limit: Monthly request limit", "Set limit")
    await waitFor(() => expect(server.calls(`PUT /api/admin/users/${ID}/request-limit`).map((call) => call.body)).toEqual([{ limit: 500 }]))

    fireEvent.change(await screen.findByRole("textbox", { name: "Organisation's monthly pool" }), { target: { value: "900" } })
    await confirmWith("Set limit: Organisation's monthly pool", "Set limit")
    await waitFor(() => expect(server.calls(`PUT /api/admin/organizations/${ORG}/request-limit`).map((call) => call.body)).toEqual([{ limit: 900 }]))
  })

  it("reads a limit as a whole number or nothing, and says what is wrong otherwise", () => {
    expect(readLimit(" 500 ")).toEqual({ limit: 500 })
    expect(readLimit("")).toEqual({ limit: null })
    for (const bad of ["0", "1.5", "-3", "lots", "10000001"]) expect(readLimit(bad)).toHaveProperty("problem")
  })
})
