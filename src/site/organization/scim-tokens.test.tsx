/**
 * The organisation page's "Provisioning (SCIM)" card through the whole app with the fake API: the owner reads the SCIM
 * address, creates a token (its secret shown once, copyable) and revokes one after confirming; an admin reads the list
 * without the owner's buttons.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"

import { ADA, acmeWorld, GRACE, openAs, region, VERIFIED_AT, type World } from "./organization-test-kit"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const CARD = "Provisioning (SCIM)"
const card = () => region(CARD)

async function openCard(world: World) {
  const server = openAs(world)
  await screen.findByRole("heading", { level: 1, name: "Acme" })
  await waitFor(() => expect(within(card()).getByText("SCIM base address")).toBeTruthy())
  return server
}

describe("the owner's SCIM tokens", () => {
  it("creates a token shown once, lists it, and revokes it after confirming", async () => {
    const server = await openCard(acmeWorld(ADA))
    expect(within(card()).getByText(`${window.location.origin}/scim/v2`)).toBeTruthy()
    expect(within(card()).getByText("No SCIM token yet.")).toBeTruthy()
    fireEvent.click(within(card()).getByRole("button", { name: "Create token" }))
    expect(await within(card()).findByText("iqa_scim_secret-1")).toBeTruthy()
    expect(within(card()).getByText(/Copy it now: it is not shown again/)).toBeTruthy()
    await waitFor(() => expect(within(within(card()).getByRole("list", { name: "SCIM tokens" })).getAllByRole("listitem")).toHaveLength(1))
    expect(within(card()).getByText("Not used yet")).toBeTruthy()

    fireEvent.click(within(card()).getByRole("button", { name: "Revoke the token created on 6 January 2030" }))
    fireEvent.click(await screen.findByRole("button", { name: "Revoke token" }))
    await waitFor(() => expect(within(card()).getByText("No SCIM token yet.")).toBeTruthy())
    expect(server.calls("DELETE /api/organizations/current/scim-tokens/scim-1")).toHaveLength(1)
  })
})

describe("SCIM tokens for an admin", () => {
  it("are listed without the owner's buttons", async () => {
    await openCard({ ...acmeWorld(GRACE), scimTokens: [{ id: "scim-1", createdAt: VERIFIED_AT, createdBy: "ada@example.com", lastUsedAt: VERIFIED_AT }] })
    expect(within(card()).getByText("Created on 6 January 2030 by ada@example.com")).toBeTruthy()
    expect(within(card()).getByText("Last used on 6 January 2030")).toBeTruthy()
    expect(within(card()).queryByRole("button", { name: /Create token|Revoke/ })).toBeNull()
    expect(within(card()).getByText("The owner creates and revokes tokens.")).toBeTruthy()
  })
})
