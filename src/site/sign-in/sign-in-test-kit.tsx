/**
 * What the sign-in, sign-up and password page tests share. They render the whole app; the only test double is the
 * network: an in-memory fake of the API behind `configureApi({ fetch })`, answering in the server's wrapper as
 * API table (docs/api.md) describes. Test-only: imported by the *.test.tsx files of this folder, never by the app.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, expect, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"
import { createDefaultPasswordPolicy, type PasswordPolicyConfig } from "~core/password-policy"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { answer, createFakeApi, resetSiteForTest, type Answer } from "../fake-api-server"
import { SiteApp } from "../SiteApp"

// ---------------------------------------------------------------------------------------------------------------
// The fake API server
// ---------------------------------------------------------------------------------------------------------------

export const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
export const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }

export const policyAnswer = (config: PasswordPolicyConfig): Answer =>
  answer({ config: { rules: config.rules, customRules: config.customRules, strictMode: config.strictMode } })

export const signInAnswer = (): Answer =>
  answer({ user: member, token: "access-1", refreshToken: "refresh-1", expiresAt: "2030-01-01T13:00:00.000Z" })

export function createFakeServer() {
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
export function deferred() {
  let release: (value: Answer) => void = () => {}
  const promise = new Promise<Answer>((resolve) => {
    release = resolve
  })
  return { promise, release }
}

export type FakeAuthServer = ReturnType<typeof createFakeServer>

/** A test's fresh start: a new fake server answering every request of the site. Called from each file's beforeEach. */
export function startFakeServer(): FakeAuthServer {
  const server = createFakeServer()
  resetSiteForTest(server.fetch)
  return server
}

/** What a test may leave behind: the session, fake timers, spies. Each file's afterEach. */
export function cleanUpAfterTest() {
  teardownSession()
  vi.useRealTimers()
  vi.restoreAllMocks()
}

/** Registers a fresh fake server before each test of the file and the clean-up after; `.server` is the current one. */
export function signInPageTests(): { readonly server: FakeAuthServer } {
  const current = {} as { server: FakeAuthServer }
  beforeEach(() => {
    current.server = startFakeServer()
  })
  afterEach(cleanUpAfterTest)
  return current
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

export function signIn(user: User = member) {
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
}

export const renderAt = (path: string) => render(<SiteApp router="memory" initialPath={path} />)
export const heading = (name: string | RegExp) => screen.findByRole("heading", { level: 1, name })

export function fill(label: string, value: string, scope: HTMLElement = document.body) {
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } })
}

/** The form holding the field labelled `label` (found by label, so it works while the form is busy or hidden by a modal). */
export const formWith = (label: string) => screen.getAllByLabelText(label)[0]!.closest("form") as HTMLFormElement

/** Texts of the toasts on screen (sonner's <Toaster> inside SiteApp). */
export const toastTexts = () => Array.from(document.querySelectorAll("[data-sonner-toast]"), (toast) => toast.textContent ?? "")

export async function findToast(text: string) {
  await waitFor(() => expect(toastTexts().some((toast) => toast.includes(text))).toBe(true))
}

/** Lets pending macrotasks run (sonner adds toasts on a zero timeout), so an absence can be asserted. */
export async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10))
  })
}

export async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms)
  })
}

/** The message shown on a field (aria-describedby), and whether it is marked invalid. */
export function fieldError(label: string) {
  const input = screen.getByLabelText(label)
  const describedBy = input.getAttribute("aria-describedby")
  return {
    invalid: input.getAttribute("aria-invalid") === "true",
    message: input.getAttribute("aria-invalid") === "true" && describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null
  }
}

export function hintItems() {
  return within(screen.getByTestId("password-hint"))
    .getAllByRole("listitem")
    .map((item) => item.textContent)
}

export const FALLBACK_HINT = ["At least 8 characters", "One uppercase letter", "One lowercase letter", "One number", "One special character (!@#$…)"]

// ---------------------------------------------------------------------------------------------------------------
// The login page, also the way into its forgot-password dialog
// ---------------------------------------------------------------------------------------------------------------

export async function openLogin(path = "/login") {
  renderAt(path)
  await heading("Sign in")
}

export function submitLogin(email = "ada@example.com", password = "Correct#Horse9") {
  fill("Email", email)
  fill("Password", password)
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
}
