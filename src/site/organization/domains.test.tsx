/**
 * The organisation page's "E-mail domains" card through the whole app with the fake API: the owner reads each domain's
 * state in words and the TXT record to add (copied part by part), adds a domain (a bad name refused before any call,
 * then the server's answer), verifies one (the server's words while the record is missing, "Checking DNS..." while it
 * looks) and removes one after confirming; an admin reads the same without the owner's buttons; a member sees no card.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"

import { refuse } from "../fake-api-server"
import { describeActivity } from "./ActivityLog"
import { DOMAIN_FORMAT_MESSAGE } from "./DomainsCard"
import { ADA, ALAN, acmeWorld, claimOf, GRACE, openAs, region, type World } from "./organization-test-kit"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const CARD = "E-mail domains"
const DOMAINS = "/api/organizations/current/domains"
const INTRO = "Verify the domains of your company's e-mail addresses to set up single sign-on for them."

/** Acme with acme.com verified and acme.org claimed, its record not yet in the DNS. */
function domainsWorld(me = ADA): World {
  return { ...acmeWorld(me), domains: [claimOf("acme.com", "2030-01-05T08:00:00.000Z"), claimOf("acme.org")], dns: {} }
}

const card = () => region(CARD)
const items = () => within(within(card()).getByRole("list", { name: "Your domains" })).getAllByRole("listitem")
const item = (domain: string) => {
  const found = items().find((candidate) => candidate.querySelector("p")?.textContent === domain)
  if (!found) throw new Error(`No domain ${domain} in the list`)
  return found
}
/** Each listed domain with its state, as [domain, state] texts. */
const listed = () => items().map((row) => [...row.querySelectorAll("p")].slice(0, 2).map((line) => line.textContent))
/** The record of an unverified domain as [part, value] rows; null when none is shown. */
function recordOf(domain: string) {
  const list = item(domain).querySelector("dl")
  if (!list) return null
  return [...list.children].map((row) => [row.querySelector("dt")?.textContent, row.querySelector("code")?.textContent])
}

async function openCard(world: World) {
  const server = openAs(world)
  await screen.findByRole("heading", { level: 1, name: "Acme" })
  await within(card()).findByRole("list", { name: "Your domains" })
  return server
}

