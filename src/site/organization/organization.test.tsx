/**
 * /organization through the whole app with a fake API: the owner sees the pool, the members with their usage and
 * manages them (role change, removal), invites and revokes; a member sees no management controls and leaves; an
 * account in no organisation is offered to create one (Enterprise) or led to the pricing page (Free); the dashboard
 * says whose member one is.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import { teardownSession } from "~site-session/session-store"

import { refuse } from "../fake-api-server"
import { ADA, ALAN, acmeWorld, GRACE, openAs, PENDING, region, type World } from "./organization-test-kit"
import { canManage, poolView } from "./organization-view"

afterEach(() => teardownSession())

/** The members table's rows as [member, role, this month, (two-step sign-in,) actions] texts, as a wide screen shows them. */
function memberRows() {
  const table = within(region("Members")).getByRole("table")
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      [...row.querySelectorAll("th, td")].map((cell) => {
        const wide = cell.cloneNode(true) as Element
        wide.querySelectorAll("[data-narrow-only]").forEach((narrow) => narrow.remove())
        return wide.textContent
      })
    )
}

describe("the owner's organisation page", () => {
  it("shows the pool as a bar, the members with their role and usage, and may act on everyone but themself", async () => {
    openAs(acmeWorld(ADA))
    expect(await screen.findByRole("heading", { level: 1, name: "Acme" })).toBeTruthy()
    expect(screen.getByText("Your role: Owner · 3 members")).toBeTruthy()
    // A narrow screen reads the role and the month's requests under the member's name, their columns hidden.
    expect(within(region("Members")).getByText("Admin · 12 this month · two-step sign-in off")).toBeTruthy()
    expect(within(region("Requests this month")).getByTestId("pool-use").textContent).toBe("55 of 1,000 AI requests used this month")

    expect(memberRows()).toEqual([
      ["Ada Lovelace(you)Pays for the planada@example.com", "Owner", "40", "On", ""],
      ["Grace Hoppergrace@example.com", "Admin", "12", "Off", "Make memberRemove"],
      ["Alan Turingalan@example.com", "Member", "3", "Off", "Make adminRemove"]
    ])
    expect(within(region("Members")).queryByRole("button", { name: "Leave organisation" })).toBeNull()
    expect(within(region("Ownership")).getByRole("button", { name: "Transfer ownership" })).toBeTruthy()
    expect(within(region("Ownership")).getByRole("button", { name: "Delete organisation" })).toBeTruthy()
  })

  it("lists the latest changes in words, newest first", async () => {
    openAs(acmeWorld(ADA))
    const log = await screen.findByRole("list", { name: "Latest changes, newest first" })
    await waitFor(() => expect(within(log).getAllByRole("listitem").map((item) => item.firstChild?.textContent)).toEqual(["Ada Lovelace invited edsger@example.com as member", "Ada Lovelace created Acme"]))
  })

  it("changes a member's role and removes an admin after confirming, refreshing the table from the server", async () => {
    const server = openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })

    fireEvent.click(screen.getByRole("button", { name: "Make admin: Alan Turing" }))
    await waitFor(() => expect(memberRows()[2]?.[1]).toBe("Admin"))
    expect(server.calls(`PATCH /api/organizations/current/members/${ALAN.userId}`).map((request) => request.body)).toEqual([{ role: "admin" }])

    fireEvent.click(screen.getByRole("button", { name: "Remove Grace Hopper" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Remove Grace Hopper from Acme?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove member" }))
    await waitFor(() => expect(memberRows().map((row) => row[0])).toEqual(["Ada Lovelace(you)Pays for the planada@example.com", "Alan Turingalan@example.com"]))
    expect(server.calls(`DELETE /api/organizations/current/members/${GRACE.userId}`)).toHaveLength(1)
    expect(screen.getByText("Your role: Owner · 2 members")).toBeTruthy()
  })

  it("invites by e-mail with a role, says why the server refused one, and revokes a pending invitation", async () => {
    const server = openAs(acmeWorld(ADA))
    const invitations = await screen.findByRole("region", { name: "Invitations" })
    const pending = await within(invitations).findByRole("list", { name: "Pending invitations" })
    expect(within(pending).getByText("edsger@example.com")).toBeTruthy()
    expect(within(pending).getByText("Member · expires 8 January 2030")).toBeTruthy()

    const form = within(invitations).getByRole("form", { name: "Invite a member" })
    fireEvent.change(within(form).getByLabelText("E-mail address"), { target: { value: "not an address" } })
    fireEvent.click(within(form).getByRole("button", { name: "Send invitation" }))
    expect(await within(form).findByText("Enter a valid e-mail address")).toBeTruthy()
    expect(server.calls("POST /api/organizations/current/invitations")).toHaveLength(0)

    fireEvent.change(within(form).getByLabelText("E-mail address"), { target: { value: "grace@example.com" } })
    fireEvent.click(within(form).getByRole("button", { name: "Send invitation" }))
    expect(await within(form).findByText("grace@example.com is already in an organisation.")).toBeTruthy()

    fireEvent.change(within(form).getByLabelText("E-mail address"), { target: { value: " Barbara@Example.com " } })
    fireEvent.change(within(form).getByLabelText("Role"), { target: { value: "admin" } })
    fireEvent.click(within(form).getByRole("button", { name: "Send invitation" }))
    expect(await within(form).findByText("Invitation sent to barbara@example.com.")).toBeTruthy()
    expect(server.calls("POST /api/organizations/current/invitations").at(-1)?.body).toEqual({ email: "barbara@example.com", role: "admin" })
    expect(await within(pending).findByText("barbara@example.com")).toBeTruthy()
    expect(within(pending).getByText("Admin · expires 9 January 2030")).toBeTruthy()

    fireEvent.click(within(pending).getByRole("button", { name: "Revoke the invitation of edsger@example.com" }))
    const dialog = await screen.findByRole("alertdialog")
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke invitation" }))
    await waitFor(() => expect(within(pending).queryByText("edsger@example.com")).toBeNull())
    expect(server.calls(`DELETE /api/organizations/current/invitations/${PENDING.id}`)).toHaveLength(1)
  })

  it("transfers the ownership to the member chosen in the confirmation, and becomes an admin", async () => {
    const server = openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    fireEvent.click(within(region("Ownership")).getByRole("button", { name: "Transfer ownership" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Transfer the ownership" })
    expect((within(dialog).getByRole("button", { name: "Make them the owner" }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(within(dialog).getByLabelText("New owner"), { target: { value: GRACE.userId } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Make Grace Hopper the owner" }))
    expect(await screen.findByText("Your role: Admin · 3 members")).toBeTruthy()
    expect(server.calls("POST /api/organizations/current/transfer").map((request) => request.body)).toEqual([{ userId: GRACE.userId }])
    expect(screen.queryByRole("region", { name: "Ownership" })).toBeNull()
    expect(screen.getByRole("button", { name: "Leave organisation" })).toBeTruthy()
  })

  it("says in the transfer dialog that the plan stays with the owner who pays for it", async () => {
    openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    fireEvent.click(within(region("Ownership")).getByRole("button", { name: "Transfer ownership" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Transfer the ownership" })
    expect(within(dialog).getByText(/Enterprise plan/).textContent).toBe(
      "The new owner manages the organisation and may delete it; you stay in it as an admin. The Enterprise plan stays with you: your subscription still pays for the pool, and while it does you cannot be removed. Only the new owner can give the ownership back."
    )
  })

  it("names in the transfer dialog the former owner who still pays for the plan", async () => {
    // Grace owns Acme now, and Ada still pays for it.
    const world = acmeWorld(GRACE)
    world.organization!.members = [{ ...ADA, role: "admin" }, { ...GRACE, role: "owner" }, { ...ALAN }]
    openAs(world)
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    fireEvent.click(within(region("Ownership")).getByRole("button", { name: "Transfer ownership" }))
    const graces = await screen.findByRole("alertdialog", { name: "Transfer the ownership" })
    expect(within(graces).getByText(/Enterprise plan/).textContent).toContain("The Enterprise plan stays with Ada Lovelace, who still pays for it.")
  })

  it("shows the server's refusal of an invitation sent too often in its words", async () => {
    const server = openAs(acmeWorld(ADA))
    const refusal = "An invitation was sent to edsger@example.com less than a minute ago. You can send it again in 42 seconds."
    server.on("POST /api/organizations/current/invitations", () => refuse(429, "TOO_MANY_REQUESTS", refusal, { retryAfter: 42 }))
    const form = within(await screen.findByRole("region", { name: "Invitations" })).getByRole("form", { name: "Invite a member" })
    fireEvent.change(within(form).getByLabelText("E-mail address"), { target: { value: "edsger@example.com" } })
    fireEvent.click(within(form).getByRole("button", { name: "Send invitation" }))
    expect(await within(form).findByText(refusal)).toBeTruthy()
    expect(within(form).queryByText(/Invitation sent/)).toBeNull()
  })

  it("deletes the organisation after confirming, and then offers to create one", async () => {
    const server = openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    fireEvent.click(within(region("Ownership")).getByRole("button", { name: "Delete organisation" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Delete Acme?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete organisation" }))
    expect(await screen.findByRole("heading", { name: "Create your organisation" })).toBeTruthy()
    expect(server.calls("DELETE /api/organizations/current")).toHaveLength(1)
  })
})

describe("a member's organisation page", () => {
  it("shows the members and the brand without any management control, and leaves after confirming", async () => {
    const server = openAs(acmeWorld(ALAN))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    expect(screen.getByText("Your role: Member · 3 members")).toBeTruthy()
    expect(memberRows()).toEqual([
      ["Ada LovelacePays for the planada@example.com", "Owner", "40"],
      ["Grace Hoppergrace@example.com", "Admin", "12"],
      ["Alan Turing(you)alan@example.com", "Member", "3"]
    ])
    expect(screen.queryByRole("button", { name: /^(Make|Remove)/ })).toBeNull()
    expect(screen.queryByRole("region", { name: "Invitations" })).toBeNull()
    expect(screen.queryByRole("region", { name: "Ownership" })).toBeNull()
    expect(within(region("Brand")).queryByRole("textbox")).toBeNull()
    expect(within(region("Brand")).getByTestId("brand-preview-name").textContent).toBe("Acme")
    expect(server.calls("GET /api/organizations/current/invitations")).toHaveLength(0)

    fireEvent.click(within(region("Members")).getByRole("button", { name: "Leave organisation" }))
    const dialog = await screen.findByRole("alertdialog", { name: "Leave Acme?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Leave organisation" }))
    expect(await screen.findByRole("heading", { name: "Teams come with Enterprise" })).toBeTruthy()
    expect(server.calls(`DELETE /api/organizations/current/members/${ALAN.userId}`)).toHaveLength(1)
  })

  it("lets an admin act on members and other admins, never on the owner nor through the owner's controls", () => {
    expect(canManage("admin", ADA, false)).toBe(false)
    expect(canManage("admin", ALAN, false)).toBe(true)
    expect(canManage("admin", { ...GRACE, userId: "another" }, false)).toBe(true)
    expect(canManage("admin", GRACE, true)).toBe(false)
    expect(canManage("owner", ADA, true)).toBe(false)
    expect(canManage("owner", GRACE, false)).toBe(true)
    expect(canManage("member", ALAN, false)).toBe(false)
  })

  it("writes an unlimited pool as Unlimited, with no share of a bar", () => {
    expect(poolView({ limit: null, used: 1234 })).toEqual({ text: "1,234 AI requests used this month", fraction: null, tone: "normal" })
    expect(poolView({ limit: 100, used: 100 })).toMatchObject({ fraction: 1, tone: "full" })
    expect(poolView({ limit: 100, used: 85 })).toMatchObject({ fraction: 0.85, tone: "high" })
  })
})

describe("no organisation", () => {
  const alone = (plan: World["me"]["plan"]): World => ({ me: { name: "Ada Lovelace", email: "ada@example.com", plan }, organization: null, invitations: [], activity: [] })

  it("offers an Enterprise subscriber to create one, which they then own, its pool Unlimited", async () => {
    const server = openAs(alone("enterprise"))
    const form = await screen.findByRole("form", { name: "Create your organisation" })
    fireEvent.click(within(form).getByRole("button", { name: "Create organisation" }))
    expect(await within(form).findByText("Name the organisation")).toBeTruthy()
    fireEvent.change(within(form).getByLabelText("Organisation name"), { target: { value: "  Acme  " } })
    fireEvent.click(within(form).getByRole("button", { name: "Create organisation" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Acme" })).toBeTruthy()
    expect(server.calls("POST /api/organizations").map((request) => request.body)).toEqual([{ name: "Acme" }])
    expect(screen.getByText("Unlimited")).toBeTruthy()
    expect(screen.getByText("Your role: Owner · 1 member")).toBeTruthy()
  })

  it("tells a Free account what teams are and leads it to the pricing page", async () => {
    const server = openAs(alone("free"))
    const teams = await screen.findByRole("region", { name: "Teams come with Enterprise" })
    expect(within(teams).getByRole("link", { name: "See the Enterprise plan" }).getAttribute("href")).toBe("/pricing")
    expect(screen.queryByRole("form", { name: "Create your organisation" })).toBeNull()
    expect(server.calls("POST /api/organizations")).toHaveLength(0)
  })

  it("shows the server's refusal in words when creating fails", async () => {
    const world = alone("enterprise")
    const server = openAs(world)
    const form = await screen.findByRole("form", { name: "Create your organisation" })
    world.me.plan = "pro"
    fireEvent.change(within(form).getByLabelText("Organisation name"), { target: { value: "Acme" } })
    fireEvent.click(within(form).getByRole("button", { name: "Create organisation" }))
    expect(await within(form).findByText("Organisations come with the Enterprise plan.")).toBeTruthy()
    expect(server.calls("POST /api/organizations")).toHaveLength(1)
  })
})

describe("the dashboard", () => {
  it("says whose member the account is, linking to the organisation's page", async () => {
    openAs(acmeWorld(ALAN), "/dashboard")
    const membership = await screen.findByTestId("membership")
    expect(membership.textContent).toBe("Member of Acme (Member)")
    expect(within(membership).getByRole("link", { name: "Acme" }).getAttribute("href")).toBe("/organization")
    expect(screen.getByRole("link", { name: "Your organisation" }).getAttribute("href")).toBe("/organization")
  })

  it("shows no membership for a profile without one, and links to teams", async () => {
    openAs({ me: { name: "Ada Lovelace", email: "ada@example.com", plan: "free" }, organization: null, invitations: [], activity: [] }, "/dashboard")
    await screen.findByRole("heading", { level: 1, name: "Dashboard" })
    expect(await screen.findByRole("link", { name: "Teams" })).toBeTruthy()
    await waitFor(() => expect(screen.getByText("Member for").nextSibling?.textContent).not.toBe("…"))
    expect(screen.queryByTestId("membership")).toBeNull()
  })
})
