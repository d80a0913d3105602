import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { fireEvent, render, screen, within } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { afterEach, describe, expect, it } from "vitest"

import { configureApi } from "~site-session/site-client"
import { useSession } from "~site-session/session-store"
import { fail, ok } from "~core/api-answer"
import { createDefaultPasswordPolicy } from "~core/password-policy"

import AdminPage, { ADMIN_LINKS } from "./AdminPage"
import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { FeedbackImage, FeedbackImageProvider } from "./feedback-images"
import PasswordPolicyPage from "./password-policy/PasswordPolicyPage"
import { policyFileContent, readPolicyFile } from "./policy-file"

describe("the admin dashboard", () => {
  afterEach(() => useSession.setState({ user: null }))

  it("tells a signed-in non-admin that access is denied and leads back to the dashboard", () => {
    useSession.setState({ user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" } })
    render(
      <MemoryRouter>
        <AdminPage />
      </MemoryRouter>
    )
    expect(screen.getByRole("heading", { name: "Access Denied" })).toBeTruthy()
    expect(screen.getByText("You don't have permission to access the admin panel.")).toBeTruthy()
    expect(screen.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe("/dashboard")
  })

  it("links each Quick Overview figure to the page it summarises", async () => {
    const api = createFakeApi([
      [
        "GET /api/admin/overview",
        () =>
          answer({
            users: { total: 1200, admins: 2, verified: 1100, newLast30Days: 40 },
            policies: { enabledRules: 6, customRules: 1 },
            violations: { last30Days: 3 },
            feedback: { all: 5, pending: 1, replied: 3, closed: 1 },
            billing: { subscribers: { pro: 30, enterprise: 2 }, trialing: 4, pastDue: 1, monthlyRecurringRevenue: 1234.5 },
            health: { percent: 100, checks: { database: { ok: true } } }
          })
      ]
    ])
    resetSiteForTest(api.fetch)
    useSession.setState({ status: "loggedIn", user: { name: "Ada", email: "ada@example.com", role: "admin", provider: "email" } })
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <AdminPage />
        </MemoryRouter>
      </QueryClientProvider>
    )
    const overview = within(await screen.findByRole("region", { name: "Quick Overview" }))
    await overview.findByText("1,200")
    const targets = Object.fromEntries(overview.getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")]))
    expect(targets).toEqual({
      Users: "/admin/users",
      Policies: "/admin/password-policy",
      Violations: "/admin/security",
      Subscribers: "/admin/billing",
      MRR: "/admin/billing",
      Health: "/status"
    })
  })

  it("tells an admin without two-step sign-in, when the server asks for it, how to turn it on, and asks only once", async () => {
    const message = "Turn on two-step sign-in on your dashboard to use the admin panel."
    const api = createFakeApi([["GET /api/admin/overview", () => refuse(403, "MFA_ENROLLMENT_REQUIRED", message)]])
    resetSiteForTest(api.fetch)
    useSession.setState({ status: "loggedIn", user: { name: "Ada", email: "ada@example.com", role: "admin", provider: "email" } })
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <AdminPage />
        </MemoryRouter>
      </QueryClientProvider>
    )
    expect(await screen.findByRole("heading", { name: "Two-step sign-in required" })).toBeTruthy()
    expect(screen.getByText(message)).toBeTruthy()
    expect(screen.getByRole("link", { name: "Set up two-step sign-in" }).getAttribute("href")).toBe("/dashboard#two-step")
    // The admin areas are not offered: each would be refused alike.
    expect(screen.queryByRole("link", { name: /Users/ })).toBeNull()
    expect(api.calls("GET /api/admin/overview")).toHaveLength(1)
  })

  it("links the seven admin areas", () => {
    expect(ADMIN_LINKS.map((link) => link.to)).toEqual([
      "/admin/password-policy",
      "/admin/feedback",
      "/admin/users",
      "/admin/analytics",
      "/admin/content",
      "/admin/billing",
      "/admin/security"
    ])
  })
})

describe("policy files", () => {
  it("reads back an exported policy", async () => {
    const policy = createDefaultPasswordPolicy()
    policy.rules.minLength.value = 12
    expect(await readPolicyFile(new Blob([policyFileContent(policy)]))).toEqual({ ok: true, policy })
  })

  it("refuses a file that is not JSON or not a policy, saying why", async () => {
    const notJson = await readPolicyFile(new Blob(["{ rules: "]))
    expect(notJson.ok).toBe(false)
    expect(!notJson.ok && notJson.problems[0]).toMatch(/^The file is not valid JSON/)

    const policy = createDefaultPasswordPolicy()
    const broken = await readPolicyFile(new Blob([JSON.stringify({ ...policy, rules: { ...policy.rules, maxLength: { ...policy.rules.maxLength, value: 4 } }, extra: true })]))
    expect(broken.ok).toBe(false)
    expect(!broken.ok && broken.problems.join("\n")).toMatch(/rules\.maxLength\.value: Maximum length must be at least 8/)
    expect(!broken.ok && broken.problems.join("\n")).toMatch(/extra/)
  })
})

describe("feedback images", () => {
  afterEach(() => configureApi({}))

  it("fetches with the stored token and shows 'Image unavailable' when the image cannot be had", async () => {
    const seen: (string | null)[] = []
    window.localStorage.setItem("authToken", "admin-token")
    configureApi({
      baseUrl: "http://api.test",
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init)
        seen.push(request.headers.get("authorization"))
        return new Response(JSON.stringify(fail("NOT_FOUND", "This image does not exist.")), { status: 404, headers: { "content-type": "application/json" } })
      }
    })
    render(
      <FeedbackImageProvider>
        <FeedbackImage url="/api/feedback-images/0123456789abcdef0123456789abcdef.png" alt="Attached image 1" />
      </FeedbackImageProvider>
    )
    expect(await screen.findByText("Image unavailable")).toBeTruthy()
    expect(seen).toEqual(["Bearer admin-token"])
  })
})

