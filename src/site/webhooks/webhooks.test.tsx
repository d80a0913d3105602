/**
 * The "Webhooks" card on the organisation's page through the whole app with the fake API: an endpoint added with the
 * events it hears (a refused address said in the server's words, the signing secret shown once), a test sent and its
 * delivery read, a retrying delivery with its next attempt's time, and the endpoint removed after confirming.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"
import { WEBHOOK_EVENT_TYPES } from "~core/webhooks"

import { ADA, acmeWorld, openAs, region, VERIFIED_AT } from "../organization/organization-test-kit"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const card = () => region("Webhooks")
const form = () => within(card()).getByRole("form", { name: "Add a webhook" })

async function openCard(world = acmeWorld(ADA)) {
  const server = openAs(world)
  await screen.findByRole("heading", { level: 1, name: "Acme" })
  await waitFor(() => expect(within(card()).getByRole("form", { name: "Add a webhook" })).toBeTruthy())
  return server
}

describe("the organisation's webhooks", () => {
  it("adds an endpoint with the events chosen, shows its secret once, sends a test and lists its delivery", async () => {
    const server = await openCard()
    expect(within(card()).getByText("No webhook yet.")).toBeTruthy()
    fireEvent.change(within(form()).getByLabelText("Endpoint URL"), { target: { value: "http://hooks.acme.example/in" } })
    fireEvent.click(within(form()).getByRole("checkbox", { name: "usage.threshold" }))
    fireEvent.click(within(form()).getByRole("button", { name: "Add webhook" }))
    expect((await within(form()).findByRole("alert")).textContent).toBe("The address must start with https://.")
    fireEvent.change(within(form()).getByLabelText("Endpoint URL"), { target: { value: "https://hooks.acme.example/in" } })
    fireEvent.click(within(form()).getByRole("button", { name: "Add webhook" }))
    expect(await within(form()).findByText("whsec_test-1")).toBeTruthy()
    expect(server.calls("POST /api/webhooks").at(-1)!.body).toEqual({ url: "https://hooks.acme.example/in", events: WEBHOOK_EVENT_TYPES.filter((type) => type !== "usage.threshold") })
    const list = await within(card()).findByRole("list", { name: "Your webhooks" })
    expect(within(list).getByText("https://hooks.acme.example/in")).toBeTruthy()

    fireEvent.click(within(list).getByRole("button", { name: "Send a test to https://hooks.acme.example/in" }))
    const table = await within(list).findByRole("table")
    await waitFor(() => expect(within(table).getByText("webhook.test")).toBeTruthy())
    expect(within(table).getByText("Delivered")).toBeTruthy()
    expect(within(table).getByText("204")).toBeTruthy()
  })

  it("shows a retrying delivery's next attempt, and removes an endpoint after confirming", async () => {
    const world = {
      ...acmeWorld(ADA),
      webhooks: [{ id: "hook-1", url: "https://hooks.acme.example/in", events: ["member.joined" as const], owner: "organization" as const, createdAt: VERIFIED_AT }],
      deliveries: { "hook-1": [{ id: "msg_1", event: "member.joined", status: "retrying" as const, attempts: 2, lastStatusCode: 503, nextAttemptAt: "2030-01-06T13:00:00.000Z", createdAt: VERIFIED_AT, lastAttemptAt: VERIFIED_AT }] }
    }
    const server = await openCard(world)
    const list = await within(card()).findByRole("list", { name: "Your webhooks" })
    fireEvent.click(within(list).getByRole("button", { name: "Deliveries to https://hooks.acme.example/in" }))
    expect(await within(list).findByText(/^Retrying, next at /)).toBeTruthy()
    expect(within(list).getByText("503")).toBeTruthy()
    fireEvent.click(within(list).getByRole("button", { name: "Remove https://hooks.acme.example/in" }))
    fireEvent.click(await screen.findByRole("button", { name: "Remove webhook" }))
    await waitFor(() => expect(within(card()).getByText("No webhook yet.")).toBeTruthy())
    expect(server.calls("DELETE /api/webhooks/hook-1")).toHaveLength(1)
  })
})
