// @vitest-environment node
import { describe, expect, it } from "vitest"

import { emailLinkRedirect } from "./email-link-redirect"

describe("e-mail link redirects of the landing page", () => {
  it("sends a verification link to /verify-email keeping mode, oobCode, apiKey and lang only", () => {
    expect(emailLinkRedirect("?mode=verifyEmail&oobCode=abc&apiKey=key1&lang=en&utm_source=mail")).toBe(
      "/verify-email?mode=verifyEmail&oobCode=abc&apiKey=key1&lang=en"
    )
  })

  it("sends a reset link to /reset-password keeping apiKey and lang only when present", () => {
    expect(emailLinkRedirect("?mode=resetPassword&oobCode=r%2Fs")).toBe("/reset-password?mode=resetPassword&oobCode=r%2Fs")
    expect(emailLinkRedirect("?mode=resetPassword&oobCode=x&lang=en&continueUrl=https://evil.example")).toBe(
      "/reset-password?mode=resetPassword&oobCode=x&lang=en"
    )
  })

  it.each(["", "?mode=verifyEmail", "?mode=verifyEmail&oobCode=", "?mode=other&oobCode=abc", "?oobCode=abc"])(
    "leaves %s on the landing page",
    (search) => {
      expect(emailLinkRedirect(search)).toBeNull()
    }
  )
})
