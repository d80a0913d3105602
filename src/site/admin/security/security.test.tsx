/**
 * /admin/security through the whole app with a fake API: the audit log as a table (the narrow screen's summary under
 * the time), its filters sent as the server reads them, paging, the CSV export fetched with the session's token and
 * saved as a download, plain-word errors, and an entry's text rendered as text.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"
import type { AuditEntry, AuditPage } from "~core/admin/audit"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { answer, createFakeApi, refuse, resetSiteForTest, type Handler } from "../../fake-api-server"
import { SiteApp } from "../../SiteApp"
import { kindLabel } from "./audit-labels"

afterEach(() => {
  teardownSession()
  vi.restoreAllMocks()
})

const ADMIN_ID = "00000000-0000-4000-8000-0000000000ad"

const entry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: "1",
  at: "2026-11-20T10:00:00.000Z",
  actor: { id: ADMIN_ID, email: "root@example.com" },
  action: "password.changed",
  target: "ada@example.com",
  ip: "203.0.113.7",
  details: {},
  ...overrides
})

function openSecurity(audit: Handler, csv: Handler = () => answer("unused")) {
  const server = createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { name: "Root", email: "root@example.com", role: "admin", provider: "email", id: ADMIN_ID, emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z", organization: null } })],
    ["GET /api/admin/audit", audit],
    ["GET /api/admin/audit.csv", csv]
  ])
  resetSiteForTest(server.fetch)
  const user: User = { name: "Root", email: "root@example.com", role: "admin", provider: "email" }
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
  render(<SiteApp router="memory" initialPath="/admin/security" />)
  return server
}

const page = (entries: AuditEntry[], total = entries.length, number = 1): AuditPage => ({ entries, total, page: number })
const table = () => screen.findByRole("table", { name: "Audit log entries, newest first" })
const rows = async () => within(await table()).getAllByRole("row").slice(1)

describe("the security page", () => {
  it("shows each entry's time, action, actor, target, address and details, a narrow screen's summary under the time", async () => {
    openSecurity(() =>
      answer(
        page([
          entry({ id: "2", action: "account.locked", actor: null, target: "ada@example.com", ip: "192.0.2.66", details: { failures: 5, lockedForSeconds: 900 } }),
          entry({ id: "1", action: "sessions.ended", details: { reason: "sign_out_everywhere", count: 2 } })
        ])
      )
    )
    expect(await screen.findByRole("heading", { level: 1, name: "Security" })).toBeTruthy()
    const [locked, ended] = await rows()
    const cells = (row: HTMLElement) => [...row.querySelectorAll("td")].slice(1).map((cell) => cell.textContent)
    expect(cells(locked!)).toEqual(["Account locked", "System", "ada@example.com", "192.0.2.66", "failures: 5 · lockedForSeconds: 900"])
    expect(cells(ended!)).toEqual(["Sessions ended", "root@example.com", "ada@example.com", "203.0.113.7", "reason: sign_out_everywhere · count: 2"])
    const narrow = locked!.querySelector("[data-narrow-only]")!
    expect([...narrow.children].map((line) => line.textContent)).toEqual(["Account locked", "by System", "on ada@example.com", "from 192.0.2.66", "failures: 5 · lockedForSeconds: 900"])
    expect(within(locked!).getByText(/20 Nov 2026/).closest("time")?.getAttribute("dateTime")).toBe("2026-11-20T10:00:00.000Z")
  })

  it("renders an entry's text as text, never as markup", async () => {
    openSecurity(() => answer(page([entry({ target: '<img src=x onerror="alert(1)">', details: { name: "<b>Acme</b>" } })])))
    const [row] = await rows()
    expect(row!.querySelector("img, b")).toBeNull()
    expect(within(row!).getAllByText('<img src=x onerror="alert(1)">').length).toBeGreaterThan(0)
  })

  it("sends the filters as the server reads them, offers every kind by name, and pages", async () => {
    const server = openSecurity((request) => {
      const number = Number(new URLSearchParams(request.query).get("page"))
      return answer(page([entry({ id: String(number) })], 120, number))
    })
    await table()
    expect(server.calls("GET /api/admin/audit").map((request) => request.query)).toEqual(["?page=1"])

    const form = screen.getByRole("form", { name: "Filter the audit log" })
    const kind = within(form).getByLabelText("Kind") as HTMLSelectElement
    expect([...kind.options].slice(1).map((option) => option.textContent)).toContain("Sign-in method removed")
    expect(kindLabel("some.new_kind")).toBe("Some new kind")
    fireEvent.change(kind, { target: { value: "password.reset" } })
    fireEvent.change(within(form).getByLabelText("Actor"), { target: { value: "  ada@example.com " } })
    fireEvent.change(within(form).getByLabelText("From (UTC)"), { target: { value: "2026-11-01" } })
    fireEvent.change(within(form).getByLabelText("To (UTC)"), { target: { value: "2026-11-30" } })
    fireEvent.click(within(form).getByRole("button", { name: "Apply" }))
    await waitFor(() => expect(server.calls("GET /api/admin/audit")).toHaveLength(2))
    expect(server.calls("GET /api/admin/audit")[1]!.query).toBe("?actor=ada%40example.com&from=2026-11-01&kind=password.reset&page=1&to=2026-11-30")

    const pages = screen.getByRole("navigation", { name: "Pages" })
    expect(within(pages).getByText("Page 1 of 3")).toBeTruthy()
    fireEvent.click(within(pages).getByRole("button", { name: "Next" }))
    await waitFor(() => expect(within(pages).getByText("Page 2 of 3")).toBeTruthy())
    expect(server.calls("GET /api/admin/audit").at(-1)!.query).toContain("page=2")
    expect(within(pages).getByRole("button", { name: "Previous" }).hasAttribute("disabled")).toBe(false)
  })

  it("refuses dates out of order in words, before asking the server", async () => {
    const server = openSecurity(() => answer(page([entry()])))
    await table()
    const form = screen.getByRole("form", { name: "Filter the audit log" })
    fireEvent.change(within(form).getByLabelText("From (UTC)"), { target: { value: "2026-11-30" } })
    fireEvent.change(within(form).getByLabelText("To (UTC)"), { target: { value: "2026-11-01" } })
    expect(within(form).getByRole("alert").textContent).toBe("The “from” date must not be after the “to” date.")
    fireEvent.submit(form)
    expect(server.calls("GET /api/admin/audit")).toHaveLength(1)
  })

  it("exports what the filters select as CSV with the session's token and saves it as a file", async () => {
    const created = vi.fn((_object: Blob | MediaSource) => "blob:audit")
    vi.spyOn(URL, "createObjectURL").mockImplementation(created)
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {})
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {})
    const server = openSecurity(() => answer(page([entry()])))
    await table()
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "account.locked" } })
    fireEvent.click(screen.getByRole("button", { name: "Apply" }))
    fireEvent.click(screen.getByRole("button", { name: "Export CSV" }))
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1))
    const [request] = server.calls("GET /api/admin/audit.csv")
    expect([request!.query, request!.authorization]).toEqual(["?kind=account.locked", "Bearer access-0"])
    expect(created.mock.calls[0]![0]).toBeInstanceOf(Blob)
    expect(clicked.mock.contexts[0]).toMatchObject({ download: expect.stringMatching(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/), href: "blob:audit" })
  })

  it("says in words when the log or the export cannot be had", async () => {
    openSecurity(
      () => refuse(500, "INTERNAL_ERROR", "Something failed."),
      () => refuse(500, "INTERNAL_ERROR", "Something failed.")
    )
    expect(await screen.findByText("The audit log could not be loaded. Please try again.")).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Export CSV" }))
    expect(await screen.findByText("The CSV file could not be downloaded. Please try again.")).toBeTruthy()
  })

  it("tells an empty log from filters that match nothing", async () => {
    openSecurity(() => answer(page([])))
    expect(await screen.findByText("The audit log has no entries yet.")).toBeTruthy()
    fireEvent.change(screen.getByLabelText("Actor"), { target: { value: "nobody" } })
    fireEvent.click(screen.getByRole("button", { name: "Apply" }))
    expect(await screen.findByText("No entries match these filters.")).toBeTruthy()
  })
})
