/**
 * Component tests of the register page, rendered through the whole app. The network is the fake API
 * of sign-in-test-kit.tsx.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { describe, expect, it, vi } from "vitest"

import { useSession } from "~site-session/session-store"
import { createDefaultPasswordPolicy } from "~core/password-policy"

import { answer, refuse } from "../fake-api-server"
import {
  advance,
  FALLBACK_HINT,
  fill,
  findToast,
  formWith,
  heading,
  hintItems,
  policyAnswer,
  renderAt,
  settle,
  signIn,
  toastTexts,
  signInPageTests
} from "./sign-in-test-kit"

const pages = signInPageTests()

async function openRegister() {
  renderAt("/register")
  await heading("Create your account")
}

function fillRegistration({
  name = "Ada Lovelace",
  email = "ada@example.com",
  password = "Analytical#Engine1",
  confirm,
  terms = true
}: { name?: string; email?: string; password?: string; confirm?: string; terms?: boolean } = {}) {
  fill("Full name", name)
  fill("Email", email)
  fill("Password", password)
  fill("Confirm password", confirm ?? password)
  const checkbox = screen.getByRole("checkbox") as HTMLInputElement
  if (checkbox.checked !== terms) fireEvent.click(checkbox)
}

const registerAlert = () => within(formWith("Full name")).getByRole("alert").textContent

async function acceptTerms() {
  const dialog = await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })
  const accept = within(dialog).getByRole("button", { name: "Accept and continue" }) as HTMLButtonElement
  expect(accept.disabled).toBe(true)
  fireEvent.click(within(dialog).getByRole("checkbox"))
  expect(accept.disabled).toBe(false)
  fireEvent.click(accept)
}

describe("Register page", () => {
  it("checks the section-5 rules in order, and opens the terms modal only for a valid form", async () => {
    await openRegister()
    const submit = () => fireEvent.click(screen.getByRole("button", { name: "Create account" }))

    submit()
    expect(registerAlert()).toBe("Please fill in all fields")

    // Every later rule is broken too: the empty name is reported first.
    fillRegistration({ name: "  ", password: "short", confirm: "shorter", terms: false })
    submit()
    expect(registerAlert()).toBe("Please fill in all fields")

    fill("Full name", "Ada Lovelace")
    submit()
    expect(registerAlert()).toBe("Passwords do not match")

    fill("Confirm password", "short")
    submit()
    expect(registerAlert()).toBe("Password must be at least 8 characters long")

    fill("Password", "Analytical#Engine1")
    fill("Confirm password", "Analytical#Engine1")
    submit()
    // The terms checkbox is required; the refusal's wording is ours, so only its subject is checked.
    expect(registerAlert()).toMatch(/Terms of Service/)
    expect(screen.queryByRole("dialog")).toBeNull()

    fireEvent.click(screen.getByRole("checkbox"))
    submit()
    expect(await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })).toBeTruthy()
    expect(within(formWith("Full name")).queryByRole("alert", { hidden: true })).toBeNull()
    await settle()
    expect(pages.server.calls("POST /api/auth/register")).toHaveLength(0)
  })

  it("shows a live match indicator under the confirmation", async () => {
    await openRegister()
    expect(screen.queryByText(/Passwords match|Passwords do not match/)).toBeNull()
    fill("Password", "Analytical#Engine1")
    fill("Confirm password", "Analytical")
    expect(screen.getByText("✗ Passwords do not match")).toBeTruthy()
    fill("Confirm password", "Analytical#Engine1")
    expect(screen.getByText("✓ Passwords match")).toBeTruthy()
    expect(screen.queryByText("✗ Passwords do not match")).toBeNull()
    fill("Password", "Analytical#Engine2")
    expect(screen.getByText("✗ Passwords do not match")).toBeTruthy()
    fill("Confirm password", "")
    expect(screen.queryByText(/Passwords match|Passwords do not match/)).toBeNull()
  })

  it("toggles the confirmation's visibility with Ctrl+Shift+C", async () => {
    await openRegister()
    const password = screen.getByLabelText("Password") as HTMLInputElement
    const confirm = screen.getByLabelText("Confirm password") as HTMLInputElement
    expect(confirm.type).toBe("password")
    fireEvent.keyDown(window, { key: "C", ctrlKey: true, shiftKey: true })
    expect(confirm.type).toBe("text")
    expect(password.type).toBe("password")
    fireEvent.keyDown(window, { key: "C", ctrlKey: true, shiftKey: true })
    expect(confirm.type).toBe("password")
  })

  it("creates the account after the terms are accepted, then asks to check the e-mail, with resend", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await openRegister()
    fillRegistration({ name: "  Ada Lovelace ", email: " ada@example.com " })
    fireEvent.click(screen.getByRole("button", { name: "Create account" }))
    await acceptTerms()

    await heading("Check your email")
    expect(pages.server.calls("POST /api/auth/register").map((request) => request.body)).toEqual([
      { email: "ada@example.com", password: "Analytical#Engine1", name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true }
    ])
    expect(screen.getByText("ada@example.com", { selector: "strong" })).toBeTruthy()
    await findToast("Account created successfully!")
    // No session opens before the e-mail is verified.
    expect(useSession.getState().status).toBe("loggedOut")
    expect(screen.queryByRole("dialog")).toBeNull()

    // The resend box is there, and within 60 s it sends a new link.
    const box = screen.getByTestId("resend-verification")
    await advance(60_000)
    fireEvent.click(within(box).getByRole("button", { name: "Resend verification email" }))
    await within(box).findByText("Verification email sent to ada@example.com. Check your inbox.")
    expect(pages.server.calls("POST /api/auth/resend-verification").map((request) => request.body)).toEqual([{ email: "ada@example.com" }])
  })

  it("notices the verification made in another tab and offers to sign in", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await openRegister()
    fillRegistration()
    fireEvent.click(screen.getByRole("button", { name: "Create account" }))
    await acceptTerms()
    await heading("Check your email")

    // Not verified yet: the page keeps waiting, asking with the registration's token.
    await advance(60_000)
    await waitFor(() => expect(pages.server.calls("POST /api/auth/sync-verification").length).toBeGreaterThan(0))
    expect(pages.server.calls("POST /api/auth/sync-verification")[0]!.body).toEqual({ email: "ada@example.com", verificationToken: "check-1" })
    expect(screen.getByRole("heading", { level: 1, name: "Check your email" })).toBeTruthy()

    // The link was followed elsewhere; coming back to this tab shows it.
    pages.server.on("POST /api/auth/sync-verification", () => answer({ verified: true }))
    fireEvent.focus(window)
    await heading("Email verified")
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login")
  })

  it("closes the terms modal without creating the account when it is cancelled", async () => {
    await openRegister()
    fillRegistration()
    fireEvent.click(screen.getByRole("button", { name: "Create account" }))
    const dialog = await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    await settle()
    expect(pages.server.calls("POST /api/auth/register")).toHaveLength(0)
    expect(screen.getByRole("heading", { level: 1, name: "Create your account" })).toBeTruthy()
  })

  it("shows 409 in the form with a sign-in link, not as a toast", async () => {
    pages.server.on("POST /api/auth/register", () => refuse(409, "EMAIL_ALREADY_EXISTS", "An account with this email already exists"))
    await openRegister()
    fillRegistration()
    fireEvent.click(screen.getByRole("button", { name: "Create account" }))
    await acceptTerms()

    await waitFor(() => expect(within(formWith("Full name")).getByRole("alert").textContent).toContain("An account with this email address already exists."))
    await settle()
    expect(toastTexts()).toEqual([])
    const alert = within(formWith("Full name")).getByRole("alert")
    fireEvent.click(within(alert).getByRole("link", { name: /sign in/i }))
    await heading("Sign in")
  })

  it("builds the password hint from the server policy, marking a rule that is not required '(optional)'", async () => {
    const policy = createDefaultPasswordPolicy()
    policy.rules.minLength.value = 10
    policy.rules.requireUppercase.enabled = false
    policy.rules.requireSpecialChars.required = false
    pages.server.on("GET /api/password-policy/config", () => policyAnswer(policy))
    await openRegister()
    await waitFor(() =>
      expect(hintItems()).toEqual(["At least 10 characters", "One lowercase letter", "One number", "One special character (!@#$…) (optional)"])
    )
    expect(pages.server.calls("GET /api/password-policy/config")).toHaveLength(1)
  })

  it("shows the default policy's hint when the server sends it", async () => {
    await openRegister()
    await waitFor(() => expect(pages.server.calls("GET /api/password-policy/config")).toHaveLength(1))
    await settle()
    expect(hintItems()).toEqual(FALLBACK_HINT)
  })

  it("falls back to 8 characters, upper, lower, number and special when the policy cannot be fetched", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    pages.server.on("GET /api/password-policy/config", () => refuse(500, "INTERNAL_ERROR", "Boom"))
    await openRegister()
    await waitFor(() => expect(pages.server.calls("GET /api/password-policy/config")).toHaveLength(1))
    // The data layer retries once, after a second.
    await advance(1_000)
    await waitFor(() => expect(pages.server.calls("GET /api/password-policy/config")).toHaveLength(2))
    await settle()
    expect(hintItems()).toEqual(FALLBACK_HINT)
    expect(screen.queryByText("(optional)")).toBeNull()
  })

  it("sends a signed-in user to the dashboard", async () => {
    signIn()
    renderAt("/register")
    await heading("Dashboard")
  })
})
