/**
 * Signing in with the organisation's identity provider on the site: *Sign in with SSO* on /login asks the work address
 * and sends the browser to the provider; /login/sso exchanges the one-time code of its fragment for the session (or
 * the second step), and says in words why a sign-in did not finish. Through the whole app, the network the fake API.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { describe, expect, it, vi } from "vitest"

import { SSO_FAILURES } from "~core/organization-sso"
import { WEBSITE_AUTH_LOGIN } from "~core/extension-messages"
import { configureExtensionNotifier } from "~site-session/extension-notifier"
import { useSession } from "~site-session/session-store"

import { answer, refuse } from "../fake-api-server"
import { fill, heading, member, openLogin, renderAt, signInAnswer, signInPageTests } from "./sign-in-test-kit"
import { SSO_RETURN_KEY } from "./SsoSignInButton"

const pages = signInPageTests()
const ssoForm = () => screen.findByRole("form", { name: "Sign in with SSO" })

/** Opens /login/sso as the callback's redirect does, with `fragment`. */
function arriveWith(fragment: string) {
  window.history.replaceState(null, "", `/login/sso#${fragment}`)
  renderAt("/login/sso")
}

describe("Sign in with SSO on /login", () => {
  it("asks the work address, the one typed in the form first, and sends the browser to the provider", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {})
    pages.server.on("POST /api/auth/sso/start", () => answer({ redirectUrl: "https://login.acme.example/authorize?state=s" }))
    await openLogin()
    fill("Email", "ada@acme.example")
    fireEvent.click(screen.getByRole("button", { name: "Sign in with SSO" }))
    const form = await ssoForm()
    expect(within(form).getByLabelText<HTMLInputElement>("Work e-mail").value).toBe("ada@acme.example")
    fireEvent.click(within(form).getByRole("button", { name: "Continue with SSO" }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://login.acme.example/authorize?state=s"))
    expect(pages.server.calls("POST /api/auth/sso/start").map((request) => request.body)).toEqual([{ email: "ada@acme.example" }])
    expect(JSON.parse(sessionStorage.getItem(SSO_RETURN_KEY)!)).toEqual({ next: "/dashboard", fromExtension: false })
  })

  it("says when the address's organisation has no single sign-on, and checks the address first", async () => {
    pages.server.on("POST /api/auth/sso/start", () => refuse(404, "SSO_NOT_CONFIGURED", "Single sign-on is not set up for example.com. Sign in with your password or with Google."))
    await openLogin()
    fireEvent.click(screen.getByRole("button", { name: "Sign in with SSO" }))
    const form = await ssoForm()
    fireEvent.click(within(form).getByRole("button", { name: "Continue with SSO" }))
    expect((await within(form).findByRole("alert")).textContent).toBe("Enter your work e-mail address.")
    expect(pages.server.calls("POST /api/auth/sso/start")).toEqual([])
    fill("Work e-mail", "ada@example.com", form)
    fireEvent.click(within(form).getByRole("button", { name: "Continue with SSO" }))
    await waitFor(() => expect(within(form).getByRole("alert").textContent).toContain("Single sign-on is not set up for example.com"))
  })

  it("shows SSO_REQUIRED from password sign-in in the form", async () => {
    pages.server.on("POST /api/auth/login", () => refuse(403, "SSO_REQUIRED", 'Acme signs you in through its identity provider. Choose "Sign in with SSO" and enter your work e-mail address.'))
    await openLogin()
    fill("Email", "ada@acme.example")
    fill("Password", "Correct#Horse9")
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    expect(await screen.findByText(/Acme signs you in through its identity provider/)).toBeTruthy()
  })
})

describe("/login/sso", () => {
  it("exchanges the code once for the session and goes on to the dashboard, clearing the fragment; the extension follows", async () => {
    const toExtension: unknown[] = []
    configureExtensionNotifier({ transport: (message) => void toExtension.push(message) })
    pages.server.on("POST /api/auth/sso/complete", () => signInAnswer())
    arriveWith("code=one-time-code")
    await heading("Dashboard")
    // The extension's session follows the site's, as after a password.
    expect(toExtension).toContainEqual(expect.objectContaining({ type: WEBSITE_AUTH_LOGIN, payload: expect.objectContaining({ tokens: expect.objectContaining({ authToken: "access-1" }) }) }))
    configureExtensionNotifier({})
    expect(pages.server.calls("POST /api/auth/sso/complete").map((request) => request.body)).toEqual([{ code: "one-time-code" }])
    expect(window.location.hash).toBe("")
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: member })
  })

  it("asks for the second step of an account that has one", async () => {
    pages.server.on("POST /api/auth/sso/complete", () => answer({ mfaRequired: true, mfaToken: "step-1", methods: ["totp", "recovery_code"] }))
    pages.server.on("POST /api/auth/mfa/verify", () => signInAnswer())
    arriveWith("code=one-time-code")
    const form = await screen.findByRole("form", { name: "Two-step sign-in" })
    fill("6-digit code", "123456", form)
    fireEvent.click(within(form).getByRole("button", { name: "Verify" }))
    await heading("Dashboard")
  })

  it("says why a sign-in did not finish, and an expired code, with the way back", async () => {
    arriveWith("error=wrongDomain")
    expect(await screen.findByText(SSO_FAILURES.wrongDomain)).toBeTruthy()
    expect(screen.getByRole("link", { name: "Back to sign in" }).getAttribute("href")).toBe("/login")
  })

  it("says so when the code was used or ran out", async () => {
    pages.server.on("POST /api/auth/sso/complete", () => refuse(400, "INVALID_OR_EXPIRED_CODE", "This sign-in link has expired or was used already. Start again with Sign in with SSO."))
    arriveWith("code=spent")
    expect(await screen.findByText(/has expired or was used already/)).toBeTruthy()
    expect(useSession.getState().status).not.toBe("loggedIn")
  })
})
