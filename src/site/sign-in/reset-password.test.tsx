/**
 * Component tests of the reset password page (the e-mailed link), rendered through the whole app. The network is the fake API
 * of sign-in-test-kit.tsx.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { describe, expect, it, vi } from "vitest"

import { refuse } from "../fake-api-server"
import {
  advance,
  fill,
  findToast,
  formWith,
  heading,
  renderAt,
  settle,
  signInPageTests
} from "./sign-in-test-kit"

const pages = signInPageTests()

const INVALID_RESET_LINK = "Invalid password reset link. Please request a new password reset."
const RESET_PATH = "/reset-password?mode=resetPassword&oobCode=reset-1&apiKey=key&lang=en"

function submitReset(password: string, confirm = password) {
  fill("New password", password)
  fill("Confirm new password", confirm)
  fireEvent.click(screen.getByRole("button", { name: "Reset password" }))
}

describe("Reset password page", () => {
  it.each(["/reset-password", "/reset-password?mode=resetPassword", "/reset-password?oobCode=abc", "/reset-password?mode=verifyEmail&oobCode=abc"])(
    "refuses a link without mode=resetPassword and an oobCode: %s",
    async (path) => {
      renderAt(path)
      await heading("Reset your password")
      expect(screen.getByText(INVALID_RESET_LINK)).toBeTruthy()
      expect(screen.queryByLabelText("New password")).toBeNull()
    }
  )

  it("checks that the passwords match and have at least 8 characters, and sends nothing", async () => {
    renderAt(RESET_PATH)
    await heading("Reset your password")
    submitReset("Analytical#Engine1", "Analytical#Engine2")
    expect(within(formWith("New password")).getByRole("alert").textContent).toBe("Passwords do not match")
    submitReset("Ab#1", "Ab#1")
    expect(within(formWith("New password")).getByRole("alert").textContent).toBe("Password must be at least 8 characters long")
    await settle()
    expect(pages.server.calls("POST /api/auth/reset-password")).toHaveLength(0)
  })

  it("resets the password, says so, and goes to /login after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderAt(RESET_PATH)
    await heading("Reset your password")
    submitReset("Analytical#Engine1")
    await heading("Password reset")
    await findToast("Password reset successfully!")
    expect(pages.server.calls("POST /api/auth/reset-password").map((request) => request.body)).toEqual([
      { oobCode: "reset-1", newPassword: "Analytical#Engine1" }
    ])

    await advance(2_000)
    expect(screen.getByRole("heading", { level: 1, name: "Password reset" })).toBeTruthy()
    await advance(1_000)
    await heading("Sign in")
  })

  it("shows the policy's refusal as 'Password requirements not met: …'", async () => {
    pages.server.on("POST /api/auth/reset-password", () =>
      refuse(400, "PASSWORD_NO_SPECIAL_CHAR", "Password does not meet the policy", {
        details: ["Password must contain at least one special character", "This password is too common. Please choose a less common password"]
      })
    )
    renderAt(RESET_PATH)
    await heading("Reset your password")
    submitReset("password1")
    const expected =
      "Password requirements not met: Password must contain at least one special character, This password is too common. Please choose a less common password"
    await waitFor(() => expect(within(formWith("New password")).getByRole("alert").textContent).toBe(expected))
    await findToast(expected)
    expect(screen.getByRole("heading", { level: 1, name: "Reset your password" })).toBeTruthy()
  })

  it("shows the invalid-link message when the server says the code is used or expired", async () => {
    pages.server.on("POST /api/auth/reset-password", () => refuse(400, "INVALID_OR_EXPIRED_CODE", "This link is invalid or has expired"))
    renderAt(RESET_PATH)
    await heading("Reset your password")
    submitReset("Analytical#Engine1")
    await waitFor(() => expect(within(formWith("New password")).getByRole("alert").textContent).toBe(INVALID_RESET_LINK))
  })
})
