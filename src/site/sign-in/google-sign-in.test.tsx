/**
 * Component tests of Google sign-in through Firebase on the site, rendered through the whole app: the login and
 * register buttons, the terms for a new Google user, extension mode, the start-up exchange and logout. The test
 * doubles are the network (the fake API) and the Google popup the web build provides (~site-session/google-popup), here a double.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { configureExtensionNotifier } from "~site-session/extension-notifier"
import { POPUP_BLOCKED_MESSAGE } from "~site-session/error-messages"
import { FIREBASE_USED_KEY } from "~site-session/firebase-setup"
import { provideGooglePopup } from "~site-session/google-popup"
import { LOGOUT_SUCCESS_MESSAGE, teardownSession, useSession } from "~site-session/session-store"
import { PROVIDER_REFRESH_INTERVAL_MS } from "~site-session/token-monitor"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { TERMS_AGREEMENT_LABEL } from "~site/shared/legal/TermsModal"

import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { GOOGLE_ON_SITE_NOTE } from "./GoogleSignInButton"
import { SiteApp } from "../SiteApp"

const googlePopupDouble = { preload: vi.fn(), signIn: vi.fn(), currentIdToken: vi.fn(), signOut: vi.fn() }
const { signIn: signInWithGoogle, currentIdToken, signOut: signOutFirebase } = googlePopupDouble
provideGooglePopup(googlePopupDouble)

const googleUser: User = { name: "Grace Hopper", email: "grace@example.com", role: "user", provider: "google", providerId: "firebase-uid-1" }
const accountUser = { ...googleUser, id: "user-2", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }
const SETUP = { enabled: true, config: { apiKey: "public-key", authDomain: "iqa.example.com", projectId: "iqa-test" }, emulatorUrl: null }
const signInAnswer = (status = 200) => answer({ user: googleUser, token: "access-g", refreshToken: "refresh-g", expiresAt: "2030-01-01T13:00:00.000Z" }, status)

function createFakeServer() {
  return createFakeApi([
    ["GET /api/auth/firebase-config", () => answer(SETUP)],
    ["POST /api/auth/google", () => signInAnswer()],
    ["POST /api/auth/google/accept-terms", () => signInAnswer(201)],
    ["POST /api/auth/logout", () => answer({ loggedOut: true })],
    ["POST /api/auth/logout-all", () => answer({ loggedOut: true })],
    ["POST /api/auth/refresh", () => answer({ token: "access-2", refreshToken: "refresh-2", expiresAt: "2030-01-01T14:00:00.000Z" })],
    ["GET /api/auth/profile", () => answer({ user: accountUser })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })],
    ["GET /api/password-policy/config", () => refuse(503, "SERVICE_UNAVAILABLE", "Unavailable.")]
  ])
}

let server: ReturnType<typeof createFakeServer>

const firebaseError = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code })
const renderAt = (path: string) => render(<SiteApp router="memory" initialPath={path} />)
const heading = (name: string | RegExp) => screen.findByRole("heading", { level: 1, name })
const storedSession = () => [SESSION_STORAGE_KEYS.authToken, SESSION_STORAGE_KEYS.refreshToken, SESSION_STORAGE_KEYS.user].map((key) => window.localStorage.getItem(key))
const toastTexts = () => Array.from(document.querySelectorAll("[data-sonner-toast]"), (item) => item.textContent ?? "")
const findToast = (text: string) => waitFor(() => expect(toastTexts().some((item) => item.includes(text))).toBe(true))

/** The Google button once the server's Firebase settings have arrived. */
async function googleButton(name: string) {
  // Re-queried each time: the loading placeholder is a different element from the working button.
  return waitFor(() => {
    const button = screen.getByRole("button", { name }) as HTMLButtonElement
    expect(button.disabled).toBe(false)
    return button
  })
}

/** The message under the Google button (the e-mail form has its own). */
const googleMessage = async (name: string) => within((await screen.findByRole("button", { name })).parentElement!).findByRole("alert")

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20))
  })
}

beforeEach(() => {
  window.localStorage.clear()
  server = createFakeServer()
  resetSiteForTest(server.fetch)
  vi.mocked(signInWithGoogle).mockReset().mockResolvedValue("google-id-token")
  vi.mocked(currentIdToken).mockReset().mockResolvedValue(null)
  vi.mocked(signOutFirebase).mockReset().mockResolvedValue(undefined)
})