describe("the owner's e-mail domains", () => {
  it("lists each domain's state in words and the record to add for an unverified one, copied part by part", async () => {
    await openCard(domainsWorld())
    expect(within(card()).getByRole("heading", { level: 2, name: CARD })).toBeTruthy()
    expect(within(card()).getByText(INTRO, { exact: false })).toBeTruthy()
    expect(listed()).toEqual([
      ["acme.com", "Verified on 5 January 2030"],
      ["acme.org", "Not verified yet"]
    ])
    expect(recordOf("acme.com")).toBeNull()
    expect(within(item("acme.com")).queryByRole("button", { name: /^Verify/ })).toBeNull()
    expect(recordOf("acme.org")).toEqual([
      ["Type", "TXT"],
      ["Name", "_image-query-ai.acme.org"],
      ["Value", "iqa-verify=token-acme.org"]
    ])
    expect(within(item("acme.org")).getByRole("button", { name: "Verify acme.org" })).toBeTruthy()

    // The copy goes through a selected text area (clipboard.ts): what it held when the copy command ran.
    const copied: string[] = []
    Object.defineProperty(document, "execCommand", {
      configurable: true,
      value: vi.fn(() => copied.push(document.querySelector<HTMLTextAreaElement>("textarea[readonly]")?.value ?? "") > 0)
    })
    fireEvent.click(within(item("acme.org")).getByRole("button", { name: "Copy: value of the record for acme.org" }))
    expect(await within(item("acme.org")).findByRole("button", { name: "Copied: value of the record for acme.org" })).toBeTruthy()
    fireEvent.click(within(item("acme.org")).getByRole("button", { name: "Copy: name of the record for acme.org" }))
    await within(item("acme.org")).findByRole("button", { name: "Copied: name of the record for acme.org" })
    expect(copied).toEqual(["iqa-verify=token-acme.org", "_image-query-ai.acme.org"])
  })

  it("refuses a bad name at once without asking the server, then adds a domain in DNS's form with its record", async () => {
    const server = await openCard(domainsWorld())
    const form = within(card()).getByRole("form", { name: "Add a domain" })
    const field = within(form).getByLabelText("Domain")

    fireEvent.change(field, { target: { value: "not a domain" } })
    fireEvent.click(within(form).getByRole("button", { name: "Add domain" }))
    expect(within(form).getByText(DOMAIN_FORMAT_MESSAGE)).toBeTruthy()
    expect(DOMAIN_FORMAT_MESSAGE).toBe("Enter a domain name such as example.com")
    expect(field.getAttribute("aria-invalid")).toBe("true")
    expect(document.activeElement).toBe(field)
    expect(server.calls(`POST ${DOMAINS}`)).toHaveLength(0)

    fireEvent.change(field, { target: { value: " https://Example.NET./ " } })
    expect(within(form).queryByText(DOMAIN_FORMAT_MESSAGE)).toBeNull()
    fireEvent.submit(form)
    expect(await within(form).findByText("Added example.net. Add its TXT record at your DNS provider, then verify it.")).toBeTruthy()
    expect(server.calls(`POST ${DOMAINS}`).map((request) => request.body)).toEqual([{ domain: "example.net" }])
    expect((field as HTMLInputElement).value).toBe("")
    await waitFor(() => expect(listed().map(([domain]) => domain)).toEqual(["acme.com", "acme.org", "example.net"]))
    expect(listed()[2]).toEqual(["example.net", "Not verified yet"])
    expect(recordOf("example.net")?.[1]).toEqual(["Name", "_image-query-ai.example.net"])

    // The server's refusal in its words.
    fireEvent.change(field, { target: { value: "acme.com" } })
    fireEvent.submit(form)
    expect(await within(form).findByRole("alert")).toHaveProperty("textContent", "acme.com is already one of your organisation's domains.")
    expect(server.calls(`POST ${DOMAINS}`)).toHaveLength(2)
  })

  it("says what is missing in the server's words while the record is not in place, and 'Checking DNS...' while it looks", async () => {
    const world = domainsWorld()
    const server = await openCard(world)
    const row = item("acme.org")

    fireEvent.click(within(row).getByRole("button", { name: "Verify acme.org" }))
    expect(await within(row).findByRole("alert")).toHaveProperty(
      "textContent",
      "No TXT record was found at _image-query-ai.acme.org. Add it at your DNS provider; changes can take a few minutes to appear."
    )
    world.dns!["_image-query-ai.acme.org"] = ["iqa-verify=someone-else"]
    fireEvent.click(within(row).getByRole("button", { name: "Verify acme.org" }))
    await waitFor(() => expect(within(row).getByRole("alert").textContent).toMatch(/^The TXT record at _image-query-ai\.acme\.org does not hold iqa-verify=token-acme\.org\./))

    // While the server looks the record up, the button says so and waits.
    let answerNow = () => {}
    const answered = new Promise<void>((resolve) => (answerNow = resolve))
    server.on(`POST ${DOMAINS}/acme.org/verify`, async () => {
      await answered
      return refuse(503, "DNS_UNAVAILABLE", "The DNS servers did not answer for _image-query-ai.acme.org (ETIMEOUT). Please try again in a moment.")
    })
    fireEvent.click(within(row).getByRole("button", { name: "Verify acme.org" }))
    const busy = await within(row).findByRole("button", { name: "Checking DNS..." })
    expect(busy.hasAttribute("disabled")).toBe(true)
    answerNow()
    await waitFor(() => expect(within(row).getByRole("alert").textContent).toBe("The DNS servers did not answer for _image-query-ai.acme.org (ETIMEOUT). Please try again in a moment."))
    expect(within(row).getByRole("button", { name: "Verify acme.org" }).hasAttribute("disabled")).toBe(false)
    expect(server.calls(`POST ${DOMAINS}/acme.org/verify`)).toHaveLength(3)
    expect(listed()[1]).toEqual(["acme.org", "Not verified yet"])
  })

  it("verifies a domain once its record is in place: its date in words, the record and the button gone, the focus on its state", async () => {
    const world = domainsWorld()
    world.dns!["_image-query-ai.acme.org"] = ["v=spf1 -all", "iqa-verify=token-acme.org"]
    const server = await openCard(world)
    const activityAsked = server.calls("GET /api/organizations/current/activity").length

    fireEvent.click(within(item("acme.org")).getByRole("button", { name: "Verify acme.org" }))
    await waitFor(() => expect(listed()[1]).toEqual(["acme.org", "Verified on 6 January 2030"]))
    expect(recordOf("acme.org")).toBeNull()
    expect(within(item("acme.org")).queryByRole("button", { name: /Verify/ })).toBeNull()
    expect(document.activeElement?.textContent).toBe("Verified on 6 January 2030")
    await waitFor(() => expect(server.calls("GET /api/organizations/current/activity").length).toBeGreaterThan(activityAsked))
  })

  it("removes a domain only once confirmed", async () => {
    const server = await openCard(domainsWorld())
    fireEvent.click(within(item("acme.org")).getByRole("button", { name: "Remove acme.org" }))
    let dialog = await screen.findByRole("alertdialog", { name: "Remove acme.org?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep it" }))
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull())
    expect(server.calls(`DELETE ${DOMAINS}/acme.org`)).toHaveLength(0)

    fireEvent.click(within(item("acme.org")).getByRole("button", { name: "Remove acme.org" }))
    dialog = await screen.findByRole("alertdialog", { name: "Remove acme.org?" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove domain" }))
    await waitFor(() => expect(listed()).toEqual([["acme.com", "Verified on 5 January 2030"]]))
    expect(server.calls(`DELETE ${DOMAINS}/acme.org`)).toHaveLength(1)
    expect(screen.queryByRole("alertdialog")).toBeNull()
    await waitFor(() => expect(document.activeElement).toBe(within(card()).getByRole("heading", { name: "Your domains" })))
  })

  it("says so when no domain is added yet", async () => {
    openAs(acmeWorld(ADA))
    expect(await within(await screen.findByRole("region", { name: CARD })).findByText("No domain is added yet.")).toBeTruthy()
  })
})

