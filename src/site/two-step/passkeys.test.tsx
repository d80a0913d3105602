/**
 * The dashboard's Passkeys card against a fake API: the list in words, a passkey removed with the password, and a
 * browser without WebAuthn (happy-dom has none) told so instead of offered a button that cannot work. Adding one and
 * signing in with it go through Chromium's virtual authenticator in tests/e2e/passkey-sign-in.test.ts.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { SESSION_STORAGE_KEYS } from "~core/user"
import { teardownSession } from "~site-session/session-store"
import { FREE_SUBSCRIPTION } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { preloadDashboard } from "../pages.test-support"

const member = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const LAPTOP = { id: "7d9f4c1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f", name: "Laptop", createdAt: "2026-11-20T10:00:00.000Z", lastUsedAt: "2026-11-27T08:30:00.000Z" }
const KEY = { id: "1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b", name: "<b>Key</b>", createdAt: "2026-11-21T10:00:00.000Z", lastUsedAt: null }
let passkeys = [LAPTOP, KEY]

function createFakeServer() {
  return createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" } })],
    ["GET /api/billing/subscription", () => answer(FREE_SUBSCRIPTION)],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/auth/mfa", () => answer({ totp: false, recoveryCodesLeft: 0, passkeys: passkeys.length })],
    ["GET /api/auth/passkeys", () => answer({ passkeys })],
    [
      "DELETE /api/auth/passkeys/7d9f4c1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f",
      (request) =>
        (request.body as { currentPassword?: string }).currentPassword === "Blue-Harbor-42!"
          ? ((passkeys = passkeys.filter((passkey) => passkey !== LAPTOP)), answer({ removed: true }))
          : refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect")
    ],
    ["GET /api/password-policy/config", () => refuse(503, "SERVICE_UNAVAILABLE", "Unavailable.")]
  ])
}

let server: ReturnType<typeof createFakeServer>
const card = () => screen.findByRole("region", { name: "Passkeys" })

beforeAll(preloadDashboard, 60_000)
beforeEach(() => {
  passkeys = [LAPTOP, KEY]
  server = createFakeServer()
  resetSiteForTest(server.fetch)
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(member))
  render(<SiteApp router="memory" initialPath="/dashboard" />)
})
afterEach(() => teardownSession())

describe("Passkeys on the dashboard", () => {
  it("lists the passkeys in words, names rendered as text, and removes one with the password", async () => {
    const section = await card()
    const list = await within(section).findByRole("list", { name: "Your passkeys" })
    expect(within(list).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "LaptopAdded 20 November 2026 · last used 27 November 2026Remove",
      "<b>Key</b>Added 21 November 2026 · not used yetRemove"
    ])
    fireEvent.click(within(section).getByRole("button", { name: "Remove passkey Laptop" }))
    const form = within(section).getByRole("form", { name: "Remove passkey Laptop" })
    fireEvent.click(within(form).getByRole("button", { name: "Remove passkey" }))
    expect(within(form).getByRole("alert").textContent).toBe("Enter your current password")
    fireEvent.change(within(form).getByLabelText("Current password"), { target: { value: "wrong" } })
    fireEvent.click(within(form).getByRole("button", { name: "Remove passkey" }))
    expect((await within(form).findByRole("alert")).textContent).toBe("Current password is incorrect")
    fireEvent.change(within(form).getByLabelText("Current password"), { target: { value: "Blue-Harbor-42!" } })
    fireEvent.click(within(form).getByRole("button", { name: "Remove passkey" }))
    await within(section).findByText("Passkey 'Laptop' removed.")
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1))
  })

  it("says that a browser without passkeys cannot create one, instead of offering the button", async () => {
    const section = await card()
    await within(section).findByRole("list", { name: "Your passkeys" })
    expect(within(section).getByRole("status").textContent).toBe("This browser cannot create passkeys. Use a recent Chrome, Edge, Firefox or Safari.")
    expect(within(section).queryByRole("button", { name: "Add a passkey" })).toBeNull()
  })
})
