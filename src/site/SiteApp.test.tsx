import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { beforeEach, describe, expect, it, vi } from "vitest"

import { configureApi } from "~site-session/site-client"
import { teardownSession, useSession } from "~site-session/session-store"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { SiteApp } from "./SiteApp"

const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const admin: User = { ...member, name: "Grace Hopper", email: "grace@example.com", role: "admin" }

function signIn(user: User) {
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "token")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
}

function renderAt(path: string) {
  return render(<SiteApp router="memory" initialPath={path} />)
}

const heading = (name: string | RegExp) => screen.findByRole("heading", { level: 1, name })

/** These tests are about routing: every API call finds no server behind it. */
const noServer: typeof fetch = async () => new Response(JSON.stringify({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: "No server in this test" } }), { status: 503 })

beforeEach(() => {
  teardownSession()
  configureApi({ baseUrl: "http://api.test", fetch: noServer })
  useSession.setState({ status: "loading", user: null })
  vi.spyOn(window, "scrollTo").mockImplementation(() => {})
})

describe("the route table", () => {
  it("renders the landing page with its hero links and the #features section", async () => {
    renderAt("/")
    await heading(/Understand every image on the web/)
    expect(screen.getByRole("link", { name: "Install Extension" }).getAttribute("href")).toBe("/register")
    expect(screen.getByRole("link", { name: "View Pricing" }).getAttribute("href")).toBe("/pricing")
    const features = document.getElementById("features")
    expect(features).not.toBeNull()
    for (const feature of [
      "Image detection on any webpage",
      "AI visual question answering",
      "Face detection and recognition",
      "Text extraction (OCR)",
      "Object and scene recognition",
      "Private and secure analysis"
    ]) {
      expect(within(features!).getByRole("heading", { name: feature })).toBeTruthy()
    }
  })

  it.each([
    ["/pricing", "Pricing"],
    ["/blog", "Blog"],
    // The post comes from the API, which these tests leave without a server.
    ["/blog/how-ocr-works", "This post could not be loaded"],
    ["/image-query", "Image Query AI"],
    ["/terms", "Terms of Service"],
    ["/privacy", "Privacy Policy"],
    ["/about", "About Image Query AI"],
    ["/help", "Help Center"],
    ["/cookies", "Cookie Policy"],
    ["/status", "System Status"],
    ["/login", "Sign in"],
    ["/register", "Create your account"],
    ["/verify-email", "Verify your email"],
    ["/reset-password", "Reset your password"],
    ["/payment?plan=pro&annual=true", "Payment: Pro plan"]
  ])("registers the public route %s", async (path, title) => {
    renderAt(path)
    await heading(title)
  })

  it.each(["/payment", "/payment?plan=gold&annual=false"])("sends %s with an unknown or missing plan back to /pricing", async (path) => {
    renderAt(path)
    await heading("Pricing")
  })

  it.each(["/nope", "/dashboard/extra"])(
    "shows the not-found page with Go back and Go home for %s",
    async (path) => {
      signIn(admin)
      renderAt(path)
      await heading("Page not found")
      expect(screen.getByRole("button", { name: "Go back" })).toBeTruthy()
      expect(screen.getByRole("link", { name: "Go home" }).getAttribute("href")).toBe("/")
    }
  )

  it("goes home from the not-found page", async () => {
    renderAt("/nope")
    await heading("Page not found")
    fireEvent.click(screen.getByRole("link", { name: "Go home" }))
    await heading(/Understand every image/)
  })

  it("Go back with no earlier page of the site goes home", async () => {
    renderAt("/nope")
    await heading("Page not found")
    fireEvent.click(screen.getByRole("button", { name: "Go back" }))
    await heading(/Understand every image/)
  })

  it("redirects /app to /dashboard, and a visitor on to the login page", async () => {
    renderAt("/app")
    await heading("Sign in")
  })

  it("redirects /app to the dashboard of a signed-in user", async () => {
    signIn(member)
    renderAt("/app")
    await heading("Dashboard")
  })

  it("forwards an e-mail verification link from the landing page to /verify-email", async () => {
    renderAt("/?mode=verifyEmail&oobCode=abc&apiKey=k&lang=en")
    await heading("Verify your email")
  })

  it("forwards a password reset link from the landing page to /reset-password", async () => {
    renderAt("/?mode=resetPassword&oobCode=abc")
    await heading("Reset your password")
  })
})

describe("the route guard", () => {
  it.each(["/dashboard", "/organization", "/change-password", "/admin", "/admin/password-policy", "/admin/feedback"])(
    "sends a visitor from %s to the login page",
    async (path) => {
      renderAt(path)
      await heading("Sign in")
    }
  )

  it.each(["/admin", "/admin/password-policy", "/admin/feedback"])("sends a user without the admin role from %s home", async (path) => {
    signIn(member)
    renderAt(path)
    await heading(/Understand every image/)
  })

  it.each([
    ["/admin", "Admin Dashboard"],
    ["/admin/password-policy", "Password Policy"],
    ["/admin/feedback", "Feedback"],
    ["/dashboard", "Dashboard"],
    ["/change-password", "Change password"]
  ])("lets an admin into %s", async (path, title) => {
    signIn(admin)
    renderAt(path)
    await heading(title)
  })

  it("treats a stored user without a token as signed out", async () => {
    window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(member))
    renderAt("/dashboard")
    await heading("Sign in")
  })
})

