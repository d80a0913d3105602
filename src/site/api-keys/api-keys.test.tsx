/**
 * The dashboard's API keys card, through the whole app with a fake API: a Free account is offered the upgrade and
 * asks for no keys; a Pro account creates a key with its password, sees it once with a curl call on this origin,
 * and revokes a key after confirming.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import type { ApiKeySummary } from "~core/api-keys"
import { teardownSession } from "~site-session/session-store"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { FREE_SUBSCRIPTION, PERIOD_END } from "../billing/subscriptions.test-support"
import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api"
import { SiteApp } from "../SiteApp"

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const PASSWORD = "Blue-Harbor-42!"
const KEY = `iqa_${"A1b2C3d4".repeat(5)}xyz`
const PRO = { ...FREE_SUBSCRIPTION, plan: "pro" as const, interval: "month" as const, currentPeriodEnd: PERIOD_END, trialAvailable: false }

function fakeServer(subscription: typeof FREE_SUBSCRIPTION) {
  const keys: ApiKeySummary[] = [{ id: "key-1", name: "nightly", prefix: "iqa_Zz9Yy8Xx", createdAt: "2030-01-02T00:00:00.000Z", lastUsedAt: null }]
  return createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" } })],
    ["GET /api/billing/subscription", () => answer(subscription)],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/keys", () => answer(keys)],
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

async function openDashboard(subscription: typeof FREE_SUBSCRIPTION) {
  server = fakeServer(subscription)
  resetSiteForTest(server.fetch)
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(member))
  render(<SiteApp router="memory" initialPath="/dashboard" />)
  await screen.findByRole("heading", { level: 1, name: "Dashboard" })
  return screen.getByRole("region", { name: "API keys" })
}

afterEach(() => teardownSession())

describe("the dashboard's API keys", () => {
  it("offers a Free account the upgrade, and asks the server for no keys", async () => {
    const card = await openDashboard(FREE_SUBSCRIPTION)
    expect(within(card).getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("/pricing")
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.calls("GET /api/keys")).toEqual([])
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
    expect(within(card).getByText(`curl -H "Authorization: Bearer ${KEY}" ${window.location.origin}/api/v1/usage`)).toBeTruthy()
    await within(card).findByText("ci")
    fireEvent.click(within(card).getByRole("button", { name: "I have copied it" }))
    await waitFor(() => expect(within(card).queryByTestId("new-api-key")).toBeNull())

    fireEvent.click(within(card).getByRole("button", { name: "Revoke nightly" }))
    const dialog = await screen.findByRole("alertdialog")
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke key" }))
    await waitFor(() => expect(within(card).queryByText("nightly")).toBeNull())
    expect(server.calls("DELETE /api/keys/key-1")).toHaveLength(1)
  })
})
