/**
 * GET /api/admin/audit and GET /api/admin/audit.csv: an entry as a real flow wrote it, pages of 50 newest first, the
 * filters (kind, actor by address or id, whole UTC days), bad filters refused in the wrapper, the CSV's quoting and
 * formula neutralising over more entries than one batch, and no route of the API that could change an entry.
 */
import type { RouteOptions } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { AUDIT_CSV_COLUMNS, type AuditEntry, type AuditPage } from "~core/admin/audit"

import { recordAuditEvent } from "./audit-log-store"
import { signedInUser, startTestApp, type TestApp } from "../test-kit"

let subject: TestApp
const now = Date.UTC(2026, 10, 27, 12, 0, 0)
const routes: string[] = []
let admin: { id: string; token: string }

beforeAll(async () => {
  subject = await startTestApp({}, { clock: () => now, onRoute: (route: RouteOptions) => routes.push(...[route.method].flat().map((method) => `${method} ${route.url}`)) })
  admin = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
})
afterAll(async () => subject?.close())

async function get(url: string, token = admin.token) {
  const response = await subject.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } })
  return response
}
const page = async (query: string) => {
  const response = await get(`/api/admin/audit?${query}`)
  expect(response.statusCode).toBe(200)
  return response.json().data as AuditPage
}

/** `count` entries by a made-up actor, one a minute from `start`, written as the flows write them. */
async function seed(actor: { id: string; email: string }, start: number, count: number, detail: Record<string, string> = {}) {
  for (let index = 0; index < count; index++) {
    await recordAuditEvent(subject.database.db, { kind: "sessions.ended", actorId: actor.id, subjectId: actor.id, detail: { n: index, ...detail }, ip: "192.0.2.1" }, new Date(start + index * 60_000))
  }
}

async function userWithEmail(email: string) {
  const row = await subject.database.db.insertInto("users").values({ email, name: "Audit Person", email_verified_at: new Date(now), terms_accepted_at: new Date(now) }).returning("id").executeTakeFirstOrThrow()
  return { id: row.id, email }
}

describe("GET /api/admin/audit", () => {
  it("answers an entry as the flow wrote it: who, what, on whom, when, from where", async () => {
    const owner = await signedInUser(subject.app, "pro")
    const created = await subject.app.inject({ method: "POST", url: "/api/keys", remoteAddress: "203.0.113.50", headers: { authorization: `Bearer ${owner.token}` }, payload: { name: "ci" } })
    expect(created.statusCode).toBe(201)
    const { email } = await subject.database.db.selectFrom("users").select("email").where("id", "=", owner.id).executeTakeFirstOrThrow()
    const { entries, total } = await page(`actor=${owner.id}`)
    expect(total).toBe(1)
    expect(entries).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        at: new Date(now).toISOString(),
        actor: { id: owner.id, email },
        action: "api_key.created",
        target: email,
        ip: "203.0.113.50",
        details: { keyId: created.json().data.id, name: "ci", prefix: created.json().data.prefix }
      }
    ] satisfies AuditEntry[])
  })

  it("pages 50 at a time, newest first, with the total", async () => {
    const actor = await userWithEmail("pager@example.com")
    await seed(actor, Date.UTC(2026, 4, 1), 120)
    const first = await page("actor=pager@example.com")
    expect([first.total, first.page, first.entries.length]).toEqual([120, 1, 50])
    expect(first.entries.slice(0, 2).map((entry) => entry.details.n)).toEqual([119, 118])
    const third = await page("actor=pager@example.com&page=3")
    expect([third.page, third.entries.length, third.entries.at(-1)?.details.n]).toEqual([3, 20, 0])
    expect((await page("actor=pager@example.com&page=4")).entries).toEqual([])
  })

  it("filters by kind, by the actor's address (any part, any case) or id, and by whole days in UTC", async () => {
    const actor = await userWithEmail("Filter_Me@Example.com")
    await seed(actor, Date.UTC(2026, 5, 9, 23, 59), 3) // 9 June 23:59, 10 June 00:00 and 00:01
    await recordAuditEvent(subject.database.db, { kind: "password.changed", actorId: actor.id, subjectId: actor.id, detail: {}, ip: null }, new Date(Date.UTC(2026, 5, 11, 23, 59, 59)))
    expect((await page("actor=filter_me@example")).total).toBe(4)
    expect((await page(`actor=${actor.id.toUpperCase()}`)).total).toBe(4)
    // `_` is a character of the address, not LIKE's wildcard.
    expect((await page("actor=filterXme")).total).toBe(0)
    expect((await page("actor=filter_me&kind=password.changed")).entries.map((entry) => entry.action)).toEqual(["password.changed"])
    expect((await page("actor=filter_me&from=2026-06-10")).total).toBe(3)
    expect((await page("actor=filter_me&to=2026-06-09")).total).toBe(1)
    expect((await page("actor=filter_me&from=2026-06-10&to=2026-06-10")).total).toBe(2)
    expect((await page("actor=filter_me&from=2026-06-11&to=2026-06-11")).total).toBe(1)
    // Empty filters, as a form sends them, are no filters.
    expect((await page("kind=&actor=filter_me&from=&to=")).total).toBe(4)
  })

  it("refuses bad filters in the wrapper", async () => {
    for (const query of ["kind=nope", "from=2026-13-01", "to=yesterday", "from=2026-06-02&to=2026-06-01", "page=0", "page=two", "actor=" + "x".repeat(321), "sort=kind"]) {
      for (const url of [`/api/admin/audit?${query}`, `/api/admin/audit.csv?${query}`]) {
        if (url.includes("csv") && query.startsWith("page")) continue
        const response = await get(url)
        expect([url, response.statusCode, response.json().error.code]).toEqual([url, 400, "VALIDATION_FAILED"])
      }
    }
  })

  it("is for admins only", async () => {
    const user = await signedInUser(subject.app)
    for (const url of ["/api/admin/audit", "/api/admin/audit.csv"]) {
      expect((await get(url, user.token)).statusCode).toBe(403)
      expect((await subject.app.inject({ method: "GET", url })).statusCode).toBe(401)
    }
  })
})

