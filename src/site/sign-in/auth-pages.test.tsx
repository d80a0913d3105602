/**
 * Component tests of the sign-in, sign-up and password pages, rendered through the whole app. The only
 * test double is the network: an in-memory fake of the API behind `configureApi({ fetch })`, answering in
 * the server's wrapper as README's API table describes.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { teardownSession, useSession } from "~site-session/session-store"
import { createDefaultPasswordPolicy, type PasswordPolicyConfig } from "~core/password-policy"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { answer, createFakeApi, refuse, resetSiteForTest, type Answer } from "../fake-api"
import { SiteApp } from "../SiteApp"

// ---------------------------------------------------------------------------------------------------------------
// The fake API server
// ---------------------------------------------------------------------------------------------------------------

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }

const policyAnswer = (config: PasswordPolicyConfig): Answer =>
  answer({ config: { rules: config.rules, customRules: config.customRules, strictMode: config.strictMode } })

const signInAnswer = (): Answer =>
  answer({ user: member, token: "access-1", refreshToken: "refresh-1", expiresAt: "2030-01-01T13:00:00.000Z" })

function createFakeServer() {
  return createFakeApi([
    ["POST /api/auth/login", () => signInAnswer()],
    ["POST /api/auth/refresh", () => answer({ token: "access-2", refreshToken: "refresh-2", expiresAt: "2030-01-01T14:00:00.000Z" })],
    ["POST /api/auth/logout", () => answer({ loggedOut: true })],
    ["GET /api/auth/profile", () => answer({ user: accountUser })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/password-policy/config", () => policyAnswer(createDefaultPasswordPolicy())],
    ["POST /api/auth/resend-verification", () => answer({ sent: true, message: "If the account exists, a verification email was sent." })],
    ["POST /api/auth/forgot-password", () => answer({ sent: true, message: "If the account exists, a reset email was sent." })],
    [
      "POST /api/auth/register",
      (request) => {
        const { email, name } = request.body as { email: string; name: string }
        return answer(
          { user: { ...accountUser, email, name, emailVerified: false }, token: null, refreshToken: null, verificationRequired: true, verificationToken: "check-1" },
          201
        )
      }
    ],
    ["POST /api/auth/verify-email", () => answer({ email: "ada@example.com", verified: true })],
    ["POST /api/auth/sync-verification", () => answer({ verified: false })],
    ["POST /api/auth/reset-password", () => answer({ reset: true })],
    ["POST /api/auth/change-password", () => answer({ changed: true })]
  ])
}

/** An answer the test releases when it wants (a request in flight). */
function deferred() {
  let release: (value: Answer) => void = () => {}
  const promise = new Promise<Answer>((resolve) => {
    release = resolve
  })
  return { promise, release }
}

let server: ReturnType<typeof createFakeServer>

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

function signIn(user: User = member) {
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
}

const renderAt = (path: string) => render(<SiteApp router="memory" initialPath={path} />)
const heading = (name: string | RegExp) => screen.findByRole("heading", { level: 1, name })

function fill(label: string, value: string, scope: HTMLElement = document.body) {
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } })
}

/** The form holding the field labelled `label` (found by label, so it works while the form is busy or hidden by a modal). */
const formWith = (label: string) => screen.getAllByLabelText(label)[0]!.closest("form") as HTMLFormElement

/** Texts of the toasts on screen (sonner's <Toaster> inside SiteApp). */
const toastTexts = () => Array.from(document.querySelectorAll("[data-sonner-toast]"), (toast) => toast.textContent ?? "")

async function findToast(text: string) {
  await waitFor(() => expect(toastTexts().some((toast) => toast.includes(text))).toBe(true))
}

/** Lets pending macrotasks run (sonner adds toasts on a zero timeout), so an absence can be asserted. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10))
  })
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms)
  })
}

/** The message shown on a field (aria-describedby), and whether it is marked invalid. */
function fieldError(label: string) {
  const input = screen.getByLabelText(label)
  const describedBy = input.getAttribute("aria-describedby")
  return {
    invalid: input.getAttribute("aria-invalid") === "true",
    message: input.getAttribute("aria-invalid") === "true" && describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null
  }
}