describe("the password policy screen", () => {
  afterEach(() => configureApi({}))

  it("asks for name, message and error code of a custom rule, then saves the rule through PUT config", async () => {
    const policy = createDefaultPasswordPolicy()
    const puts: unknown[] = []
    const view = (config: typeof policy) => ({
      config: { rules: config.rules, customRules: config.customRules, strictMode: config.strictMode },
      messages: config.messages,
      options: { strictMode: config.strictMode, allowOverride: config.allowOverride, logViolations: config.logViolations, rateLimitAttempts: config.rateLimitAttempts, lockoutDuration: config.lockoutDuration }
    })
    configureApi({
      baseUrl: "http://api.test",
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init)
        let body = view(policy)
        if (request.method === "PUT") {
          const sent = (await request.json()) as { config: { customRules: typeof policy.customRules } }
          puts.push(sent)
          body = view({ ...policy, customRules: sent.config.customRules })
        }
        return new Response(JSON.stringify(ok(body)), { status: 200, headers: { "content-type": "application/json" } })
      }
    })
    render(
      <QueryClientProvider client={new QueryClient()}>
        <PasswordPolicyPage />
      </QueryClientProvider>
    )
    const form = await screen.findByRole("form", { name: "Add a custom rule" })
    fireEvent.click(within(form).getByRole("button", { name: "Add rule" }))
    expect(await within(form).findByText("Name, message, and error code are required")).toBeTruthy()

    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "No company name" } })
    fireEvent.change(within(form).getByLabelText("Error code"), { target: { value: "password_has_company" } })
    fireEvent.change(within(form).getByLabelText("Message"), { target: { value: "Password must not contain the company name" } })
    fireEvent.change(within(form).getByLabelText("Regular expression"), { target: { value: "(a+)+" } })
    fireEvent.change(within(form).getByLabelText("The password"), { target: { value: "mustNotMatch" } })
    fireEvent.click(within(form).getByRole("button", { name: "Add rule" }))
    expect(await within(form).findByText(/Unsafe or invalid regular expression/)).toBeTruthy()
    expect(puts).toHaveLength(0)

    fireEvent.change(within(form).getByLabelText("Regular expression"), { target: { value: "imagequery" } })
    fireEvent.click(within(form).getByRole("button", { name: "Add rule" }))
    expect(await screen.findByText('Custom rule "No company name" added.')).toBeTruthy()
    expect(puts).toHaveLength(1)
    expect((puts[0] as { config: { customRules: unknown[] } }).config.customRules).toEqual([
      {
        id: "custom-no-company-name",
        name: "No company name",
        errorCode: "PASSWORD_HAS_COMPANY",
        message: "Password must not contain the company name",
        regex: "imagequery",
        mode: "mustNotMatch",
        enabled: true,
        required: true
      }
    ])
    expect(screen.getByRole("button", { name: "Remove custom rule No company name" })).toBeTruthy()
  })
})
