// @vitest-environment node
import { describe, expect, it } from "vitest"

import { googleErrorView, loginErrorView, passwordRequirementsMessage, POPUP_BLOCKED_MESSAGE, registerErrorView, resendErrorView } from "./error-messages"

describe("login errors", () => {
  it.each([
    [{ code: "EMAIL_NOT_VERIFIED", status: 403 }, "Please verify your email before signing in. Check your inbox for a verification link.", "toast"],
    [{ code: "ACCOUNT_LOCKED", status: 423, retryAfter: 900 }, "Account temporarily locked. Please try again in 15 minutes or reset your password.", "form"],
    [{ code: "ACCOUNT_LOCKED", status: 423, retryAfter: 61 }, "Account temporarily locked. Please try again in 2 minutes or reset your password.", "form"],
    [{ code: "PROGRESSIVE_DELAY", status: 429, retryAfter: 4 }, "Please wait 4 seconds before trying again.", "form"],
    [{ code: "INVALID_CREDENTIALS", status: 401, remainingAttempts: 4, nextAttemptDelay: 0 }, "Invalid email or password. 4 login attempts remaining.", "form"],
    [
      { code: "INVALID_CREDENTIALS", status: 401, remainingAttempts: 2, nextAttemptDelay: 4 },
      "Invalid email or password. 2 login attempts remaining. Please wait 4 seconds before trying again.",
      "form"
    ],
    [{ code: "INVALID_CREDENTIALS", status: 401, remainingAttempts: 0 }, "Invalid email or password. Account temporarily locked.", "form"],
    [{ code: "RATE_LIMIT_EXCEEDED", status: 429 }, "Too many login attempts from this IP. Please try again later.", "toast"],
    [{ code: "ACCOUNT_DISABLED", status: 403, message: "x" }, "This account has been disabled. Contact support if you think this is a mistake.", "form"],
    [{ code: "UNAUTHORIZED", status: 401 }, "Invalid email or password. Please try again.", "toast"],
    [{ code: "NETWORK_ERROR", status: 0 }, "Connection error. Please check your internet connection and try again.", "toast"],
    [{ status: 500, message: "Connection error while talking to the database" }, "Connection error. Please check your internet connection and try again.", "toast"],
    [{ status: 429, message: "Too many requests" }, "Too many requests. Please wait a moment before trying again.", "toast"],
    [{ status: 500, message: "Server exploded" }, "Server exploded", "toast"],
    [{ status: 500 }, "Login failed. Please check your credentials and try again.", "toast"]
  ])("%o shows %s", (error, message, where) => {
    expect(loginErrorView(error)).toMatchObject({ message, where })
  })

  it("offers the resend box for an unverified e-mail and the reset link for a lock", () => {
    expect(loginErrorView({ code: "EMAIL_NOT_VERIFIED" }).showResendVerification).toBe(true)
    expect(loginErrorView({ code: "ACCOUNT_LOCKED", retryAfter: 60 }).showResetLink).toBe(true)
  })
})

describe("registration errors", () => {
  it.each([
    [{ status: 409, code: "EMAIL_ALREADY_EXISTS", message: "x" }, "An account with this email address already exists."],
    [{ status: 400, message: "An account already exists" }, "An account with this email address already exists."],
    [{ status: 429 }, "Too many registration attempts. Please wait a moment before trying again."],
    [{ status: 400, message: "Validation failed" }, "Validation failed"],
    [{ status: 400 }, "Please check your information and try again."],
    [{ status: 400, code: "PASSWORD_TOO_SHORT", message: "Password requirements not met", details: ["a", "b"] }, "Password requirements not met: a, b"],
    [{ status: 503 }, "Registration failed. Please try again."]
  ])("%o shows %s", (error, message) => {
    expect(registerErrorView(error).message).toBe(message)
  })
})

describe("resend errors", () => {
  it("starts the cooldown from retryAfter, 60 s by default", () => {
    expect(resendErrorView({ status: 429, retryAfter: 42 })).toEqual({ message: "Too many attempts. Please wait 42 seconds before trying again.", cooldownSeconds: 42 })
    expect(resendErrorView({ status: 400, message: "Too many attempts here" })).toEqual({
      message: "Too many attempts. Please wait 60 seconds before trying again.",
      cooldownSeconds: 60
    })
  })
})

describe("password requirement details", () => {
  it("joins the details list", () => {
    expect(passwordRequirementsMessage({ details: ["Too short", "No digit"] }, "x")).toBe("Password requirements not met: Too short, No digit")
    expect(passwordRequirementsMessage({}, "Failed to reset password. Please try again.")).toBe("Failed to reset password. Please try again.")
  })
})

describe("Google sign-in errors", () => {
  it.each([
    [{ code: "auth/popup-closed-by-user" }, null],
    [{ code: "auth/cancelled-popup-request" }, null],
    [{ code: "TERMS_NOT_ACCEPTED", status: 403 }, null],
    [{ code: "auth/popup-blocked" }, POPUP_BLOCKED_MESSAGE],
    [{ code: "auth/network-request-failed" }, "Connection error. Please check your internet connection and try again."],
    [{ code: "auth/too-many-requests" }, "Too many requests. Please wait a moment before trying again."],
    [{ code: "auth/unauthorized-domain" }, "Google login failed. Please try again."],
    [{ code: "EMAIL_NOT_VERIFIED", status: 403 }, "Email not verified. Please verify your email before signing in."],
    [{ code: "RATE_LIMIT_EXCEEDED", status: 429 }, "Too many authentication attempts. Please try again later."],
    [{ code: "GOOGLE_NOT_CONFIGURED", status: 503 }, "Google sign-in is not configured on this server."],
    [{ code: "ACCOUNT_DISABLED", status: 403 }, "This account has been disabled. Contact support if you think this is a mistake."],
    [{ code: "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL", status: 409, message: "Sign in with your password." }, "Sign in with your password."],
    [{ code: "NETWORK_ERROR", status: 0 }, "Connection error. Please check your internet connection and try again."],
    [{ status: 429, message: "Too many requests" }, "Too many requests. Please wait a moment before trying again."],
    // "The same 401 handling" as the e-mail sign-in (spec section 8), text included.
    [{ code: "INVALID_TOKEN", status: 401, message: "Invalid token" }, "Invalid email or password. Please try again."],
    [{ status: 500, message: "Server exploded" }, "Google login failed. Please try again."]
  ])("login: %o shows %s", (error, message) => {
    expect(googleErrorView(error, "login")).toEqual(message === null ? null : { message })
  })

  it("names the flow that failed", () => {
    expect(googleErrorView({ status: 500 }, "register")).toEqual({ message: "Google registration failed. Please try again." })
    expect(googleErrorView({ code: "auth/internal-error" }, "register")).toEqual({ message: "Google registration failed. Please try again." })
    expect(googleErrorView({ status: 500 }, "acceptTerms")).toEqual({ message: "Failed to accept terms. Please try again." })
    expect(googleErrorView({ status: 401, code: "INVALID_TOKEN" }, "register")).toEqual({ message: "Invalid email or password. Please try again." })
    expect(googleErrorView({ status: 401, code: "INVALID_TOKEN" }, "acceptTerms")).toEqual({ message: "Failed to accept terms. Please try again." })
    expect(googleErrorView({ status: 409, code: "CONFLICT", message: "This Google account is linked to another user." }, "link")).toEqual({
      message: "This Google account is linked to another user."
    })
  })
})
