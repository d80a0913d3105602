import { render, screen } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { afterEach, describe, expect, it } from "vitest"

import { configureApi } from "~auth/api-client"
import { useSession } from "~auth/session-store"
import { fail } from "~core/api"
import { createDefaultPasswordPolicy } from "~core/password-policy"

import AdminPage, { ADMIN_LINKS } from "./AdminPage"
import { FeedbackImage, FeedbackImageProvider } from "./feedback-images"
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

  it("links the seven admin areas of the spec", () => {
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
        <FeedbackImage url="/api/feedback/images/0123456789abcdef0123456789abcdef.png" alt="Attached image 1" />
      </FeedbackImageProvider>
    )
    expect(await screen.findByText("Image unavailable")).toBeTruthy()
    expect(seen).toEqual(["Bearer admin-token"])
  })
})
