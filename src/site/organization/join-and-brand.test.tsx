/**
 * The invitation link, /organization/join?code=…: a signed-in invitee accepts and lands on the organisation's page;
 * a refusal is shown in the server's words; a visitor signs in (or registers) and comes back to accept. The brand
 * editor: the preview of the side panel header follows the colour typed or picked and the logo chosen, and saving
 * sends only what changed.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import { teardownSession, useSession } from "~site-session/session-store"

import { answer, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { ADA, acmeWorld, ALAN, createOrganizationServer, openAs, region, type World } from "./organization-test-kit"

afterEach(() => teardownSession())

const CODE = "inv_Abc123"
const JOIN = `/organization/join?code=${CODE}`

/** Alan, invited to Acme, not in it yet. */
const invitedWorld = (): World => ({ ...acmeWorld(ALAN), organization: null, invitations: [], activity: [] })

/** The server's accept: with the right code, Alan is in Acme (its three members, him included). */
function acceptInto(world: World) {
  return (request: { body: unknown }) => {
    if ((request.body as { code: string }).code !== CODE) return refuse(404, "NOT_FOUND", "This invitation does not exist.")
    world.organization = acmeWorld(ALAN).organization
    return answer({ ...world.organization, role: "member" })
  }
}

describe("the invitation's page", () => {
  it("accepts for a signed-in invitee and opens the organisation's page", async () => {
    const world = invitedWorld()
    const server = openAs(world, JOIN)
    server.on("POST /api/organizations/invitations/accept", acceptInto(world))
    expect(await screen.findByText("alan@example.com")).toBeTruthy()
    // The profile fetched after the session's restore, before accepting: in no organisation yet.
    await waitFor(() => expect(server.calls("GET /api/auth/profile")).toHaveLength(1), { timeout: 3000 })
    expect(useSession.getState().user?.organization).toBeNull()
    fireEvent.click(screen.getByRole("button", { name: "Accept invitation" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Acme" })).toBeTruthy()
    expect(screen.getByText("Your role: Member · 3 members")).toBeTruthy()
    expect(server.calls("POST /api/organizations/invitations/accept").map((request) => request.body)).toEqual([{ code: CODE }])
    // The stored user now carries the membership and its brand, which the extension follows.
    await waitFor(() => expect(useSession.getState().user?.organization).toMatchObject({ name: "Acme", role: "member", brand: { accentColor: "#1d4ed8" } }))
  })

  it.each([
    [403, "INVITATION_NOT_FOR_YOU", "This invitation was sent to another address.", "Sign out, then sign in with the address the invitation was sent to."],
    [409, "CANCEL_SUBSCRIPTION_FIRST", "You pay for a plan of your own: cancel it first.", "Cancel it from your dashboard, then open this link again once it has ended."],
    [410, "INVITATION_EXPIRED", "This invitation has expired. Ask for a new one.", null]
  ])("shows a %i %s refusal in the server's words, and stays", async (status, code, message, help) => {
    const server = openAs(invitedWorld(), JOIN)
    server.on("POST /api/organizations/invitations/accept", () => refuse(status, code, message))
    fireEvent.click(await screen.findByRole("button", { name: "Accept invitation" }))
    expect((await screen.findByRole("alert")).textContent).toBe(message)
    if (help) expect(screen.getByText((_, element) => element?.tagName === "P" && element.textContent === help)).toBeTruthy()
    expect(screen.getByRole("heading", { level: 1, name: "Join an organisation" })).toBeTruthy()
  })

  it("says so when the link has no code", async () => {
    openAs(invitedWorld(), "/organization/join")
    expect(await screen.findByText(/This link has no invitation code/)).toBeTruthy()
    expect(screen.queryByRole("button", { name: "Accept invitation" })).toBeNull()
  })

  it("sends a visitor to sign in, through the registration page too, and back to accept", async () => {
    const world = invitedWorld()
    const server = createOrganizationServer(world)
    server.on("POST /api/auth/login", () =>
      answer({ user: { name: ALAN.name, email: ALAN.email, role: "user", provider: "email" }, token: "access-1", refreshToken: "refresh-1" })
    )
    server.on("POST /api/organizations/invitations/accept", acceptInto(world))
    resetSiteForTest(server.fetch)
    render(<SiteApp router="memory" initialPath={JOIN} />)

    fireEvent.click(await screen.findByRole("link", { name: "Create an account" }))
    await screen.findByRole("heading", { level: 1, name: "Create your account" })
    fireEvent.click(screen.getByRole("link", { name: "Sign in" }))
    await screen.findByRole("heading", { level: 1, name: "Sign in" })
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: ALAN.email } })
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "Blue-Harbor-42!" } })
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))

    fireEvent.click(await screen.findByRole("button", { name: "Accept invitation" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Acme" })).toBeTruthy()
  })
})