describe("the shell", () => {
  it("has the main navigation, with Features as the landing page's anchor", async () => {
    renderAt("/pricing")
    await heading("Pricing")
    const nav = screen.getByRole("navigation", { name: "Main" })
    const links = within(nav).getAllByRole("link")
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Home", "/"],
      ["Features", "/#features"],
      ["Pricing", "/pricing"],
      ["Blog", "/blog"]
    ])
  })

  it("offers Login and Sign up to a visitor, and the same items in the mobile menu", async () => {
    renderAt("/")
    await heading(/Understand every image/)
    expect(screen.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/login")
    expect(screen.getByRole("link", { name: "Sign up" }).getAttribute("href")).toBe("/register")

    const toggle = screen.getByRole("button", { name: "Open menu" })
    expect(toggle.getAttribute("aria-expanded")).toBe("false")
    fireEvent.click(toggle)
    const mobile = screen.getByRole("navigation", { name: "Mobile" })
    expect(within(mobile).getAllByRole("link").map((link) => link.textContent)).toEqual([
      "Home",
      "Features",
      "Pricing",
      "Blog",
      "Login",
      "Sign up"
    ])
    expect(screen.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true")

    fireEvent.click(within(mobile).getByRole("link", { name: "Pricing" }))
    await heading("Pricing")
    expect(screen.queryByRole("navigation", { name: "Mobile" })).toBeNull()
  })

  it.each([
    [member, "Free plan"],
    [{ ...member, subscription: { plan: { id: "pro" as const, name: "Pro" }, status: "active" } }, "Pro plan"],
    [{ ...member, subscription: { plan: { id: "enterprise" as const, name: "Enterprise" }, status: "canceled" } }, "Free plan"]
  ])("shows a signed-in user's plan from the user object in the mobile menu (%#)", async (user, label) => {
    signIn(user)
    renderAt("/")
    await heading(/Understand every image/)
    fireEvent.click(await screen.findByRole("button", { name: "Open menu" }))
    expect(within(screen.getByRole("navigation", { name: "Mobile" }).parentElement!).getByText(label)).toBeTruthy()
  })

  it("has the footer groups, tagline, social links and this year's copyright", async () => {
    renderAt("/about")
    await heading("About Image Query AI")
    const footer = screen.getByRole("contentinfo")
    const group = (name: string) =>
      within(within(footer).getByRole("navigation", { name })).getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")])
    expect(group("Company")).toEqual([
      ["About", "/about"],
      ["Blog", "/blog"]
    ])
    expect(group("Legal")).toEqual([
      ["Privacy Policy", "/privacy"],
      ["Terms of Service", "/terms"],
      ["Cookie Policy", "/cookies"]
    ])
    expect(group("Support")).toEqual([
      ["Help Center", "/help"],
      ["Status", "/status"]
    ])
    expect(within(footer).getByText("See more in every image on the web.")).toBeTruthy()
    const social = within(footer).getByRole("list", { name: "Social links" })
    expect(within(social).getAllByRole("link")).toHaveLength(4)
    for (const link of within(social).getAllByRole("link")) {
      expect(link.getAttribute("rel")).toBe("noopener noreferrer")
    }
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Image Query AI. All rights reserved.`)).toBeTruthy()
  })

  it("scrolls to the top on every path change", async () => {
    renderAt("/")
    await heading(/Understand every image/)
    const scrollTo = vi.mocked(window.scrollTo)
    scrollTo.mockClear()
    fireEvent.click(within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Pricing" }))
    await heading("Pricing")
    // The scroll is an effect of the new location, which React may run after the page is on screen.
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0))
    scrollTo.mockClear()
    fireEvent.click(within(screen.getByRole("contentinfo")).getByRole("link", { name: "Status" }))
    await heading("System Status")
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0))
  })

  it("scrolls to the features section for the Features link", async () => {
    renderAt("/pricing")
    await heading("Pricing")
    const scrollIntoView = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(() => {})
    fireEvent.click(within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name: "Features" }))
    await heading(/Understand every image/)
    await waitFor(() => expect(scrollIntoView).toHaveBeenCalled())
    expect((scrollIntoView.mock.contexts[0] as Element).id).toBe("features")
  })

  it("sets the document title per page", async () => {
    renderAt("/pricing")
    await heading("Pricing")
    await waitFor(() => expect(document.title).toBe("Pricing · Image Query AI"))
  })
})

describe("the loading state", () => {
  it("shows a spinner on a guarded page while the session is loading", async () => {
    const restore = useSession.getState().restore
    useSession.setState({ restore: () => {} })
    try {
      renderAt("/dashboard")
      expect(await screen.findByRole("status")).toBeTruthy()
      expect(screen.getByText("Checking your session")).toBeTruthy()
      act(() => useSession.setState({ status: "loggedIn", user: member }))
      await heading("Dashboard")
    } finally {
      useSession.setState({ restore })
    }
  })
})