function hintItems() {
  return within(screen.getByTestId("password-hint"))
    .getAllByRole("listitem")
    .map((item) => item.textContent)
}

const FALLBACK_HINT = ["At least 8 characters", "One uppercase letter", "One lowercase letter", "One number", "One special character (!@#$…)"]

beforeEach(() => {
  server = createFakeServer()
  resetSiteForTest(server.fetch)
})

afterEach(() => {
  teardownSession()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

// ---------------------------------------------------------------------------------------------------------------
// Login
// ---------------------------------------------------------------------------------------------------------------

async function openLogin(path = "/login") {
  renderAt(path)
  await heading("Sign in")
}

function submitLogin(email = "ada@example.com", password = "Correct#Horse9") {
  fill("Email", email)
  fill("Password", password)
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
}

describe("Login page", () => {
  it("asks for both fields: 'Please fill in all fields', and sends nothing", async () => {
    await openLogin()
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    expect(within(formWith("Password")).getByRole("alert").textContent).toBe("Please fill in all fields")

    fill("Email", "ada@example.com")
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    expect(within(formWith("Password")).getByRole("alert").textContent).toBe("Please fill in all fields")

    fill("Email", "   ")
    fill("Password", "Correct#Horse9")
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    expect(within(formWith("Password")).getByRole("alert").textContent).toBe("Please fill in all fields")

    await settle()
    expect(server.calls("POST /api/auth/login")).toHaveLength(0)
  })

  it("sends a visitor from /dashboard to sign in, then back to the dashboard", async () => {
    renderAt("/dashboard")
    await heading("Sign in")
    submitLogin()
    await heading("Dashboard")
    expect(server.calls("POST /api/auth/login").map((request) => request.body)).toEqual([{ email: "ada@example.com", password: "Correct#Horse9" }])
    await findToast("Successfully logged in!")
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: member })
    expect(window.localStorage.getItem(SESSION_STORAGE_KEYS.authToken)).toBe("access-1")
  })

  it("goes back to the remembered origin (/change-password) after signing in", async () => {
    renderAt("/change-password?tab=security")
    await heading("Sign in")
    submitLogin()
    await heading("Change password")
  })

  it("goes to /dashboard when there is no origin to go back to", async () => {
    await openLogin()
    submitLogin("  ada@example.com  ")
    await heading("Dashboard")
    expect(server.calls("POST /api/auth/login")[0]?.body).toEqual({ email: "ada@example.com", password: "Correct#Horse9" })
  })

  it("shows INVALID_CREDENTIALS with the remaining attempts in the form, not as a toast", async () => {
    server.on("POST /api/auth/login", () =>
      refuse(401, "INVALID_CREDENTIALS", "Invalid email or password", { remainingAttempts: 3, nextAttemptDelay: 0 })
    )
    await openLogin()
    submitLogin("ada@example.com", "wrong-password")
    const alert = await within(formWith("Password")).findByRole("alert")
    expect(alert.textContent).toBe("Invalid email or password. 3 login attempts remaining.")
    await settle()
    expect(toastTexts()).toEqual([])
    expect(screen.getAllByText(/Invalid email or password/)).toHaveLength(1)
    expect(useSession.getState().status).toBe("loggedOut")
  })

  it("adds the wait of INVALID_CREDENTIALS, and says the account is locked at zero attempts", async () => {
    server.on("POST /api/auth/login", () =>
      refuse(401, "INVALID_CREDENTIALS", "Invalid email or password", { remainingAttempts: 2, nextAttemptDelay: 4 })
    )
    await openLogin()
    submitLogin("ada@example.com", "wrong-password")
    expect((await within(formWith("Password")).findByRole("alert")).textContent).toBe(
      "Invalid email or password. 2 login attempts remaining. Please wait 4 seconds before trying again."
    )

    server.on("POST /api/auth/login", () => refuse(401, "INVALID_CREDENTIALS", "Invalid email or password", { remainingAttempts: 0 }))
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    await waitFor(() =>
      expect(within(formWith("Password")).getByRole("alert").textContent).toContain("Invalid email or password. Account temporarily locked.")
    )
    await settle()
    expect(toastTexts()).toEqual([])
  })

  it("shows PROGRESSIVE_DELAY in the form", async () => {
    server.on("POST /api/auth/login", () => refuse(429, "PROGRESSIVE_DELAY", "Slow down", { retryAfter: 8 }))
    await openLogin()
    submitLogin("ada@example.com", "wrong-password")
    expect((await within(formWith("Password")).findByRole("alert")).textContent).toBe("Please wait 8 seconds before trying again.")
    await settle()
    expect(toastTexts()).toEqual([])
  })

  it("shows ACCOUNT_LOCKED with the minutes to wait and a reset link", async () => {
    server.on("POST /api/auth/login", () => refuse(423, "ACCOUNT_LOCKED", "Account locked", { retryAfter: 900 }))
    await openLogin()
    submitLogin()
    const alert = await within(formWith("Password")).findByRole("alert")
    expect(alert.textContent).toContain("Account temporarily locked. Please try again in 15 minutes or reset your password.")
    // The reset link opens the forgot-password dialog: a reset needs an e-mailed code.
    fireEvent.click(within(alert).getByRole("button", { name: "Reset your password" }))
    expect(await screen.findByRole("dialog", { name: "Reset your password" })).toBeTruthy()
    await settle()
    expect(toastTexts()).toEqual([])
  })

  it("shows a connection failure as a toast", async () => {
    server.on("POST /api/auth/login", () => {
      throw new TypeError("Failed to fetch")
    })
    await openLogin()
    submitLogin()
    await findToast("Connection error. Please check your internet connection and try again.")
    expect(within(formWith("Password")).queryByRole("alert")).toBeNull()
  })

  it("shows EMAIL_NOT_VERIFIED as a toast and opens the resend box", async () => {
    server.on("POST /api/auth/login", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified"))
    await openLogin()
    expect(screen.queryByTestId("resend-verification")).toBeNull()
    submitLogin()
    await findToast("Please verify your email before signing in. Check your inbox for a verification link.")
    const box = await screen.findByTestId("resend-verification")
    expect(box.textContent).toContain("ada@example.com")
    expect(within(box).getByRole("button", { name: "Resend verification email" })).toBeTruthy()
    expect(within(formWith("Password")).queryByRole("alert")).toBeNull()
  })

  it("resends the verification e-mail, then waits 60 s before the next resend", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    server.on("POST /api/auth/login", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified"))
    await openLogin()
    submitLogin()
    const box = await screen.findByTestId("resend-verification")
    fireEvent.click(within(box).getByRole("button", { name: "Resend verification email" }))

    const waiting = await within(box).findByRole("button", { name: "Resend available in 60 s" })
    expect((waiting as HTMLButtonElement).disabled).toBe(true)
    expect(within(box).getByText("Verification email sent to ada@example.com. Check your inbox.")).toBeTruthy()
    expect(server.calls("POST /api/auth/resend-verification").map((request) => request.body)).toEqual([{ email: "ada@example.com" }])

    await advance(30_000)
    expect((within(box).getByRole("button", { name: "Resend available in 30 s" }) as HTMLButtonElement).disabled).toBe(true)
    await advance(30_000)
    const again = within(box).getByRole("button", { name: "Resend verification email" }) as HTMLButtonElement
    expect(again.disabled).toBe(false)
    fireEvent.click(again)
    await within(box).findByRole("button", { name: "Resend available in 60 s" })
    expect(server.calls("POST /api/auth/resend-verification")).toHaveLength(2)
  })

  it("starts the resend cooldown from retryAfter of a 429 answer", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    server.on("POST /api/auth/login", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified"))
    server.on("POST /api/auth/resend-verification", () => refuse(429, "TOO_MANY_REQUESTS", "Too many requests", { retryAfter: 42 }))
    await openLogin()
    submitLogin()
    const box = await screen.findByTestId("resend-verification")
    fireEvent.click(within(box).getByRole("button", { name: "Resend verification email" }))

    expect(await within(box).findByText("Too many attempts. Please wait 42 seconds before trying again.")).toBeTruthy()
    expect((within(box).getByRole("button", { name: "Resend available in 42 s" }) as HTMLButtonElement).disabled).toBe(true)
    await advance(41_000)
    expect(within(box).getByRole("button", { name: "Resend available in 1 s" })).toBeTruthy()
    await advance(1_000)
    expect((within(box).getByRole("button", { name: "Resend verification email" }) as HTMLButtonElement).disabled).toBe(false)
  })

  it("sends one request for duplicate submits", async () => {
    const pending = deferred()
    server.on("POST /api/auth/login", () => pending.promise)
    await openLogin()
    fill("Email", "ada@example.com")
    fill("Password", "Correct#Horse9")
    const form = formWith("Password")
    fireEvent.submit(form)
    fireEvent.submit(form)
    const busy = (await screen.findByRole("button", { name: "Signing in..." })) as HTMLButtonElement
    expect(busy.disabled).toBe(true)
    fireEvent.submit(form)
    fireEvent.click(busy)
    await settle()
    expect(server.calls("POST /api/auth/login")).toHaveLength(1)

    pending.release(signInAnswer())
    await heading("Dashboard")
    expect(server.calls("POST /api/auth/login")).toHaveLength(1)
  })

  it("toggles password visibility with Ctrl+Shift+P and with the eye button", async () => {
    await openLogin()
    const password = screen.getByLabelText("Password") as HTMLInputElement
    expect(password.type).toBe("password")
    fireEvent.keyDown(window, { key: "P", ctrlKey: true, shiftKey: true })
    expect(password.type).toBe("text")
    fireEvent.keyDown(window, { key: "P", ctrlKey: true, shiftKey: true })
    expect(password.type).toBe("password")
    fireEvent.keyDown(window, { key: "P", ctrlKey: true })
    expect(password.type).toBe("password")
    fireEvent.click(screen.getByRole("button", { name: "Show password (Ctrl+Shift+P)" }))
    expect(password.type).toBe("text")
  })

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
      expect(server.calls("POST /api/auth/forgot-password")).toHaveLength(0)
    })

    it("sends the reset e-mail: toast 'Password reset email sent successfully!' and closes", async () => {
      await openLogin()
      const dialog = await openDialog()
      fill("Email", "ada@example.com", dialog)
      fireEvent.click(within(dialog).getByRole("button", { name: "Send reset link" }))
      await findToast("Password reset email sent successfully!")
      expect(server.calls("POST /api/auth/forgot-password").map((request) => request.body)).toEqual([{ email: "ada@example.com" }])
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
      expect(server.calls("POST /api/auth/login")).toHaveLength(0)
      expect(within(formWith("Password")).queryByRole("alert")).toBeNull()
    })

    it("starts with the address typed in the sign-in form", async () => {
      await openLogin()
      fill("Email", "grace@example.com")
      const dialog = await openDialog()
      expect((within(dialog).getByLabelText("Email") as HTMLInputElement).value).toBe("grace@example.com")
    })

    it("says so when the reset e-mail cannot be sent", async () => {
      server.on("POST /api/auth/forgot-password", () => refuse(500, "INTERNAL_ERROR", "Boom"))
      await openLogin()
      const dialog = await openDialog()
      fill("Email", "ada@example.com", dialog)
      fireEvent.click(within(dialog).getByRole("button", { name: "Send reset link" }))
      expect((await within(dialog).findByRole("alert")).textContent).toBe("Failed to send password reset email. Please try again.")
    })
  })

  describe("extension mode (source=extension)", () => {
    it("tells a signed-in user so and closes the tab after 2 s", async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true })
      const close = vi.spyOn(window, "close").mockImplementation(() => {})
      signIn()
      renderAt("/login?source=extension")
      await heading("You're signed in")
      expect(screen.getByText("Signed in successfully. This tab closes by itself in a moment.")).toBeTruthy()
      expect(close).not.toHaveBeenCalled()
      await advance(1_500)
      expect(close).not.toHaveBeenCalled()
      await advance(500)
      expect(close).toHaveBeenCalledTimes(1)
    })

    it("signs in, shows the success message and closes the tab after 2 s", async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true })
      const close = vi.spyOn(window, "close").mockImplementation(() => {})
      await openLogin("/login?source=extension")
      expect(screen.getByText("Sign in to use Image Query AI in your browser.")).toBeTruthy()
      submitLogin()
      await heading("You're signed in")
      expect(close).not.toHaveBeenCalled()
      await advance(2_000)
      expect(close).toHaveBeenCalledTimes(1)
    })
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Register
// ---------------------------------------------------------------------------------------------------------------

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
    expect(server.calls("POST /api/auth/register")).toHaveLength(0)
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
    expect(server.calls("POST /api/auth/register").map((request) => request.body)).toEqual([
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
    expect(server.calls("POST /api/auth/resend-verification").map((request) => request.body)).toEqual([{ email: "ada@example.com" }])
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
    await waitFor(() => expect(server.calls("POST /api/auth/sync-verification").length).toBeGreaterThan(0))
    expect(server.calls("POST /api/auth/sync-verification")[0]!.body).toEqual({ email: "ada@example.com", verificationToken: "check-1" })
    expect(screen.getByRole("heading", { level: 1, name: "Check your email" })).toBeTruthy()

    // The link was followed elsewhere; coming back to this tab shows it.
    server.on("POST /api/auth/sync-verification", () => answer({ verified: true }))
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
    expect(server.calls("POST /api/auth/register")).toHaveLength(0)
    expect(screen.getByRole("heading", { level: 1, name: "Create your account" })).toBeTruthy()
  })

  it("shows 409 in the form with a sign-in link, not as a toast", async () => {
    server.on("POST /api/auth/register", () => refuse(409, "EMAIL_ALREADY_EXISTS", "An account with this email already exists"))
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
    server.on("GET /api/password-policy/config", () => policyAnswer(policy))
    await openRegister()
    await waitFor(() =>
      expect(hintItems()).toEqual(["At least 10 characters", "One lowercase letter", "One number", "One special character (!@#$…) (optional)"])
    )
    expect(server.calls("GET /api/password-policy/config")).toHaveLength(1)
  })

  it("shows the default policy's hint when the server sends it", async () => {
    await openRegister()
    await waitFor(() => expect(server.calls("GET /api/password-policy/config")).toHaveLength(1))
    await settle()
    expect(hintItems()).toEqual(FALLBACK_HINT)
  })

  it("falls back to 8 characters, upper, lower, number and special when the policy cannot be fetched", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    server.on("GET /api/password-policy/config", () => refuse(500, "INTERNAL_ERROR", "Boom"))
    await openRegister()
    await waitFor(() => expect(server.calls("GET /api/password-policy/config")).toHaveLength(1))
    // The data layer retries once, after a second.
    await advance(1_000)
    await waitFor(() => expect(server.calls("GET /api/password-policy/config")).toHaveLength(2))
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

// ---------------------------------------------------------------------------------------------------------------
// Email verification
// ---------------------------------------------------------------------------------------------------------------

const INVALID_VERIFICATION_LINK = "This verification link is invalid or has expired."

describe("Email verification page", () => {
  it.each(["/verify-email", "/verify-email?mode=verifyEmail", "/verify-email?oobCode=abc", "/verify-email?mode=resetPassword&oobCode=abc"])(
    "shows the invalid-link state for %s without calling the server",
    async (path) => {
      renderAt(path)
      await heading("Verify your email")
      expect(await screen.findByText(INVALID_VERIFICATION_LINK)).toBeTruthy()
      await settle()
      expect(server.calls("POST /api/auth/verify-email")).toHaveLength(0)
    }
  )

  it("shows a spinner while verifying, then the verified e-mail and 'Continue to sign in'", async () => {
    const pending = deferred()
    server.on("POST /api/auth/verify-email", () => pending.promise)
    renderAt("/verify-email?mode=verifyEmail&oobCode=code-1&apiKey=key&lang=en")
    await heading("Verify your email")
    expect(await screen.findByText("Verifying your email")).toBeTruthy()

    pending.release(answer({ email: "ada@example.com", verified: true }))
    expect(await screen.findByText("ada@example.com", { selector: "strong" })).toBeTruthy()
    expect(server.calls("POST /api/auth/verify-email").map((request) => request.body)).toEqual([{ oobCode: "code-1" }])
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
    expect(server.calls("POST /api/auth/verify-email")).toHaveLength(1)
  })

  it("shows the invalid state for INVALID_OR_EXPIRED_CODE, and remembers it", async () => {
    server.on("POST /api/auth/verify-email", () => refuse(400, "INVALID_OR_EXPIRED_CODE", "This link is invalid or has expired"))
    const first = renderAt("/verify-email?mode=verifyEmail&oobCode=used-code")
    expect(await screen.findByText(INVALID_VERIFICATION_LINK)).toBeTruthy()
    first.unmount()
    renderAt("/verify-email?mode=verifyEmail&oobCode=used-code")
    expect(await screen.findByText(INVALID_VERIFICATION_LINK)).toBeTruthy()
    await settle()
    expect(server.calls("POST /api/auth/verify-email")).toHaveLength(1)
  })

  it("shows 'Email verification failed' for other failures", async () => {
    server.on("POST /api/auth/verify-email", () => refuse(500, "INTERNAL_ERROR", "Something broke"))
    renderAt("/verify-email?mode=verifyEmail&oobCode=code-3")
    expect(await screen.findByText("Email verification failed")).toBeTruthy()
    expect(screen.queryByText(INVALID_VERIFICATION_LINK)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Reset password
// ---------------------------------------------------------------------------------------------------------------

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
    expect(server.calls("POST /api/auth/reset-password")).toHaveLength(0)
  })

  it("resets the password, says so, and goes to /login after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    renderAt(RESET_PATH)
    await heading("Reset your password")
    submitReset("Analytical#Engine1")
    await heading("Password reset")
    await findToast("Password reset successfully!")
    expect(server.calls("POST /api/auth/reset-password").map((request) => request.body)).toEqual([
      { oobCode: "reset-1", newPassword: "Analytical#Engine1" }
    ])

    await advance(2_000)
    expect(screen.getByRole("heading", { level: 1, name: "Password reset" })).toBeTruthy()
    await advance(1_000)
    await heading("Sign in")
  })

  it("shows the policy's refusal as 'Password requirements not met: …'", async () => {
    server.on("POST /api/auth/reset-password", () =>
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
    server.on("POST /api/auth/reset-password", () => refuse(400, "INVALID_OR_EXPIRED_CODE", "This link is invalid or has expired"))
    renderAt(RESET_PATH)
    await heading("Reset your password")
    submitReset("Analytical#Engine1")
    await waitFor(() => expect(within(formWith("New password")).getByRole("alert").textContent).toBe(INVALID_RESET_LINK))
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Change password
// ---------------------------------------------------------------------------------------------------------------

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
    expect(server.calls("POST /api/auth/change-password")).toHaveLength(0)
  })

  function fillValid() {
    fill("Current password", "OldPass1!")
    fill("New password", "NewPass1!")
    fill("Confirm new password", "NewPass1!")
  }

  it("marks the current password 'Current password is incorrect' on INVALID_CREDENTIALS", async () => {
    server.on("POST /api/auth/change-password", () => refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect"))
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
    const [request] = server.calls("POST /api/auth/change-password")
    expect(request?.body).toEqual({ currentPassword: "OldPass1!", newPassword: "NewPass1!" })
    expect(request?.authorization).toBe("Bearer access-0")

    await advance(1_500)
    expect(screen.getByRole("heading", { level: 1, name: "Change password" })).toBeTruthy()
    await advance(500)
    await heading("Dashboard")
  })

  it("shows the policy's refusal as 'Password requirements not met: …'", async () => {
    server.on("POST /api/auth/change-password", () =>
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
    server.on("POST /api/auth/change-password", () => refuse(500, "PASSWORD_UPDATE_FAILED", "The password could not be updated"))
    await openChangePassword()
    fillValid()
    submitChange()
    await waitFor(() => expect((screen.getByLabelText("New password") as HTMLInputElement).value).toBe(""))
    expect((screen.getByLabelText("Confirm new password") as HTMLInputElement).value).toBe("")
    expect((screen.getByLabelText("Current password") as HTMLInputElement).value).toBe("OldPass1!")
  })

  it("offers no form to an account without e-mail sign-in", async () => {
    server.on("GET /api/auth/auth-status", () => answer({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] }))
    signIn({ ...member, provider: "google" })
    renderAt("/change-password")
    await heading("Change password")
    expect(await screen.findByRole("link", { name: "Back to dashboard" })).toBeTruthy()
    expect(screen.queryByLabelText("Current password")).toBeNull()
    expect(screen.queryByLabelText("New password")).toBeNull()
    expect(screen.queryByRole("button", { name: "Change password" })).toBeNull()
  })
})
