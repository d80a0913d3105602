/**
 * Component tests of the dashboard's session and account actions ("Sign out everywhere", account deletion, the
 * sign-in methods and their linking), rendered through the whole app. The test doubles are the network (a fake
 * API answering in the wrapper) and the Google popup the web build provides (~site-session/google-popup), here a double.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"

import { FIREBASE_USED_KEY } from "~site-session/firebase-setup"
import { provideGooglePopup } from "~site-session/google-popup"
import { teardownSession, useSession } from "~site-session/session-store"
import { LAST_ADMIN_MESSAGE } from "~core/admin/admin-users"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { FREE_SUBSCRIPTION } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { GOOGLE_LINKED_MESSAGE, LINK_GOOGLE_ON_SITE_NOTE } from "./LinkGoogleButton"
import { preloadDashboard } from "../pages.test-support"

const googlePopupDouble = { preload: vi.fn(), signIn: vi.fn(), currentIdToken: vi.fn(), signOut: vi.fn() }
const { signIn: signInWithGoogle, signOut: signOutFirebase } = googlePopupDouble
provideGooglePopup(googlePopupDouble)

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }
const PASSWORD = "Blue-Harbor-42!"

function createFakeServer() {
  return createFakeApi([
    ["POST /api/auth/logout", () => answer({ loggedOut: true })],
    ["POST /api/auth/logout-all", () => answer({ loggedOut: true })],
    ["GET /api/auth/profile", () => answer({ user: accountUser })],
    ["GET /api/billing/subscription", () => answer(FREE_SUBSCRIPTION)],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/auth/mfa", () => answer({ totp: false, recoveryCodesLeft: 0, passkeys: 0 })],
    ["GET /api/auth/firebase-config", () => answer({ enabled: true, config: { apiKey: "public-key", authDomain: "iqa.example.com", projectId: "iqa-test" }, emulatorUrl: null })],
    ["GET /api/password-policy/config", () => refuse(503, "SERVICE_UNAVAILABLE", "Unavailable.")],
    [
      "DELETE /api/auth/account",
      (request) =>
        (request.body as { password?: string } | undefined)?.password === PASSWORD
          ? answer({ deleted: true })
          : refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect")
    ]
  ])
}

let server: ReturnType<typeof createFakeServer>

function signIn() {
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(member))
}

async function openDashboard() {
  signIn()
  render(<SiteApp router="memory" initialPath="/dashboard" />)
  await screen.findByRole("heading", { level: 1, name: "Dashboard" })
}

const storedSession = () => [SESSION_STORAGE_KEYS.authToken, SESSION_STORAGE_KEYS.refreshToken, SESSION_STORAGE_KEYS.user].map((key) => window.localStorage.getItem(key))

const fill = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } })

beforeAll(preloadDashboard, 60_000)
beforeEach(() => {
  server = createFakeServer()
  resetSiteForTest(server.fetch)
  window.localStorage.removeItem(FIREBASE_USED_KEY)
  vi.mocked(signInWithGoogle).mockReset().mockResolvedValue("google-id-token")
  vi.mocked(signOutFirebase).mockReset().mockResolvedValue(undefined)
})

afterEach(() => {
  teardownSession()
})

describe("Sign out everywhere", () => {
  it("asks first, then ends every session on the server and signs out here the usual way", async () => {
    await openDashboard()
    const trigger = await screen.findByRole("button", { name: "Sign out everywhere" })
    trigger.focus()
    expect(document.activeElement).toBe(trigger)
    fireEvent.click(trigger)
    const dialog = await screen.findByRole("alertdialog", { name: "Sign out everywhere?" })
    expect(server.calls("POST /api/auth/logout-all")).toHaveLength(0)

    fireEvent.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }))
    await waitFor(() => expect(storedSession()).toEqual([null, null, null]))
    expect(server.calls("POST /api/auth/logout-all")).toEqual([expect.objectContaining({ authorization: "Bearer access-0" })])
    // The same sign-out as the header's: the server logout is told too, and the visitor lands on the home page.
    await waitFor(() => expect(server.calls("POST /api/auth/logout")).toHaveLength(1))
    await screen.findByRole("heading", { level: 1, name: /Understand every image on the web/ })
    expect(useSession.getState().status).toBe("loggedOut")
  })

  it("can be cancelled without any call", async () => {
    await openDashboard()
    fireEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Sign out everywhere?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull())
    expect(server.calls("POST /api/auth/logout-all")).toHaveLength(0)
    expect(storedSession()[0]).toBe("access-0")
  })

  it("keeps the user signed in and shows the error when the server refuses", async () => {
    server.on("POST /api/auth/logout-all", () => refuse(503, "SERVICE_UNAVAILABLE", "The service is busy. Please try again."))
    await openDashboard()
    fireEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Sign out everywhere?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }))
    expect((await within(dialog).findByRole("alert")).textContent).toBe("The service is busy. Please try again.")
    expect(storedSession()[0]).toBe("access-0")
    expect(server.calls("POST /api/auth/logout")).toHaveLength(0)
  })
})

describe("Delete account", () => {
  async function openDeleteDialog() {
    await openDashboard()
    fireEvent.click(await screen.findByRole("button", { name: "Delete account" }))
    return screen.findByRole("dialog", { name: "Delete your account?" })
  }

  it("needs the typed e-mail and the current password, and shows a wrong password in the dialog", async () => {
    const dialog = await openDeleteDialog()
    const confirm = within(dialog).getByRole("button", { name: "Delete my account" }) as HTMLButtonElement
    const password = await within(dialog).findByLabelText("Current password")
    fill(dialog, "Your email address", "ada@example.com")
    expect(confirm.disabled).toBe(true)
    fireEvent.change(password, { target: { value: "Wrong-Pass-1!" } })
    expect(confirm.disabled).toBe(false)

    fireEvent.click(confirm)
    await waitFor(() => expect(password.getAttribute("aria-invalid")).toBe("true"))
    expect(document.getElementById(password.getAttribute("aria-describedby")!)?.textContent).toBe("Current password is incorrect")
    expect(server.calls("DELETE /api/auth/account")).toEqual([expect.objectContaining({ body: { password: "Wrong-Pass-1!" } })])
    // Still signed in, the dialog still open.
    expect(storedSession()[0]).toBe("access-0")
    expect(screen.getByRole("dialog", { name: "Delete your account?" })).toBeTruthy()

    fireEvent.change(password, { target: { value: PASSWORD } })
    fireEvent.click(confirm)
    await screen.findByRole("heading", { level: 1, name: "Sign in" })
    expect(server.calls("DELETE /api/auth/account").at(-1)?.body).toEqual({ password: PASSWORD })
    expect(storedSession()).toEqual([null, null, null])
  })

  it("asks an account without a password for no password, and offers to sign in again when its sign-in is too old", async () => {
    server.on("GET /api/auth/auth-status", () => answer({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] }))
    server.on("DELETE /api/auth/account", () =>
      refuse(403, "REAUTHENTICATION_REQUIRED", "For your security, please sign in again, then delete your account within 5 minutes.")
    )
    const dialog = await openDeleteDialog()
    fill(dialog, "Your email address", "ada@example.com")
    const confirm = within(dialog).getByRole("button", { name: "Delete my account" }) as HTMLButtonElement
    await waitFor(() => expect(confirm.disabled).toBe(false))
    expect(within(dialog).queryByLabelText("Current password")).toBeNull()

    fireEvent.click(confirm)
    const alert = await within(dialog).findByRole("alert")
    expect(alert.textContent).toContain("For your security, please sign in again, then delete your account within 5 minutes.")
    expect(server.calls("DELETE /api/auth/account")).toEqual([expect.objectContaining({ body: undefined })])
    expect(storedSession()[0]).toBe("access-0")

    fireEvent.click(within(alert).getByRole("button", { name: "Sign in again" }))
    await screen.findByRole("heading", { level: 1, name: "Sign in" })
    expect(storedSession()).toEqual([null, null, null])
  })

  it("shows a known refusal in its words and keeps the account signed in: the last admin is told what to do first", async () => {
    server.on("DELETE /api/auth/account", () => refuse(409, "LAST_ADMIN", LAST_ADMIN_MESSAGE))
    const dialog = await openDeleteDialog()
    fill(dialog, "Your email address", "ada@example.com")
    fireEvent.change(await within(dialog).findByLabelText("Current password"), { target: { value: PASSWORD } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete my account" }))

    expect((await within(dialog).findByRole("alert")).textContent).toContain(LAST_ADMIN_MESSAGE)
    expect(screen.queryByText("Failed to delete account. Please try again.")).toBeNull()
    expect(server.calls("DELETE /api/auth/account")).toHaveLength(1)
    expect(storedSession()[0]).toBe("access-0")
    expect(server.calls("POST /api/auth/logout")).toHaveLength(0)
    expect(screen.getByRole("dialog", { name: "Delete your account?" })).toBeTruthy()
  })
})

describe("Sign-in methods", () => {
  const methodsCard = () => screen.getByRole("region", { name: "Sign-in and security" })
  const methodsStat = async (value: string) => waitFor(() => expect(screen.getByText("Sign-in methods").nextElementSibling?.textContent).toBe(value))

  it("links Google to an e-mail account with the popup's ID token, then shows both methods", async () => {
    let linked = false
    server.on("POST /api/auth/link-google", () => {
      linked = true
      return answer({ user: { ...accountUser, providerId: "firebase-uid-1" } })
    })
    server.on("GET /api/auth/auth-status", () =>
      answer(linked ? { hasEmailAuth: true, hasGoogleAuth: true, providers: ["email", "google"] } : { hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
    )
    await openDashboard()
    await methodsStat("Email")
    expect(within(methodsCard()).getByRole("link", { name: "Change password" })).toBeTruthy()
    // The current password proves the person: the button waits for it.
    await waitFor(() => expect((within(methodsCard()).getByRole("button", { name: "Link Google account" }) as HTMLButtonElement).disabled).toBe(true))
    fill(methodsCard(), "Current password", PASSWORD)
    const link = await waitFor(() => {
      const button = within(methodsCard()).getByRole("button", { name: "Link Google account" }) as HTMLButtonElement
      expect(button.disabled).toBe(false)
      return button
    })
    fireEvent.click(link)
    await methodsStat("Email + Google")
    expect(server.calls("POST /api/auth/link-google")).toEqual([expect.objectContaining({ body: { idToken: "google-id-token", currentPassword: PASSWORD }, authorization: "Bearer access-0" })])
    await waitFor(() => expect(within(methodsCard()).queryByRole("button", { name: "Link Google account" })).toBeNull())
    await waitFor(() => expect(document.body.textContent).toContain(GOOGLE_LINKED_MESSAGE))
    // From now on logout signs this browser out of Firebase too.
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBe("1")
  })

  it("shows the server's refusal when the Google account belongs to someone else, and forgets that Google user", async () => {
    server.on("POST /api/auth/link-google", () => refuse(409, "CONFLICT", "This Google account is already linked to another user."))
    await openDashboard()
    await waitFor(() => within(methodsCard()).getByLabelText("Current password"))
    fill(methodsCard(), "Current password", PASSWORD)
    const link = await waitFor(() => {
      const button = within(methodsCard()).getByRole("button", { name: "Link Google account" }) as HTMLButtonElement
      expect(button.disabled).toBe(false)
      return button
    })
    fireEvent.click(link)
    expect((await within(methodsCard()).findByRole("alert")).textContent).toBe("This Google account is already linked to another user.")
    expect(vi.mocked(signOutFirebase)).toHaveBeenCalledTimes(1)
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBeNull()
  })

  it("in the extension's pages, which cannot open Google's popup, sends the linking to the web site's dashboard", async () => {
    provideGooglePopup(null)
    try {
      const open = vi.spyOn(window, "open").mockReturnValue(null)
      await openDashboard()
      // The site's Firebase settings arrive first; until then the button is a disabled placeholder.
      const link = await waitFor(() => {
        const button = within(methodsCard()).getByRole("button", { name: "Link Google account" })
        expect(document.getElementById(button.getAttribute("aria-describedby") ?? "")?.textContent).toBe(LINK_GOOGLE_ON_SITE_NOTE)
        return button
      })
      fireEvent.click(link)
      expect(open).toHaveBeenCalledWith("http://api.test/dashboard", "_blank", "noopener")
      expect(server.calls("POST /api/auth/link-google")).toHaveLength(0)
    } finally {
      provideGooglePopup(googlePopupDouble)
    }
  })

  it("says Google is not configured when the server has no Firebase project", async () => {
    server.on("GET /api/auth/firebase-config", () => answer({ enabled: false, config: null, emulatorUrl: null }))
    await openDashboard()
    await within(methodsCard()).findByText("Google sign-in is not configured on this server.")
    expect((within(methodsCard()).getByRole("button", { name: "Link Google account" }) as HTMLButtonElement).disabled).toBe(true)
  })

  it("removes Google from an account with both methods after the current password, then shows the password alone", async () => {
    let removed = false
    server.on("GET /api/auth/auth-status", () =>
      answer(removed ? { hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] } : { hasEmailAuth: true, hasGoogleAuth: true, providers: ["email", "google"] })
    )
    server.on("POST /api/auth/unlink", (request) => {
      const { currentPassword } = request.body as { currentPassword: string }
      if (currentPassword !== PASSWORD) return refuse(400, "INVALID_CREDENTIALS", "Current password is incorrect")
      removed = true
      return answer({ user: accountUser })
    })
    await openDashboard()
    await methodsStat("Email + Google")
    expect(within(methodsCard()).getByRole("button", { name: "Remove password" })).toBeTruthy()
    fireEvent.click(within(methodsCard()).getByRole("button", { name: "Remove Google sign-in" }))
    const dialog = await screen.findByRole("alertdialog")
    expect(dialog.textContent).toContain("Every other session of your account")
    const confirm = within(dialog).getByRole("button", { name: "Remove Google sign-in" }) as HTMLButtonElement
    expect(confirm.disabled).toBe(true)
    fill(dialog, "Current password", "Wrong-Password-1!")
    fireEvent.click(confirm)
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Current password is incorrect")
    fill(dialog, "Current password", PASSWORD)
    fireEvent.click(confirm)
    await methodsStat("Email")
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull())
    expect(server.calls("POST /api/auth/unlink").at(-1)?.body).toEqual({ provider: "google", currentPassword: PASSWORD })
    expect(within(methodsCard()).queryByRole("button", { name: "Remove password" })).toBeNull()
    expect(within(methodsCard()).getByRole("button", { name: "Link Google account" })).toBeTruthy()
  })

  it("offers to sign in again when adding a password needs a fresher sign-in", async () => {
    server.on("GET /api/auth/auth-status", () => answer({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] }))
    server.on("POST /api/auth/link-email", () => refuse(403, "REAUTHENTICATION_REQUIRED", "For your security, please sign in again, then add a password within 5 minutes."))
    await openDashboard()
    await methodsStat("Google")
    const card = methodsCard()
    fill(card, "Password", PASSWORD)
    fill(card, "Confirm password", PASSWORD)
    fireEvent.click(within(card).getByRole("button", { name: "Add Email Authentication" }))
    const alert = await within(card).findByRole("alert")
    expect(alert.textContent).toContain("please sign in again, then add a password within 5 minutes")
    fireEvent.click(within(alert).getByRole("button", { name: "Sign in again" }))
    await screen.findByRole("heading", { level: 1, name: "Sign in" })
  })

  it("adds e-mail authentication to a Google-only account, checking the section-5 rules first", async () => {
    let linked = false
    server.on("GET /api/auth/auth-status", () =>
      answer(linked ? { hasEmailAuth: true, hasGoogleAuth: true, providers: ["email", "google"] } : { hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })
    )
    server.on("POST /api/auth/link-email", (request) => {
      const { password } = request.body as { password: string }
      if (password === "weakweak") return refuse(400, "VALIDATION_ERROR", "Password does not meet the policy", { details: ["One uppercase letter", "One number"] })
      linked = true
      return answer({ user: accountUser })
    })
    await openDashboard()
    await methodsStat("Google")
    const card = methodsCard()
    expect(within(card).queryByRole("link", { name: "Change password" })).toBeNull()
    expect(within(card).queryByRole("button", { name: "Link Google account" })).toBeNull()
    expect((within(card).getByLabelText("Email") as HTMLInputElement).value).toBe("ada@example.com")
    expect(within(card).getByTestId("password-hint")).toBeTruthy()
    const submit = () => fireEvent.click(within(card).getByRole("button", { name: "Add Email Authentication" }))

    submit()
    expect((await within(card).findByRole("alert")).textContent).toBe("Please fill in all fields")
    fill(card, "Password", "Blue-Harbor-42!")
    fill(card, "Confirm password", "Blue-Harbor-43!")
    submit()
    await waitFor(() => expect(within(card).getByRole("alert").textContent).toBe("Passwords do not match"))
    fill(card, "Password", "Short1!")
    fill(card, "Confirm password", "Short1!")
    submit()
    await waitFor(() => expect(within(card).getByRole("alert").textContent).toBe("Password must be at least 8 characters long"))
    expect(server.calls("POST /api/auth/link-email")).toHaveLength(0)

    fill(card, "Password", "weakweak")
    fill(card, "Confirm password", "weakweak")
    submit()
    await waitFor(() => expect(within(card).getAllByRole("listitem").map((item) => item.textContent)).toContain("One uppercase letter"))

    fill(card, "Password", PASSWORD)
    fill(card, "Confirm password", PASSWORD)
    fill(card, "Name (optional)", "Ada L.")
    submit()
    await methodsStat("Email + Google")
    expect(server.calls("POST /api/auth/link-email").at(-1)?.body).toEqual({ email: "ada@example.com", password: PASSWORD, name: "Ada L." })
    await waitFor(() => expect(within(methodsCard()).getByRole("link", { name: "Change password" })).toBeTruthy())
  })
})
