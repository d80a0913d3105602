/**
 * Component tests of the login page's forgot-password dialog, rendered through the whole app. The network is the fake API
 * of sign-in-test-kit.tsx.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { refuse } from "../fake-api-server"
import {
  fill,
  findToast,
  formWith,
  openLogin,
  settle,
  signInPageTests
} from "./sign-in-test-kit"

const pages = signInPageTests()

describe("Login page", () => {
  describe("forgot-password dialog", () => {
    async function openDialog() {
      fireEvent.click(screen.getByRole("button", { name: "Forgot password?" }))
      return screen.findByRole("dialog", { name: "Reset your password" })
    }

    it("asks for the address: 'Please enter your email address'", async () => {
      await openLogin()
      const dialog = await openDialog()
      fireEvent.click(within(dialog).getByRole("button", { name: "Send reset link" }))
      expect(within(dialog).getByRole("alert").textContent).toBe("Please enter your email address")
      await settle()
      expect(pages.server.calls("POST /api/auth/forgot-password")).toHaveLength(0)
    })

    it("sends the reset e-mail: toast 'Password reset email sent successfully!' and closes", async () => {
      await openLogin()
      const dialog = await openDialog()
      fill("Email", "ada@example.com", dialog)
      fireEvent.click(within(dialog).getByRole("button", { name: "Send reset link" }))
      await findToast("Password reset email sent successfully!")
      expect(pages.server.calls("POST /api/auth/forgot-password").map((request) => request.body)).toEqual([{ email: "ada@example.com" }])
      await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    })

    it("sends only the reset e-mail: no sign-in attempt and no sign-in error", async () => {
      await openLogin()
      fill("Email", "ada@example.com")
      fill("Password", "Some-Password-1!")
      const dialog = await openDialog()
      fireEvent.click(within(dialog).getByRole("button", { name: "Send reset link" }))
      await findToast("Password reset email sent successfully!")
      await settle()
      expect(pages.server.calls("POST /api/auth/login")).toHaveLength(0)
      expect(within(formWith("Password")).queryByRole("alert")).toBeNull()
    })

    it("starts with the address typed in the sign-in form", async () => {
      await openLogin()
      fill("Email", "grace@example.com")
      const dialog = await openDialog()
      expect((within(dialog).getByLabelText("Email") as HTMLInputElement).value).toBe("grace@example.com")
    })

    it("says so when the reset e-mail cannot be sent", async () => {
      pages.server.on("POST /api/auth/forgot-password", () => refuse(500, "INTERNAL_ERROR", "Boom"))
      await openLogin()
      const dialog = await openDialog()
      fill("Email", "ada@example.com", dialog)
      fireEvent.click(within(dialog).getByRole("button", { name: "Send reset link" }))
      expect((await within(dialog).findByRole("alert")).textContent).toBe("Failed to send password reset email. Please try again.")
    })
  })
})