afterEach(() => {
  teardownSession()
  configureExtensionNotifier({})
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe("Continue with Google (login page)", () => {
  it("signs a returning Google user in with the ID token, like the e-mail sign-in, and remembers that Firebase is used", async () => {
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    await heading("Dashboard")
    expect(vi.mocked(signInWithGoogle)).toHaveBeenCalledWith({ config: SETUP.config, emulatorUrl: null })
    expect(server.calls("POST /api/auth/google")).toEqual([expect.objectContaining({ body: { idToken: "google-id-token" } })])
    expect(storedSession()).toEqual(["access-g", "refresh-g", JSON.stringify(googleUser)])
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBe("1")
    await findToast("Successfully logged in!")
  })

  it("shows a new Google user the terms, and accepting sends the same ID token to accept-terms", async () => {
    server.on("POST /api/auth/google", () => refuse(403, "TERMS_NOT_ACCEPTED", "Please accept the terms to create your account."))
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    const dialog = await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })
    // Passed up silently: no message besides the modal.
    expect(screen.queryByRole("alert")).toBeNull()
    expect(server.calls("POST /api/auth/google/accept-terms")).toHaveLength(0)

    fireEvent.click(within(dialog).getByLabelText(TERMS_AGREEMENT_LABEL))
    fireEvent.click(within(dialog).getByRole("button", { name: "Accept and continue" }))
    await heading("Dashboard")
    expect(server.calls("POST /api/auth/google/accept-terms")).toEqual([
      expect.objectContaining({ body: { idToken: "google-id-token", termsAccepted: true, privacyPolicyAccepted: true } })
    ])
    expect(storedSession()[0]).toBe("access-g")
    expect(vi.mocked(signInWithGoogle)).toHaveBeenCalledTimes(1)
  })

  it("declining the terms creates nothing and signs Firebase's user out again", async () => {
    server.on("POST /api/auth/google", () => refuse(403, "TERMS_NOT_ACCEPTED", "Please accept the terms to create your account."))
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    const dialog = await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(server.calls("POST /api/auth/google/accept-terms")).toHaveLength(0)
    expect(vi.mocked(signOutFirebase)).toHaveBeenCalledTimes(1)
    expect(storedSession()).toEqual([null, null, null])
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBeNull()
  })

  it("says so when accepting the terms fails", async () => {
    server.on("POST /api/auth/google", () => refuse(403, "TERMS_NOT_ACCEPTED", "Please accept the terms to create your account."))
    server.on("POST /api/auth/google/accept-terms", () => refuse(500, "INTERNAL_ERROR", "Something broke."))
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    const dialog = await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })
    fireEvent.click(within(dialog).getByLabelText(TERMS_AGREEMENT_LABEL))
    fireEvent.click(within(dialog).getByRole("button", { name: "Accept and continue" }))
    expect((await googleMessage("Continue with Google")).textContent).toBe("Failed to accept terms. Please try again.")
    expect(screen.queryByRole("dialog")).toBeNull()
    expect(storedSession()).toEqual([null, null, null])
  })

  it("stays silent when the user closes the popup, and calls no server", async () => {
    vi.mocked(signInWithGoogle).mockRejectedValue(firebaseError("auth/popup-closed-by-user"))
    renderAt("/login")
    const button = await googleButton("Continue with Google")
    fireEvent.click(button)
    await waitFor(() => expect(vi.mocked(signInWithGoogle)).toHaveBeenCalledTimes(1))
    await waitFor(() => expect(button.disabled).toBe(false))
    await settle()
    expect(screen.queryByRole("alert")).toBeNull()
    expect(toastTexts()).toEqual([])
    expect(server.calls("POST /api/auth/google")).toHaveLength(0)
  })

  it("says how to allow a blocked popup", async () => {
    vi.mocked(signInWithGoogle).mockRejectedValue(firebaseError("auth/popup-blocked"))
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    expect((await googleMessage("Continue with Google")).textContent).toBe(POPUP_BLOCKED_MESSAGE)
  })

  it.each([
    [firebaseError("auth/network-request-failed"), "Connection error. Please check your internet connection and try again."],
    [firebaseError("auth/internal-error"), "Google login failed. Please try again."]
  ])("words Firebase's %s plainly", async (failure, message) => {
    vi.mocked(signInWithGoogle).mockRejectedValue(failure)
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    expect((await googleMessage("Continue with Google")).textContent).toBe(message)
  })

  it("shows the federated text for an unverified Google e-mail", async () => {
    server.on("POST /api/auth/google", () => refuse(403, "EMAIL_NOT_VERIFIED", "Email not verified."))
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    expect((await googleMessage("Continue with Google")).textContent).toBe("Email not verified. Please verify your email before signing in.")
    expect(storedSession()).toEqual([null, null, null])
  })

  it("tells the owner of an e-mail account with that address to sign in with the password and link Google", async () => {
    const message = "An account with this email already exists. Sign in with your password, then link Google from your dashboard."
    server.on("POST /api/auth/google", () => refuse(409, "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL", message))
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    expect((await googleMessage("Continue with Google")).textContent).toBe(message)
    expect(storedSession()).toEqual([null, null, null])
  })

  it("keeps saying 'not configured' when the server has no Firebase project, and never loads Firebase", async () => {
    server.on("GET /api/auth/firebase-config", () => answer({ enabled: false, config: null, emulatorUrl: null }))
    renderAt("/login")
    await heading("Sign in")
    const button = (await screen.findByRole("button", { name: "Continue with Google" })) as HTMLButtonElement
    await screen.findByText("Google sign-in is not configured on this server.")
    expect(button.disabled).toBe(true)
    fireEvent.click(button)
    expect(vi.mocked(signInWithGoogle)).not.toHaveBeenCalled()
  })

  it("in extension mode shows the success message and closes the tab after 2 s, as the e-mail sign-in does", async () => {
    const close = vi.spyOn(window, "close").mockImplementation(() => {})
    const sent: string[] = []
    configureExtensionNotifier({ transport: (message) => void sent.push(message.type) })
    renderAt("/login?source=extension")
    const button = await googleButton("Continue with Google")
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(button)
    await heading("You're signed in")
    expect(storedSession()[0]).toBe("access-g")
    // The extension opens its own session from the same message the e-mail sign-in sends.
    await waitFor(() => expect(sent).toContain("WEBSITE_AUTH_LOGIN"))
    expect(close).not.toHaveBeenCalled()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000)
    })
    expect(close).toHaveBeenCalledTimes(1)
  })
})