describe("GET /api/admin/audit.csv", () => {
  const rowsOf = (body: string) => body.split("\r\n").filter(Boolean)

  it("quotes as RFC 4180 says and neutralises cells a spreadsheet would run", async () => {
    const actor = await userWithEmail("=cmd@example.com")
    await recordAuditEvent(
      subject.database.db,
      { kind: "organization.renamed", actorId: actor.id, subjectId: null, target: '+Acme, "the" best\r\nteam', detail: { name: "-1" }, ip: "@ip" },
      new Date(Date.UTC(2026, 6, 1, 8, 0, 0))
    )
    const response = await get("/api/admin/audit.csv?actor=cmd@example.com")
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8")
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/)
    expect(response.body).toBe(
      `${AUDIT_CSV_COLUMNS.join(",")}\r\n` + `2026-07-01T08:00:00.000Z,'=cmd@example.com,organization.renamed,"'+Acme, ""the"" best\r\nteam",'@ip,"{""name"":""-1""}"\r\n`
    )
  })

  it("streams every selected entry, newest first, past the size of one batch", async () => {
    const actor = await userWithEmail("bulk@example.com")
    const start = Date.UTC(2026, 7, 1)
    // Two entries per instant: the id keeps their order where the time is equal.
    const values = Array.from({ length: 1203 }, (_, index) => ({ kind: "sessions.ended", actor_id: actor.id, actor_email: actor.email, subject_id: actor.id, target: actor.email, detail: { n: index }, ip: null, created_at: new Date(start + Math.floor(index / 2) * 1000) }))
    await subject.database.db.insertInto("audit_events").values(values).execute()
    const rows = rowsOf((await get("/api/admin/audit.csv?actor=bulk@example.com&kind=sessions.ended")).body)
    expect(rows).toHaveLength(1204)
    const numbers = rows.slice(1).map((row) => Number(/""n"":(\d+)/.exec(row)![1]))
    expect(numbers).toEqual(values.map((_, index) => 1202 - index))
    expect(rowsOf((await get("/api/admin/audit.csv?actor=bulk@example.com&from=2026-08-02")).body)).toEqual([AUDIT_CSV_COLUMNS.join(",")])
  })
})

describe("the API", () => {
  it("has no route that changes or deletes an entry", async () => {
    const audit = routes.filter((route) => /audit/.test(route))
    expect(audit.sort()).toEqual(["GET /api/admin/audit", "GET /api/admin/audit.csv", "HEAD /api/admin/audit", "HEAD /api/admin/audit.csv"])
    const before = await subject.database.db.selectFrom("audit_events").selectAll().orderBy("id").execute()
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      for (const url of ["/api/admin/audit", "/api/admin/audit/1", "/api/admin/audit.csv"]) {
        const response = await subject.app.inject({ method, url, headers: { authorization: `Bearer ${admin.token}` }, payload: {} })
        expect([method, url, response.statusCode]).toEqual([method, url, 404])
      }
    }
    expect(await subject.database.db.selectFrom("audit_events").selectAll().orderBy("id").execute()).toEqual(before)
  })
})
