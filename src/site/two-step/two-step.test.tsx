/** The dashboard's Two-step sign-in card: set up with the password, the QR code and the key, the first code, the recovery codes shown once; then replaced or turned off. */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { teardownSession } from "~site-session/session-store"
import { SESSION_STORAGE_KEYS } from "~core/user"
import { FREE_SUBSCRIPTION } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { preloadDashboard } from "../pages.test-support"

const member = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const CODES = Array.from({ length: 10 }, (_, index) => `abcd${"abcdefghij"[index]}-2345${"abcdefghij"[index]}`)
let status = { totp: false, recoveryCodesLeft: 0, passkeys: 0 }

function createFakeServer() {
  return createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" } })],
    ["GET /api/billing/subscription", () => answer(FREE_SUBSCRIPTION)],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/auth/mfa", () => answer(status)],
    ["POST /api/auth/mfa/totp/setup", (request) => ((request.body as { currentPassword?: string }).currentPassword === "Blue-Harbor-42!" ? answer({ secret: "JBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/x", qrSvg: "<svg xmlns='http://www.w3.org/2000/svg'></svg>" }) : refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect"))],
    ["POST /api/auth/mfa/totp/enable", (request) => ((request.body as { code: string }).code === "123456" ? ((status = { totp: true, recoveryCodesLeft: 10, passkeys: 0 }), answer({ recoveryCodes: CODES })) : refuse(400, "INVALID_CODE", "That code is not the one your authenticator app shows now. Check the app and try again."))],
    ["POST /api/auth/mfa/totp/disable", () => ((status = { totp: false, recoveryCodesLeft: 0, passkeys: 0 }), answer({ totp: false }))],
    ["GET /api/password-policy/config", () => refuse(503, "SERVICE_UNAVAILABLE", "Unavailable.")]
  ])
}

let server: ReturnType<typeof createFakeServer>
const card = () => screen.findByRole("region", { name: "Two-step sign-in" })
const fill = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } })

beforeAll(preloadDashboard, 60_000)
beforeEach(() => {
  status = { totp: false, recoveryCodesLeft: 0, passkeys: 0 }
  server = createFakeServer()
  resetSiteForTest(server.fetch)
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(member))
  render(<SiteApp router="memory" initialPath="/dashboard" />)
})
afterEach(() => teardownSession())

describe("Two-step sign-in on the dashboard", () => {
  it("sets up an authenticator app, shows the recovery codes once, and turns it off with the password and a code", async () => {
    const section = await card()
    await within(section).findByText(/Two-step sign-in is off/)
    fill(section, "Current password", "wrong")
    fireEvent.click(within(section).getByRole("button", { name: "Set up two-step sign-in" }))
    expect((await within(section).findByRole("alert")).textContent).toBe("Current password is incorrect")
    fill(section, "Current password", "Blue-Harbor-42!")
    fireEvent.click(within(section).getByRole("button", { name: "Set up two-step sign-in" }))
    expect((await within(section).findByTestId("totp-secret")).textContent).toBe("JBSWY3DPEHPK3PXP")
    expect(within(section).getByRole("img", { name: "QR code for your authenticator app" }).getAttribute("src")).toMatch(/^data:image\/svg\+xml/)
    fill(section, "6-digit code from the app", "12345")
    fireEvent.click(within(section).getByRole("button", { name: "Turn on" }))
    expect(within(section).getByRole("alert").textContent).toBe("Enter the 6-digit code from your authenticator app")
    fill(section, "6-digit code from the app", "123 456")
    fireEvent.click(within(section).getByRole("button", { name: "Turn on" }))
    const codes = await within(section).findByTestId("recovery-codes")
    expect(within(codes).getAllByRole("listitem").map((item) => item.textContent)).toEqual(CODES)
    const download = within(codes).getByRole("link", { name: "Download as a text file" })
    expect(download.getAttribute("download")).toBe("image-query-ai-recovery-codes.txt")
    expect(decodeURIComponent(download.getAttribute("href")!)).toContain(CODES[9])
    fireEvent.click(within(codes).getByRole("button", { name: "I have saved them" }))
    await within(section).findByText(/Two-step sign-in is on.*10 of 10 recovery codes left/)

    fireEvent.click(within(section).getByRole("button", { name: "Turn off" }))
    const form = within(section).getByRole("form", { name: "Turn off two-step sign-in" })
    fill(form, "Current password", "Blue-Harbor-42!")
    fill(form, "6-digit code from the app", "654321")
    fireEvent.click(within(form).getByRole("button", { name: "Turn off two-step sign-in" }))
    await within(section).findByText(/Two-step sign-in is off/)
    await waitFor(() => expect(server.calls("POST /api/auth/mfa/totp/disable").map((request) => request.body)).toEqual([{ currentPassword: "Blue-Harbor-42!", code: "654321" }]))
  })
})
