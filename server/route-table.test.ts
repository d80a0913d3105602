/**
 * Tests generated from the server's own route table, so that a new route cannot escape them:
 * - every route has an authorisation rule here, and answers by it (anonymous, a bad token, a user, another user, an
 *   admin): a route added without a rule fails the first test;
 * - property tests with fast-check throw bad input at every route (wrong types, huge and Unicode strings, prototype
 *   keys, deep nesting, empty and duplicate fields, odd headers): never a 5xx, never a hang, always the wrapper, and a
 *   refused request changes nothing stored.
 */
import fc from "fast-check"
import type { RouteOptions } from "fastify"
import { sql } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { signedInUser, startTestApp, type TestApp } from "./test-kit"
import { RULES, type Rule } from "./route-table-rules"


/** Answers a configured server gives on purpose: services this test app leaves unconfigured. */
const DELIBERATE_503 = new Set(["VQA_NOT_CONFIGURED", "GOOGLE_NOT_CONFIGURED"])

/** What a refused request may not change: the rows people and payments depend on (limits and failure counts may move). */
const STORED_TABLES = ["users", "sessions", "one_time_codes", "password_history", "feedback", "feedback_images", "feedback_replies", "subscriptions", "billing_events", "usage_counters", "app_settings", "api_keys", "api_call_days", "audit_events", "organizations", "organization_members", "organization_invitations", "organization_usage", "organization_member_usage", "blog_posts", "daily_metrics", "subscription_changes", "scim_tokens", "scim_members"] as const

interface Route {
  method: string
  url: string
  rule: Rule
}

let subject: TestApp
const routes: Route[] = []
const unlisted: string[] = []
let ipCounter = 0

/** A client address of its own per request, so that the per-IP limits do not turn every later request into a 429. */
const nextIp = () => `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`

const concretePath = (url: string, value = "x") => url.replace(/:\w+/g, () => encodeURIComponent(value)).replace("/*", "/some/page")

/**
 * What is stored, one digest per table: the MD5 of every row's text, in order, computed by the database itself, so
 * that a comparison does not carry every row into the test (it did, thousands of times: half of this file's time).
 * Any change to any column of any row changes its table's digest; a failure names the tables that changed.
 */
async function snapshot(): Promise<Record<string, string>> {
  const digests = sql.join(
    STORED_TABLES.map((table) => sql`select ${table} as name, md5(coalesce(string_agg(row_text, E'\n' order by row_text), '')) as digest from (select ${sql.table(table)}::text as row_text from ${sql.table(table)}) as rows`),
    sql` union all `
  )
  const { rows } = await sql<{ name: string; digest: string }>`${digests}`.execute(subject.database.db)
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]))
}

async function withUser() {
  const made = await signedInUser(subject.app)
  const row = await subject.database.db.selectFrom("users").select("email").where("id", "=", made.id).executeTakeFirstOrThrow()
  return { ...made, email: row.email }
}

beforeAll(async () => {
  subject = await startTestApp(
    {},
    {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          if (method === "HEAD") continue
          const key = `${method} ${route.url}`
          const rule = RULES[key]
          if (rule) routes.push({ method, url: route.url, rule })
          else unlisted.push(key)
        }
      }
    }
  )
})

async function identities() {
  const admin = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
  // A Pro account's API key, made through the API as its owner would.
  const keyOwner = await signedInUser(subject.app, "pro")
  const created = await inject("POST", "/api/keys", { token: keyOwner.token, payload: JSON.stringify({ name: "fuzz" }), headers: { "content-type": "application/json" } })
  const apiKey = (JSON.parse(created.body) as { data: { key: string } }).data.key
  return { user: await withUser(), otherUser: await withUser(), admin, apiKey }
}
afterAll(async () => subject?.close())

type Identities = Awaited<ReturnType<typeof identities>>

/**
 * Whether a route's requests left the identities the tests call with as they were: their sessions open, the admin
 * still an admin, the key still valid. They are made again only when not (a logout, a deleted account, a revoked key):
 * new ones for every route added five rows a route to the tables every comparison reads, which took half the test.
 */
async function stillWorking({ user, otherUser, admin, apiKey }: Identities): Promise<boolean> {
  const [asUser, asOtherUser, asAdmin, withKey] = await Promise.all([
    inject("GET", "/api/auth/profile", { token: user.token }),
    inject("GET", "/api/auth/profile", { token: otherUser.token }),
    inject("GET", "/api/auth/profile", { token: admin.token }),
    inject("GET", "/api/v1/usage", { token: apiKey })
  ])
  const role = await subject.database.db.selectFrom("users").select("role").where("id", "=", admin.id).executeTakeFirst()
  return [asUser, asOtherUser, asAdmin, withKey].every((response) => response.statusCode === 200) && role?.role === "admin"
}

const inject = (method: string, url: string, init: { token?: string; payload?: string | Buffer; headers?: Record<string, string> } = {}) =>
  subject.app.inject({
    method: method as "GET",
    url,
    remoteAddress: nextIp(),
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
    ...(init.payload !== undefined ? { payload: init.payload } : {})
  })

