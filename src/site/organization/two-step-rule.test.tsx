/**
 * The organisation page's two-step sign-in: the owner's switch (keyboard reachable, sent as PATCH requireMfa, refused
 * in the server's words with the way to the dashboard's card when the owner has none), the members table's column in
 * words for the owner and admins, and what a plain member is told of the rule.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import { teardownSession } from "~site-session/session-store"

import { ADA, ALAN, acmeWorld, GRACE, openAs, region } from "./organization-test-kit"
import { describeActivity } from "./ActivityLog"

afterEach(() => teardownSession())

const ruleSwitch = () => within(region("Two-step sign-in")).getByRole("switch", { name: "Require two-step sign-in of every member" })

/** The "Two-step sign-in" column of the members table, by member, as a wide screen shows it. */
function twoStepColumn() {
  const table = within(region("Members")).getByRole("table")
  const headers = within(table).getAllByRole("columnheader").map((cell) => cell.textContent)
  const column = headers.indexOf("Two-step sign-in")
  if (column < 0) return null
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [row.querySelector("th span")?.firstChild?.textContent, row.querySelectorAll("th, td")[column]?.textContent])
}

describe("the owner's two-step sign-in rule", () => {
  it("says who has it on in words, and turns the rule on and off with the keyboard-reachable switch", async () => {
    const server = openAs(acmeWorld(ADA))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    expect(twoStepColumn()).toEqual([
      ["Ada Lovelace", "On"],
      ["Grace Hopper", "Off"],
      ["Alan Turing", "Off"]
    ])
    expect(within(region("Two-step sign-in")).getByTestId("two-step-count").textContent).toBe("1 of 3 members have two-step sign-in on.")

    const toggle = ruleSwitch()
    expect(toggle.getAttribute("aria-checked")).toBe("false")
    expect(toggle.tagName).toBe("BUTTON")
    expect(toggle.hasAttribute("disabled")).toBe(false)
    toggle.focus()
    expect(document.activeElement).toBe(toggle)
    fireEvent.click(toggle)
    await waitFor(() => expect(ruleSwitch().getAttribute("aria-checked")).toBe("true"))
    expect(within(region("Two-step sign-in")).getByText(/^On\. While it is on/)).toBeTruthy()

    fireEvent.click(ruleSwitch())
    await waitFor(() => expect(ruleSwitch().getAttribute("aria-checked")).toBe("false"))
    expect(server.calls("PATCH /api/organizations/current").map((request) => request.body)).toEqual([{ requireMfa: true }, { requireMfa: false }])
  })

  it("shows the server's refusal of an owner without two-step sign-in, with the way to set it up, and stays off", async () => {
    const world = acmeWorld(ADA)
    world.organization!.members[0]!.twoStep = false
    openAs(world)
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    fireEvent.click(ruleSwitch())
    const card = region("Two-step sign-in")
    expect(await within(card).findByText(/Turn on two-step sign-in for your own account first/)).toBeTruthy()
    expect(within(card).getByRole("link", { name: "Set up two-step sign-in" }).getAttribute("href")).toBe("/dashboard#two-step")
    expect(ruleSwitch().getAttribute("aria-checked")).toBe("false")
  })
})

describe("the rule as others see it", () => {
  it("shows an admin the column and the count, without the switch", async () => {
    openAs(acmeWorld(GRACE))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    expect(twoStepColumn()).toEqual([
      ["Ada Lovelace", "On"],
      ["Grace Hopper", "Off"],
      ["Alan Turing", "Off"]
    ])
    expect(within(region("Two-step sign-in")).queryByRole("switch")).toBeNull()
    expect(within(region("Two-step sign-in")).getByText("Two-step sign-in is not required of members. The owner decides.")).toBeTruthy()
  })

  it("tells a member the rule and where to turn it on, and shows nobody's two-step sign-in", async () => {
    const world = acmeWorld(ALAN)
    world.organization!.requireMfa = true
    openAs(world)
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    expect(twoStepColumn()).toBeNull()
    const card = region("Two-step sign-in")
    expect(card.textContent).toContain("Acme requires two-step sign-in of every member: without it, your requests cannot use the team's plan.")
    expect(within(card).getByRole("link", { name: "Set up two-step sign-in" }).getAttribute("href")).toBe("/dashboard#two-step")
    expect(within(card).queryByRole("switch")).toBeNull()
    expect(within(card).queryByTestId("two-step-count")).toBeNull()

    // The link opens the dashboard at its Two-step sign-in card, which #two-step names.
    fireEvent.click(within(card).getByRole("link", { name: "Set up two-step sign-in" }))
    await waitFor(() => expect(document.getElementById("two-step")).not.toBeNull())
    expect(document.getElementById("two-step")).toBe(screen.getByRole("region", { name: "Two-step sign-in" }))
  })

  it("writes the rule's changes in the activity in words", () => {
    const event = { kind: "organization.require_mfa_set", actor: { name: "Ada Lovelace", email: ADA.email }, subject: null, at: "2026-11-20T10:00:00.000Z" }
    expect(describeActivity({ ...event, detail: { requireMfa: true } })).toBe("Ada Lovelace required two-step sign-in of every member")
    expect(describeActivity({ ...event, detail: { requireMfa: false } })).toBe("Ada Lovelace stopped requiring two-step sign-in")
  })
})
