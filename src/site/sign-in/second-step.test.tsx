/**
 * The login page's second step for an account with two-step sign-in: the code of the authenticator app, or a
 * recovery code, then on as after any sign-in; back to the password when the sign-in ended. Through the whole app,
 * the network the fake API of sign-in-test-kit.tsx.
 */
import { fireEvent, screen, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { useSession } from "~site-session/session-store"

import { answer, refuse } from "../fake-api-server"
import { fill, formWith, heading, member, openLogin, signInAnswer, submitLogin, signInPageTests } from "./sign-in-test-kit"

const pages = signInPageTests()
const stepForm = () => screen.findByRole("form", { name: "Two-step sign-in" })

describe("two-step sign-in on the login page", () => {
  it("asks for the app's code after the password, and signs in with it", async () => {
    pages.server.on("POST /api/auth/login", () => answer({ mfaRequired: true, mfaToken: "step-1", methods: ["totp", "recovery_code"] }))
    pages.server.on("POST /api/auth/mfa/verify", () => signInAnswer())
    await openLogin()
    submitLogin()
    const form = await stepForm()
    expect(form.textContent).toContain("Enter the 6-digit code from your authenticator app")
    expect(useSession.getState().status).toBe("loggedOut")
    // Not six digits: said, nothing sent.
    fill("6-digit code", "12345")
    fireEvent.click(within(form).getByRole("button", { name: "Verify" }))
    expect(within(form).getByRole("alert").textContent).toBe("Enter the 6-digit code from your authenticator app")
    expect(pages.server.calls("POST /api/auth/mfa/verify")).toEqual([])
    fill("6-digit code", "123 456")
    fireEvent.click(within(form).getByRole("button", { name: "Verify" }))
    await heading("Dashboard")
    expect(pages.server.calls("POST /api/auth/mfa/verify").map((request) => request.body)).toEqual([{ mfaToken: "step-1", code: "123456" }])
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: member })
  })

  it("takes a recovery code instead, and says a wrong code in the form", async () => {
    pages.server.on("POST /api/auth/login", () => answer({ mfaRequired: true, mfaToken: "step-2", methods: ["totp", "recovery_code"] }))
    let tries = 0
    pages.server.on("POST /api/auth/mfa/verify", () => (++tries === 1 ? refuse(401, "INVALID_CODE", "That code is not right. 4 tries left.", { remainingAttempts: 4 }) : signInAnswer()))
    await openLogin()
    submitLogin()
    const form = await stepForm()
    fireEvent.click(within(form).getByRole("button", { name: "Use a recovery code" }))
    fill("Recovery code", "ABCDE-23456")
    fireEvent.click(within(form).getByRole("button", { name: "Verify" }))
    expect((await within(form).findByRole("alert")).textContent).toBe("That code is not right. 4 tries left.")
    fireEvent.click(within(form).getByRole("button", { name: "Verify" }))
    await heading("Dashboard")
    expect(pages.server.calls("POST /api/auth/mfa/verify").map((request) => request.body)).toEqual([
      { mfaToken: "step-2", recoveryCode: "abcde23456" },
      { mfaToken: "step-2", recoveryCode: "abcde23456" }
    ])
  })

  it("goes back to the password when the sign-in ended", async () => {
    pages.server.on("POST /api/auth/login", () => answer({ mfaRequired: true, mfaToken: "step-3", methods: ["totp", "recovery_code"] }))
    pages.server.on("POST /api/auth/mfa/verify", () => refuse(401, "MFA_TOKEN_INVALID", "Too many wrong codes. Please sign in again."))
    await openLogin()
    submitLogin()
    const form = await stepForm()
    fill("6-digit code", "654321")
    fireEvent.click(within(form).getByRole("button", { name: "Verify" }))
    await screen.findByLabelText("Password")
    expect((await within(formWith("Password")).findByRole("alert")).textContent).toBe("Too many wrong codes. Please sign in again.")
    expect(useSession.getState().status).toBe("loggedOut")
  })
})
