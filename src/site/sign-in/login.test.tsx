/**
 * Component tests of the login page: its errors, the resend box and extension mode, rendered through the whole app. The network is the fake API
 * of sign-in-test-kit.tsx.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { describe, expect, it, vi } from "vitest"

import { useSession } from "~site-session/session-store"
import { SESSION_STORAGE_KEYS } from "~core/user"

import { refuse } from "../fake-api-server"
import {
  advance,
  deferred,
  fill,
  findToast,
  formWith,
  heading,
  member,
  openLogin,
  renderAt,
  settle,
  signIn,
  signInAnswer,
  submitLogin,
  toastTexts,
  signInPageTests
} from "./sign-in-test-kit"

const pages = signInPageTests()

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
    expect(pages.server.calls("POST /api/auth/login")).toHaveLength(0)
  })

  it("sends a visitor from /dashboard to sign in, then back to the dashboard", async () => {
    renderAt("/dashboard")
    await heading("Sign in")
    submitLogin()
    await heading("Dashboard")
    expect(pages.server.calls("POST /api/auth/login").map((request) => request.body)).toEqual([{ email: "ada@example.com", password: "Correct#Horse9" }])
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
    expect(pages.server.calls("POST /api/auth/login")[0]?.body).toEqual({ email: "ada@example.com", password: "Correct#Horse9" })
  })

  it("shows INVALID_CREDENTIALS with the remaining attempts in the form, not as a toast", async () => {
    pages.server.on("POST /api/auth/login", () =>
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
    pages.server.on("POST /api/auth/login", () =>
      refuse(401, "INVALID_CREDENTIALS", "Invalid email or password", { remainingAttempts: 2, nextAttemptDelay: 4 })
    )
    await openLogin()
    submitLogin("ada@example.com", "wrong-password")
    expect((await within(formWith("Password")).findByRole("alert")).textContent).toBe(
      "Invalid email or password. 2 login attempts remaining. Please wait 4 seconds before trying again."
    )

    pages.server.on("POST /api/auth/login", () => refuse(401, "INVALID_CREDENTIALS", "Invalid email or password", { remainingAttempts: 0 }))
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    await waitFor(() =>
      expect(within(formWith("Password")).getByRole("alert").textContent).toContain("Invalid email or password. Account temporarily locked.")
    )
    await settle()
    expect(toastTexts()).toEqual([])
  })

  it("shows PROGRESSIVE_DELAY in the form", async () => {
    pages.server.on("POST /api/auth/login", () => refuse(429, "PROGRESSIVE_DELAY", "Slow down", { retryAfter: 8 }))
    await openLogin()
    submitLogin("ada@example.com", "wrong-password")
    expect((await within(formWith("Password")).findByRole("alert")).textContent).toBe("Please wait 8 seconds before trying again.")
    await settle()
    expect(toastTexts()).toEqual([])
  })

  it("shows ACCOUNT_LOCKED with the minutes to wait and a reset link", async () => {
    pages.server.on("POST /api/auth/login", () => refuse(423, "ACCOUNT_LOCKED", "Account locked", { retryAfter: 900 }))
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
    pages.server.on("POST /api/auth/login", () => {
      throw new TypeError("Failed to fetch")
    })
    await openLogin()
    submitLogin()
    await findToast("Connection error. Please check your internet connection and try again.")
    expect(within(formWith("Password")).queryByRole("alert")).toBeNull()
  })

  it("shows EMAIL_NOT_VERIFIED as a toast and opens the resend box", async () => {
    pages.server.on("POST /api/auth/login", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified"))
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
    pages.server.on("POST /api/auth/login", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified"))
    await openLogin()
    submitLogin()
    const box = await screen.findByTestId("resend-verification")
    fireEvent.click(within(box).getByRole("button", { name: "Resend verification email" }))

    const waiting = await within(box).findByRole("button", { name: "Resend available in 60 s" })
    expect((waiting as HTMLButtonElement).disabled).toBe(true)
    expect(within(box).getByText("Verification email sent to ada@example.com. Check your inbox.")).toBeTruthy()
    expect(pages.server.calls("POST /api/auth/resend-verification").map((request) => request.body)).toEqual([{ email: "ada@example.com" }])

    await advance(30_000)
    expect((within(box).getByRole("button", { name: "Resend available in 30 s" }) as HTMLButtonElement).disabled).toBe(true)
    await advance(30_000)
    const again = within(box).getByRole("button", { name: "Resend verification email" }) as HTMLButtonElement
    expect(again.disabled).toBe(false)
    fireEvent.click(again)
    await within(box).findByRole("button", { name: "Resend available in 60 s" })
    expect(pages.server.calls("POST /api/auth/resend-verification")).toHaveLength(2)
  })

  it("starts the resend cooldown from retryAfter of a 429 answer", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    pages.server.on("POST /api/auth/login", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified"))
    pages.server.on("POST /api/auth/resend-verification", () => refuse(429, "TOO_MANY_REQUESTS", "Too many requests", { retryAfter: 42 }))
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
    pages.server.on("POST /api/auth/login", () => pending.promise)
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
    expect(pages.server.calls("POST /api/auth/login")).toHaveLength(1)

    pending.release(signInAnswer())
    await heading("Dashboard")
    expect(pages.server.calls("POST /api/auth/login")).toHaveLength(1)
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