describe("the domains as others see them", () => {
  it("shows an admin the domains and the records, without adding, verifying or removing", async () => {
    const server = await openCard(domainsWorld(GRACE))
    expect(within(card()).getByText(/The owner adds and verifies them\.$/)).toBeTruthy()
    expect(listed()).toEqual([
      ["acme.com", "Verified on 5 January 2030"],
      ["acme.org", "Not verified yet"]
    ])
    expect(recordOf("acme.org")?.[2]).toEqual(["Value", "iqa-verify=token-acme.org"])
    expect(within(card()).queryByRole("form")).toBeNull()
    expect(within(card()).queryByRole("textbox")).toBeNull()
    // The record's copy buttons read; nothing changes the domains.
    expect(within(card()).getAllByRole("button").map((button) => button.textContent)).toEqual(["Copy", "Copy", "Copy"])
    expect(within(item("acme.org")).getByText("Once the record is in place, the owner verifies the domain.")).toBeTruthy()
    expect(server.calls(`GET ${DOMAINS}`)).toHaveLength(1)
  })

  it("shows a member no card and never asks for the domains", async () => {
    const server = openAs(domainsWorld(ALAN))
    await screen.findByRole("heading", { level: 1, name: "Acme" })
    await screen.findByRole("region", { name: "Activity" })
    expect(screen.queryByRole("region", { name: CARD })).toBeNull()
    expect(server.calls(`GET ${DOMAINS}`)).toHaveLength(0)
  })

  it("writes the domains' changes in the activity in words", () => {
    const event = { actor: { name: "Ada Lovelace", email: ADA.email }, subject: null, detail: { organizationId: "org-1", domain: "acme.org" }, at: "2030-01-06T12:00:00.000Z" }
    expect(describeActivity({ ...event, kind: "organization.domain_added" })).toBe("Ada Lovelace added the domain acme.org")
    expect(describeActivity({ ...event, kind: "organization.domain_verified" })).toBe("Ada Lovelace verified the domain acme.org")
    expect(describeActivity({ ...event, kind: "organization.domain_removed" })).toBe("Ada Lovelace removed the domain acme.org")
  })
})
