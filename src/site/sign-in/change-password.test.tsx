/**
 * Component tests of the change password page, rendered through the whole app. The network is the fake API
 * of sign-in-test-kit.tsx.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { describe, expect, it, vi } from "vitest"

import { useSession } from "~site-session/session-store"

import { answer, refuse } from "../fake-api-server"
import {
  advance,
  fieldError,
  fill,
  formWith,
  heading,
  member,
  renderAt,
  settle,
  signIn,
  signInPageTests
} from "./sign-in-test-kit"

const pages = signInPageTests()

async function openChangePassword() {
  signIn()
  renderAt("/change-password")
  await heading("Change password")
  await screen.findByLabelText("Current password")
}

const submitChange = () => fireEvent.click(screen.getByRole("button", { name: "Change password" }))

describe("Change password page", () => {
  it("checks every rule of the section-5 table in order, on its field", async () => {
    await openChangePassword()
    const expectError = (label: string, message: string) => {
      submitChange()
      expect(fieldError(label)).toEqual({ invalid: true, message })
      for (const other of ["Current password", "New password", "Confirm new password"].filter((name) => name !== label)) {
        expect(fieldError(other).invalid).toBe(false)
      }
    }

    expectError("Current password", "Current password is required")
    fill("Current password", "OldPass1!")
    expectError("New password", "New password is required")
    fill("New password", "Ab1")
    expectError("New password", "Password must be at least 8 characters long")
    for (const weak of ["newpass1!", "NEWPASS1!", "NewPass!!"]) {
      fill("New password", weak)
      expectError("New password", "Password must contain at least one uppercase letter, one lowercase letter, and one number")
    }
    fill("New password", "OldPass1!")
    expectError("New password", "New password must be different from current password")
    fill("New password", "NewPass1!")
    expectError("Confirm new password", "Please confirm your new password")
    fill("Confirm new password", "NewPass2!")
    expectError("Confirm new password", "Passwords do not match")

    await settle()
    expect(pages.server.calls("POST /api/auth/change-password")).toHaveLength(0)
  })

  function fillValid() {
    fill("Current password", "OldPass1!")
    fill("New password", "NewPass1!")
    fill("Confirm new password", "NewPass1!")
  }

  it("marks the current password 'Current password is incorrect' on INVALID_CREDENTIALS", async () => {
    pages.server.on("POST /api/auth/change-password", () => refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect"))
    await openChangePassword()
    fillValid()
    submitChange()
    await waitFor(() => expect(fieldError("Current password")).toEqual({ invalid: true, message: "Current password is incorrect" }))
    expect(useSession.getState().status).toBe("loggedIn")
  })

  it("changes the password and goes to /dashboard after 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await openChangePassword()
    fillValid()
    submitChange()
    await screen.findByText("Your password has been changed. Taking you back to your dashboard…")
    const [request] = pages.server.calls("POST /api/auth/change-password")
    expect(request?.body).toEqual({ currentPassword: "OldPass1!", newPassword: "NewPass1!" })
    expect(request?.authorization).toBe("Bearer access-0")

    await advance(1_500)
    expect(screen.getByRole("heading", { level: 1, name: "Change password" })).toBeTruthy()
    await advance(500)
    await heading("Dashboard")
  })

  it("shows the policy's refusal as 'Password requirements not met: …'", async () => {
    pages.server.on("POST /api/auth/change-password", () =>
      refuse(400, "PASSWORD_RECENTLY_USED", "Password does not meet the policy", { details: ["Password must not be one of your last 5 passwords"] })
    )
    await openChangePassword()
    fillValid()
    submitChange()
    await waitFor(() =>
      expect(within(formWith("Current password")).getByRole("alert").textContent).toBe(
        "Password requirements not met: Password must not be one of your last 5 passwords"
      )
    )
  })

  it("clears the new-password fields on PASSWORD_UPDATE_FAILED", async () => {
    pages.server.on("POST /api/auth/change-password", () => refuse(500, "PASSWORD_UPDATE_FAILED", "The password could not be updated"))
    await openChangePassword()
    fillValid()
    submitChange()
    await waitFor(() => expect((screen.getByLabelText("New password") as HTMLInputElement).value).toBe(""))
    expect((screen.getByLabelText("Confirm new password") as HTMLInputElement).value).toBe("")
    expect((screen.getByLabelText("Current password") as HTMLInputElement).value).toBe("OldPass1!")
  })

  it("offers no form to an account without e-mail sign-in", async () => {
    pages.server.on("GET /api/auth/auth-status", () => answer({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] }))
    signIn({ ...member, provider: "google" })
    renderAt("/change-password")
    await heading("Change password")
    expect(await screen.findByRole("link", { name: "Back to dashboard" })).toBeTruthy()
    expect(screen.queryByLabelText("Current password")).toBeNull()
    expect(screen.queryByLabelText("New password")).toBeNull()
    expect(screen.queryByRole("button", { name: "Change password" })).toBeNull()
  })
})