describe("the route table", () => {
  it("gives every route an authorisation rule", () => {
    expect(unlisted).toEqual([])
    expect(routes.length).toBe(Object.keys(RULES).length)
  })

  it("answers every route by its rule: anonymous, a bad token, a user, another user, an admin", async () => {
    let identitiesInUse: Identities | null = null
    for (const route of routes) {
      // New accounts when a route has ended the session it was called with (logout, account deletion).
      if (!identitiesInUse || !(await stillWorking(identitiesInUse))) identitiesInUse = await identities()
      const { user, otherUser, admin, apiKey } = identitiesInUse
      const url = concretePath(route.url)
      const name = `${route.method} ${route.url}`
      const json = { payload: "{}", headers: { "content-type": "application/json" } }
      const body = route.method === "GET" ? {} : json
      const anonymous = await inject(route.method, url, body)
      const forged = await inject(route.method, url, { ...body, token: "not.a.token" })
      const asUser = await inject(route.method, url, { ...body, token: user.token })
      const asAdmin = await inject(route.method, url, { ...body, token: admin.token })
      const code = (response: { body: string; headers: Record<string, unknown> }) =>
        String(response.headers["content-type"]).includes("json") ? (JSON.parse(response.body) as { error?: { code?: string } }).error?.code : undefined
      if (route.rule === "key") {
        // Nothing but a key opens it: no session of a user or an admin either.
        for (const response of [anonymous, forged, asUser, asAdmin]) expect([response.statusCode, code(response)], name).toEqual([401, "INVALID_API_KEY"])
        const withKey = await inject(route.method, url, { ...body, token: apiKey })
        expect([401, 403], name).not.toContain(withKey.statusCode)
        continue
      }
      if (route.rule === "scim") {
        // Nothing but an organisation's SCIM token opens it, refused in SCIM's own error shape.
        for (const response of [anonymous, forged, asUser, asAdmin]) {
          expect([response.statusCode, (JSON.parse(response.body) as { schemas?: string[] }).schemas], name).toEqual([401, ["urn:ietf:params:scim:api:messages:2.0:Error"]])
        }
        continue
      }
      if (route.rule === "public") {
        expect(code(anonymous), name).not.toBe("UNAUTHORIZED")
        expect(anonymous.statusCode, name).not.toBe(403)
        continue
      }
      expect([anonymous.statusCode, code(anonymous)], name).toEqual([401, "UNAUTHORIZED"])
      expect(forged.statusCode, name).toBe(401)
      if (route.rule === "admin") {
        expect([asUser.statusCode, code(asUser)], name).toEqual([403, "FORBIDDEN"])
        expect([401, 403], name).not.toContain(asAdmin.statusCode)
      } else {
        expect(["UNAUTHORIZED", "FORBIDDEN"], name).not.toContain(code(asUser))
        // What one user reads is their own: nothing of the first user reaches another.
        if (route.method === "GET") {
          const theirs = await inject(route.method, url, { token: otherUser.token })
          expect(theirs.body, name).not.toContain(user.email)
          expect(theirs.body, name).not.toContain(user.id)
        }
      }
      for (const response of [anonymous, forged, asUser, asAdmin]) {
        if (response.statusCode >= 500) expect([response.statusCode, DELIBERATE_503.has(code(response) ?? "")], name).toEqual([503, true])
      }
    }
  }, 120_000)
})

/** Field names the routes read, so that generated bodies hit real fields with wrong values too. */
const FIELD_NAMES = ["email", "languages", "history", "password", "name", "token", "refreshToken", "idToken", "oobCode", "newPassword", "currentPassword", "message", "status", "planId", "annual", "cardNumber", "question", "image", "text", "targetLanguage", "config", "ruleName", "limit", "termsAccepted", "privacyPolicyAccepted", "verificationToken"]
const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"]

const unicode = fc.string({ unit: "grapheme", maxLength: 40 })
const hugeString = fc.integer({ min: 5_000, max: 300_000 }).map((length) => "é".repeat(length))
/** Deep nesting as JSON text, written out directly: building and stringifying such a value would overflow the stack here. */
const deepJson = fc.integer({ min: 50, max: 20_000 }).map((depth) => `${'{"nested":['.repeat(depth)}"bottom"${"]}".repeat(depth)}`)
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), unicode, hugeString, fc.constant(null), fc.constantFrom(-1, 0, 1e308, true, false, "", " "))
const anyObject = fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES, ...PROTOTYPE_KEYS), unicode), anyValue, { maxKeys: 6 })

