/**
 * The organisation page's "Single sign-on" card through the whole app with the fake API: the owner tests settings
 * (the provider's words, nothing saved), saves them with the enforcement choice (the secret never shown again, the
 * provider's refusal in words), and turns single sign-on off after confirming; an admin reads; a member sees no card.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"

import { ADA, ALAN, acmeWorld, GRACE, openAs, region, VERIFIED_AT, type World } from "./organization-test-kit"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const CARD = "Single sign-on"
const card = () => region(CARD)
const form = () => within(card()).getByRole("form", { name: "Identity provider" })
const type = (label: string, value: string) => fireEvent.change(within(form()).getByLabelText(label), { target: { value } })

async function openCard(world: World) {
  const server = openAs(world)
  await screen.findByRole("heading", { level: 1, name: "Acme" })
  await waitFor(() => expect(within(card()).getByText(/Redirect address to register/)).toBeTruthy())
  return server
}

describe("the owner's single sign-on", () => {
  it("tests settings without saving them, then saves them with enforcement; the secret is not shown again", async () => {
    const world = acmeWorld(ADA)
    const server = await openCard(world)
    expect(within(card()).getByText(`${window.location.origin}/api/auth/sso/callback`)).toBeTruthy()
    fireEvent.click(within(form()).getByRole("button", { name: "Test" }))
    expect((await within(form()).findByRole("alert")).textContent).toBe("Enter the issuer your provider gave you.")
    type("Issuer", "https://login.acme.example")
    type("Client ID", "iqa-client")
    type("Client secret", "s3cret")
    fireEvent.click(within(form()).getByRole("button", { name: "Test" }))
    expect(await within(form()).findByText(/The provider answered as https:\/\/login.acme.example; people sign in at https:\/\/login.acme.example\/authorize/)).toBeTruthy()
    expect(server.calls("PUT /api/organizations/current/sso")).toEqual([])

    fireEvent.click(within(form()).getByRole("checkbox", { name: /Require single sign-on/ }))
    fireEvent.click(within(form()).getByRole("button", { name: "Save" }))
    await waitFor(() => expect(within(card()).getByText(/sign in through https:\/\/login.acme.example, and only that way/)).toBeTruthy())
    expect(server.calls("PUT /api/organizations/current/sso").map((request) => request.body)).toEqual([{ issuer: "https://login.acme.example", clientId: "iqa-client", clientSecret: "s3cret", enforced: true }])
    expect(within(form()).getByLabelText<HTMLInputElement>("Client secret").value).toBe("")
    expect(within(form()).getByLabelText<HTMLInputElement>("Issuer").value).toBe("https://login.acme.example")
  })

  it("says the provider's refusal in words, and turns single sign-on off after confirming", async () => {
    const world = { ...acmeWorld(ADA), sso: { configured: true, issuer: "https://login.acme.example", clientId: "iqa-client", enforced: false, updatedAt: VERIFIED_AT } }
    const server = await openCard(world)
    type("Client secret", "wrong")
    fireEvent.click(within(form()).getByRole("button", { name: "Save" }))
    expect((await within(form()).findByRole("alert")).textContent).toContain("could not be read from https://login.acme.example: invalid_client")
    fireEvent.click(within(card()).getByRole("button", { name: "Turn off single sign-on" }))
    fireEvent.click(await screen.findByRole("button", { name: "Turn it off" }))
    await waitFor(() => expect(within(card()).getByText(/Let your people sign in with your company's identity provider/)).toBeTruthy())
    expect(server.calls("DELETE /api/organizations/current/sso")).toHaveLength(1)
  })
})

describe("single sign-on for others", () => {
  it("is read by an admin without the form, and not shown to a member", async () => {
    await openCard({ ...acmeWorld(GRACE), sso: { configured: true, issuer: "https://login.acme.example", clientId: "iqa-client", enforced: true, updatedAt: VERIFIED_AT } })
    expect(within(card()).getByText(/sign in through https:\/\/login.acme.example, and only that way/)).toBeTruthy()
    expect(within(card()).getByText("The owner sets up single sign-on.")).toBeTruthy()
    expect(within(card()).queryByRole("form")).toBeNull()
    teardownSession()
    document.body.innerHTML = ""
    openAs(acmeWorld(ALAN))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    expect(screen.queryByRole("region", { name: CARD })).toBeNull()
  })
})