describe("Sign up with Google (register page)", () => {
  it("creates the account through the terms modal", async () => {
    server.on("POST /api/auth/google", () => refuse(403, "TERMS_NOT_ACCEPTED", "Please accept the terms to create your account."))
    renderAt("/register")
    fireEvent.click(await googleButton("Sign up with Google"))
    const dialog = await screen.findByRole("dialog", { name: "Terms of Service and Privacy Policy" })
    fireEvent.click(within(dialog).getByLabelText(TERMS_AGREEMENT_LABEL))
    fireEvent.click(within(dialog).getByRole("button", { name: "Accept and continue" }))
    await heading("Dashboard")
    expect(server.calls("POST /api/auth/google/accept-terms")).toHaveLength(1)
  })

  it("names the registration when it fails", async () => {
    server.on("POST /api/auth/google", () => refuse(500, "INTERNAL_ERROR", "Something broke."))
    renderAt("/register")
    fireEvent.click(await googleButton("Sign up with Google"))
    expect((await googleMessage("Sign up with Google")).textContent).toBe("Google registration failed. Please try again.")
  })
})

describe("the session and Firebase", () => {
  it("exchanges the ID token of Firebase's signed-in user on start when there is no local session", async () => {
    window.localStorage.setItem(FIREBASE_USED_KEY, "1")
    vi.mocked(currentIdToken).mockResolvedValue("restored-id-token")
    // The guard waits for the exchange instead of sending the visitor to the login page.
    renderAt("/dashboard")
    await heading("Dashboard")
    expect(server.calls("POST /api/auth/google")).toEqual([expect.objectContaining({ body: { idToken: "restored-id-token" } })])
    expect(storedSession()[0]).toBe("access-g")
  })

  it("signs nobody in on start when Firebase has no user, and forgets it was used", async () => {
    window.localStorage.setItem(FIREBASE_USED_KEY, "1")
    renderAt("/dashboard")
    await heading("Sign in")
    expect(vi.mocked(currentIdToken)).toHaveBeenCalledTimes(1)
    expect(server.calls("POST /api/auth/google")).toHaveLength(0)
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBeNull()
  })

  it("stays signed out on start when the server refuses the identity, and stops trying it at later starts", async () => {
    window.localStorage.setItem(FIREBASE_USED_KEY, "1")
    vi.mocked(currentIdToken).mockResolvedValue("restored-id-token")
    vi.spyOn(console, "warn").mockImplementation(() => {})
    server.on("POST /api/auth/google", () => refuse(403, "TERMS_NOT_ACCEPTED", "Please accept the terms to create your account."))
    renderAt("/dashboard")
    await heading("Sign in")
    expect(server.calls("POST /api/auth/google")).toHaveLength(1)
    expect(screen.queryByRole("dialog")).toBeNull()
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBeNull()
  })

  it("does not touch Firebase on start in a browser that never used Google sign-in", async () => {
    renderAt("/login")
    await heading("Sign in")
    await screen.findByRole("button", { name: "Continue with Google" })
    await settle()
    expect(vi.mocked(currentIdToken)).not.toHaveBeenCalled()
    expect(server.calls("POST /api/auth/google")).toHaveLength(0)
  })

  it("renews the Firebase ID token every 600 s while the Google session lasts", async () => {
    renderAt("/login")
    const button = await googleButton("Continue with Google")
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(button)
    await heading("Dashboard")
    expect(vi.mocked(currentIdToken)).not.toHaveBeenCalled()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROVIDER_REFRESH_INTERVAL_MS)
    })
    await waitFor(() => expect(vi.mocked(currentIdToken)).toHaveBeenCalledWith({ config: SETUP.config, emulatorUrl: null }, { forceRefresh: true }))
  })

  it("logout signs out of Firebase too", async () => {
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    await heading("Dashboard")
    fireEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Sign out everywhere?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }))
    await waitFor(() => expect(vi.mocked(signOutFirebase)).toHaveBeenCalledTimes(1))
    await findToast(LOGOUT_SUCCESS_MESSAGE)
    expect(storedSession()).toEqual([null, null, null])
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBeNull()
  })

  it("reports a failed Firebase sign-out as a logout with issues", async () => {
    renderAt("/login")
    fireEvent.click(await googleButton("Continue with Google"))
    await heading("Dashboard")
    vi.mocked(signOutFirebase).mockRejectedValue(firebaseError("auth/network-request-failed"))
    server.on("POST /api/auth/logout", () => refuse(503, "SERVICE_UNAVAILABLE", "Busy."))
    await act(async () => {
      await useSession.getState().logout()
    })
    await findToast("Logout completed with issues: the Google sign-out failed; the server logout failed")
    expect(storedSession()).toEqual([null, null, null])
    // Forgotten anyway: the next start must not sign the user back in.
    expect(window.localStorage.getItem(FIREBASE_USED_KEY)).toBeNull()
  })
})

