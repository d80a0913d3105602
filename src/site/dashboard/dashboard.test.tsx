/**
 * Component tests of the dashboard's session and account actions ("Sign out everywhere", account deletion),
 * rendered through the whole app. The only test double is the network: a fake API answering in the wrapper.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { configureApi } from "~auth/api-client"
import { teardownSession, useSession } from "~auth/session-store"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { toast } from "~ui/toast"

import { answer, createFakeApi, refuse } from "../fake-api"
import { SiteApp } from "../SiteApp"

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }
const PASSWORD = "Blue-Harbor-42!"

function createFakeServer() {
  return createFakeApi([
    ["POST /api/auth/logout", () => answer({ loggedOut: true })],
    ["POST /api/auth/logout-all", () => answer({ loggedOut: true })],
    ["GET /api/auth/profile", () => answer({ user: accountUser })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
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

beforeEach(() => {
  toast.dismiss()
  teardownSession()
  server = createFakeServer()
  configureApi({ baseUrl: "http://api.test", fetch: server.fetch })
  useSession.setState({ status: "loading", user: null, loggingOut: false })
  window.scrollTo = vi.fn() as typeof window.scrollTo
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
    const dialog = await screen.findByRole("dialog", { name: "Sign out everywhere?" })
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
    const dialog = await screen.findByRole("dialog", { name: "Sign out everywhere?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(server.calls("POST /api/auth/logout-all")).toHaveLength(0)
    expect(storedSession()[0]).toBe("access-0")
  })

  it("keeps the user signed in and shows the error when the server refuses", async () => {
    server.on("POST /api/auth/logout-all", () => refuse(503, "SERVICE_UNAVAILABLE", "The service is busy. Please try again."))
    await openDashboard()
    fireEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }))
    const dialog = await screen.findByRole("dialog", { name: "Sign out everywhere?" })
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
})