describe("the brand editor", () => {
  const header = () => within(region("Brand")).getByTestId("brand-preview-header")

  it("previews the accent colour as it is typed or picked, and saves only what changed", async () => {
    const server = openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    const brand = region("Brand")
    expect(header().style.backgroundColor).toBe("#1d4ed8")
    expect(header().style.color).toBe("#ffffff")

    const colour = within(brand).getByLabelText("Accent colour")
    fireEvent.change(colour, { target: { value: "#FDE68A" } })
    expect(header().style.backgroundColor).toBe("#fde68a")
    // A light colour takes black text, as the extension's header does.
    expect(header().style.color).toBe("#000000")
    // Unfinished, the preview keeps the saved colour.
    fireEvent.change(colour, { target: { value: "#12" } })
    expect(header().style.backgroundColor).toBe("#1d4ed8")
    fireEvent.click(within(brand).getByRole("button", { name: "Save brand" }))
    expect(await within(brand).findByText(/Write the colour as # and six hexadecimal digits/)).toBeTruthy()

    fireEvent.change(within(brand).getByLabelText("Pick the accent colour"), { target: { value: "#0f766e" } })
    expect((colour as HTMLInputElement).value).toBe("#0f766e")
    expect(header().style.backgroundColor).toBe("#0f766e")

    fireEvent.change(within(brand).getByLabelText("Display name"), { target: { value: "Acme Research" } })
    expect(within(brand).getByTestId("brand-preview-name").textContent).toBe("Acme Research")
    fireEvent.click(within(brand).getByRole("button", { name: "Save brand" }))
    expect(await within(brand).findByText("The brand is saved.")).toBeTruthy()
    expect(server.calls("PATCH /api/organizations/current").map((request) => request.body)).toEqual([{ name: "Acme Research", accentColor: "#0f766e" }])
    expect(await screen.findByRole("heading", { level: 1, name: "Acme Research" })).toBeTruthy()

    // Emptied, the header is the product's own white one, and the colour is cleared.
    fireEvent.change(colour, { target: { value: "" } })
    expect(header().style.backgroundColor).toBe("")
    fireEvent.click(within(brand).getByRole("button", { name: "Save brand" }))
    await waitFor(() => expect(server.calls("PATCH /api/organizations/current").at(-1)?.body).toEqual({ accentColor: null }))
  })

  it("refuses a logo of another type or too large in words, previews a good one and uploads it as the field logo", async () => {
    const server = openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    const brand = region("Brand")
    const input = within(brand).getByLabelText("Logo")
    expect(within(brand).getByText(/PNG, JPEG or WebP, at most 256 KB/)).toBeTruthy()

    fireEvent.change(input, { target: { files: [new File(["GIF89a"], "logo.gif", { type: "image/gif" })] } })
    expect(await within(brand).findByText("The logo must be a PNG, JPEG or WebP image.")).toBeTruthy()
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(300 * 1024)], "big.png", { type: "image/png" })] } })
    expect(await within(brand).findByText("The logo is 300 KB: it must be at most 256 KB.")).toBeTruthy()
    expect(within(brand).queryByTestId("brand-preview-logo")).toBeNull()

    fireEvent.change(input, { target: { files: [new File([new Uint8Array(2048)], "acme.png", { type: "image/png" })] } })
    expect((await within(brand).findByTestId("brand-preview-logo")).getAttribute("src")).toMatch(/^blob:/)
    fireEvent.click(within(brand).getByRole("button", { name: "Upload logo" }))
    expect(await within(brand).findByText(/The logo is uploaded/)).toBeTruthy()
    const sent = server.calls("PUT /api/organizations/current/logo")
    expect(sent).toHaveLength(1)
    const logo = (sent[0]!.body as FormData).get("logo") as File
    expect([logo.name, logo.size]).toEqual(["acme.png", 2048])
    await waitFor(() => expect(within(brand).getByTestId("brand-preview-logo").getAttribute("src")).toBe("/api/organizations/org-1/logo?v=2"))
  })
})