describe("in the extension's pages, which cannot open Google's popup", () => {
  beforeEach(() => {
    provideGooglePopup(null)
  })
  afterEach(() => provideGooglePopup(googlePopupDouble))

  it.each([
    ["/login", "Continue with Google"],
    ["/register", "Sign up with Google"]
  ])("on %s, %s continues on the web site's sign-in for the extension", async (path, name) => {
    const open = vi.spyOn(window, "open").mockReturnValue(null)
    renderAt(path)
    const button = await googleButton(name)
    expect(button.getAttribute("aria-describedby")).toBe("google-sign-in-note")
    expect(document.getElementById("google-sign-in-note")?.textContent).toBe(GOOGLE_ON_SITE_NOTE)
    fireEvent.click(button)
    expect(open).toHaveBeenCalledWith("http://api.test/login?source=extension", "_blank", "noopener")
    expect(server.calls("POST /api/auth/google")).toHaveLength(0)
  })

  it("does not exchange a Google identity on start, whatever this browser remembers", async () => {
    window.localStorage.setItem(FIREBASE_USED_KEY, "1")
    renderAt("/login")
    await googleButton("Continue with Google")
    await settle()
    expect(useSession.getState().status).toBe("loggedOut")
    expect(vi.mocked(currentIdToken)).not.toHaveBeenCalled()
  })
})
