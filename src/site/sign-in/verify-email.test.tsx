/**
 * Component tests of the e-mail verification page, rendered through the whole app. The network is the fake API
 * of sign-in-test-kit.tsx.
 */
import { fireEvent, screen } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { answer, refuse } from "../fake-api-server"
import { deferred, heading, renderAt, settle, signInPageTests } from "./sign-in-test-kit"

const pages = signInPageTests()

const INVALID_VERIFICATION_LINK = "This verification link is invalid or has expired."

describe("Email verification page", () => {
  it.each(["/verify-email", "/verify-email?mode=verifyEmail", "/verify-email?oobCode=abc", "/verify-email?mode=resetPassword&oobCode=abc"])(
    "shows the invalid-link state for %s without calling the server",
    async (path) => {
      renderAt(path)
      await heading("Verify your email")
      expect(await screen.findByText(INVALID_VERIFICATION_LINK)).toBeTruthy()
      await settle()
      expect(pages.server.calls("POST /api/auth/verify-email")).toHaveLength(0)
    }
  )

  it("shows a spinner while verifying, then the verified e-mail and 'Continue to sign in'", async () => {
    const pending = deferred()
    pages.server.on("POST /api/auth/verify-email", () => pending.promise)
    renderAt("/verify-email?mode=verifyEmail&oobCode=code-1&apiKey=key&lang=en")
    await heading("Verify your email")
    expect(await screen.findByText("Verifying your email")).toBeTruthy()

    pending.release(answer({ email: "ada@example.com", verified: true }))
    expect(await screen.findByText("ada@example.com", { selector: "strong" })).toBeTruthy()
    expect(pages.server.calls("POST /api/auth/verify-email").map((request) => request.body)).toEqual([{ oobCode: "code-1" }])
    fireEvent.click(screen.getByRole("link", { name: "Continue to sign in" }))
    await heading("Sign in")
  })

  it("remembers the outcome per code in localStorage, so a second visit does not spend the code again", async () => {
    const first = renderAt("/verify-email?mode=verifyEmail&oobCode=code-2")
    await screen.findByText("ada@example.com", { selector: "strong" })
    expect(Object.values({ ...window.localStorage }).some((value) => String(value).includes("ada@example.com"))).toBe(true)
    first.unmount()

    renderAt("/verify-email?mode=verifyEmail&oobCode=code-2")
    expect(await screen.findByText("ada@example.com", { selector: "strong" })).toBeTruthy()
    expect(screen.getByRole("link", { name: "Continue to sign in" })).toBeTruthy()
    await settle()
    expect(pages.server.calls("POST /api/auth/verify-email")).toHaveLength(1)
  })

  it("shows the invalid state for INVALID_OR_EXPIRED_CODE, and remembers it", async () => {
    pages.server.on("POST /api/auth/verify-email", () => refuse(400, "INVALID_OR_EXPIRED_CODE", "This link is invalid or has expired"))
    const first = renderAt("/verify-email?mode=verifyEmail&oobCode=used-code")
    expect(await screen.findByText(INVALID_VERIFICATION_LINK)).toBeTruthy()
    first.unmount()
    renderAt("/verify-email?mode=verifyEmail&oobCode=used-code")
    expect(await screen.findByText(INVALID_VERIFICATION_LINK)).toBeTruthy()
    await settle()
    expect(pages.server.calls("POST /api/auth/verify-email")).toHaveLength(1)
  })

  it("shows 'Email verification failed' for other failures", async () => {
    pages.server.on("POST /api/auth/verify-email", () => refuse(500, "INTERNAL_ERROR", "Something broke"))
    renderAt("/verify-email?mode=verifyEmail&oobCode=code-3")
    expect(await screen.findByText("Email verification failed")).toBeTruthy()
    expect(screen.queryByText(INVALID_VERIFICATION_LINK)).toBeNull()
  })
})