/** A request body: JSON of any shape, or text that is not quite JSON, or other encodings. */
const anyPayload = fc.oneof(
  anyObject.map((value) => ({ payload: JSON.stringify(value), type: "application/json" })),
  anyValue.map((value) => ({ payload: JSON.stringify(value) ?? "null", type: "application/json" })),
  fc.constantFrom(...FIELD_NAMES).map((field) => ({ payload: `{"${field}":"a","${field}":{"b":1},"__proto__":{"admin":true}}`, type: "application/json" })),
  fc.constantFrom("", "{", "[1,2", "\u0000", "{\"a\":}", "null", "1e999999", "9007199254740993", "{\"limit\":9007199254740993}").map((payload) => ({ payload, type: "application/json" })),
  deepJson.map((payload) => ({ payload, type: "application/json" })),
  anyObject.map((value) => ({ payload: new URLSearchParams(Object.entries(value).map(([key, item]) => [key, typeof item === "string" ? item : JSON.stringify(item)])).toString(), type: "application/x-www-form-urlencoded" })),
  unicode.map((payload) => ({ payload, type: fc.sample(fc.constantFrom("text/plain", "multipart/form-data; boundary=x", "application/octet-stream", "application/json; charset=utf-16"), 1)[0]! }))
)
const anyQuery = fc.dictionary(fc.oneof(fc.constantFrom("page", "pageSize", "status", "email", "__proto__"), unicode), fc.oneof(unicode, fc.constantFrom("-1", "0", "1e9", "NaN", "[]")), { maxKeys: 4 })
const anyParam = fc.oneof(unicode, fc.constantFrom("..%2F..%2Fetc%2Fpasswd", "00000000-0000-0000-0000-000000000000", "%00", "a".repeat(5_000)))
const anyIdentity = fc.constantFrom<"anonymous" | "user" | "admin" | "garbage" | "apiKey">("anonymous", "user", "admin", "garbage", "apiKey")
const anyHeaders = fc.dictionary(fc.constantFrom("accept", "accept-language", "x-forwarded-for", "origin", "if-none-match", "range", "cookie"), unicode.map((value) => value.replace(/[^\x20-\x7e]/g, "?")), { maxKeys: 3 })

/** The time a request may take before it counts as a hang. */
const HANG_MS = 15_000

describe("bad input at every route", () => {
  it("sees by its digests a row added, a column changed and a row removed", async () => {
    const { id } = await withUser()
    const before = await snapshot()
    await subject.database.db.updateTable("users").set({ name: "Ada Lovelace" }).where("id", "=", id).execute()
    const renamed = await snapshot()
    expect(renamed.users).not.toBe(before.users)
    expect({ ...renamed, users: before.users }).toEqual(before)
    await subject.database.db.deleteFrom("sessions").where("user_id", "=", id).execute()
    expect((await snapshot()).sessions).not.toBe(renamed.sessions)
    await withUser()
    expect((await snapshot()).users).not.toBe(renamed.users)
  })

  it("never answers 5xx, never hangs, answers in the wrapper, and a refused request changes nothing stored", async () => {
    let identitiesInUse: Identities | null = null
    for (const route of routes) {
      if (!identitiesInUse || !(await stillWorking(identitiesInUse))) identitiesInUse = await identities()
      const { user, admin, apiKey } = identitiesInUse
      // What is stored, as a refused request left it: the next run starts from it instead of reading it all again
      // (half the reads of this test); an answered request may change things, so the run after it reads afresh.
      let unchanged: Awaited<ReturnType<typeof snapshot>> | null = null
      await fc.assert(
        fc.asyncProperty(anyPayload, anyQuery, anyParam, anyIdentity, anyHeaders, async (payload, query, param, identity, headers) => {
          const token = identity === "user" ? user.token : identity === "admin" ? admin.token : identity === "apiKey" ? apiKey : identity === "garbage" ? "\u00e9.\u0000.x" : undefined
          const search = new URLSearchParams(query).toString()
          const url = `${concretePath(route.url, param)}${search ? `?${search}` : ""}`
          const before = unchanged ?? (await snapshot())
          unchanged = null
          const response = await Promise.race([
            inject(route.method, url, {
              ...(token ? { token: token.replace(/[^\x20-\x7e]/g, "?") } : {}),
              ...(route.method === "GET" ? {} : { payload: payload.payload }),
              headers: { ...headers, ...(route.method === "GET" ? {} : { "content-type": payload.type }) }
            }),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${route.method} ${url} hung for ${HANG_MS} ms`)), HANG_MS))
          ])
          const context = `${route.method} ${route.url} as ${identity}: ${response.statusCode} ${response.body.slice(0, 300)}`
          const isApi = route.url.startsWith("/api/")
          // Under /api, the reference's page and files are not JSON; a refusal is, as everywhere (checked below).
          const isJson = String(response.headers["content-type"]).includes("json")
          const answer = isApi && isJson ? (JSON.parse(response.body) as { success?: boolean; error?: { code?: string } }) : null
          if (response.statusCode >= 500) expect(response.statusCode === 503 && DELIBERATE_503.has(answer?.error?.code ?? ""), context).toBe(true)
          if (response.statusCode >= 400 && isApi) {
            expect(answer?.success, context).toBe(false)
            expect(typeof answer?.error?.code, context).toBe("string")
            const after = await snapshot()
            expect(after, context).toEqual(before)
            unchanged = after
          }
        }),
        { numRuns: 12, endOnFailure: true }
      )
    }
  }, 600_000)
})
