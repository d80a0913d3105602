import { render, screen } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { describe, expect, it } from "vitest"

import type { StatusReport } from "~core/api-answer"
import { OVERALL_STATUS_LABELS, overallStatus, SERVICE_STATES, STATUS_SERVICES, type ServiceState } from "~core/service-status"

import { StatusView } from "./StatusView"

function reportWith(states: readonly ServiceState[]): StatusReport {
  return {
    name: "Image Query AI",
    version: "1.0.0",
    uptimeSeconds: 3725,
    checks: { database: { status: "ok" } },
    checkedAt: "2026-11-22T10:00:00.000Z",
    services: STATUS_SERVICES.map(({ id, name }, index) => ({ id, name, status: states[index]!, message: `${name} checked.` }))
  }
}

/** Every assignment of the four states to the five services: 4^5 = 1024 mixes. */
function* everyMix(): Generator<ServiceState[]> {
  const total = SERVICE_STATES.length ** STATUS_SERVICES.length
  for (let code = 0; code < total; code++) {
    let rest = code
    yield STATUS_SERVICES.map(() => {
      const state = SERVICE_STATES[rest % SERVICE_STATES.length]!
      rest = Math.floor(rest / SERVICE_STATES.length)
      return state
    })
  }
}

function bannerText(states: readonly ServiceState[]) {
  const { unmount } = render(
    <MemoryRouter>
      <StatusView report={reportWith(states)} loading={false} />
    </MemoryRouter>
  )
  const text = screen.getAllByRole("status")[0]!.querySelector("p")!.textContent
  unmount()
  return text
}

describe("the status banner", () => {
  it("says major on any outage, else partial on any degraded service, else operational, for every mix of states, the banner's source", () => {
    let mixes = 0
    for (const states of everyMix()) {
      mixes++
      const expected = states.some((state) => state === "outage")
        ? "Major System Outage"
        : states.some((state) => state === "degraded")
          ? "Partial System Outage"
          : "All Systems Operational"
      expect(OVERALL_STATUS_LABELS[overallStatus(states)], states.join(",")).toBe(expected)
    }
    expect(mixes).toBe(1024)
  })

  it.each([
    [["operational", "operational", "operational", "operational", "operational"], "All Systems Operational"],
    [["operational", "operational", "operational", "operational", "maintenance"], "All Systems Operational"],
    [["operational", "degraded", "operational", "maintenance", "operational"], "Partial System Outage"],
    [["operational", "operational", "outage", "operational", "operational"], "Major System Outage"],
    [["degraded", "operational", "outage", "operational", "degraded"], "Major System Outage"]
  ] as const)("renders %j as %s", (states, label) => {
    expect(bannerText(states)).toBe(label)
  })

  it("lists the five services, and the failing ones as incidents", () => {
    render(
      <MemoryRouter>
        <StatusView report={reportWith(["operational", "operational", "outage", "operational", "operational"])} loading={false} />
      </MemoryRouter>
    )
    expect(screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent)).toEqual([
      "Website",
      "API",
      "Database",
      "Authentication",
      "Payment Processing",
      "Database: outage"
    ])
    expect(screen.queryByText("No Recent Incidents")).toBeNull()
    expect(screen.getByRole("link", { name: "Help Center" }).getAttribute("href")).toBe("/help")
  })

  it("says No Recent Incidents when every check passed", () => {
    render(
      <MemoryRouter>
        <StatusView report={reportWith(["operational", "operational", "operational", "operational", "operational"])} loading={false} />
      </MemoryRouter>
    )
    expect(screen.getByText("No Recent Incidents")).toBeTruthy()
  })

  it("shows a major outage when the status service cannot be reached", () => {
    render(
      <MemoryRouter>
        <StatusView report={null} loading={false} />
      </MemoryRouter>
    )
    expect(screen.getByRole("alert").textContent).toMatch(/^Major System Outage/)
  })
})
