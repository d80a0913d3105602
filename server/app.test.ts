import fs from "node:fs/promises"
import path from "node:path"

import { sql } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as z from "zod"

import { buildApp } from "./app"
import { ApiError, parseInput } from "./http/errors"
import { makeTempDir, openTestDatabase, startTestApp, testConfig, type TestApp } from "./test-kit"

const INDEX_HTML = "<!doctype html><html><body><div id=root></div><script type=module src=/assets/app-1a2b.js></script></body></html>"

async function makeWebRoot(): Promise<string> {
  const webRoot = await makeTempDir("iqa-web-")
  await fs.mkdir(path.join(webRoot, "assets"))
  await fs.writeFile(path.join(webRoot, "index.html"), INDEX_HTML)
  await fs.writeFile(path.join(webRoot, "assets/app-1a2b.js"), "console.log('app')")
  await fs.writeFile(path.join(webRoot, "favicon.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  return webRoot
}

describe("the web build with SPA fallback", () => {
  let subject: TestApp
  let webRoot: string

  beforeAll(async () => {
    webRoot = await makeWebRoot()
    subject = await startTestApp({ WEB_ROOT: webRoot })
  })
  afterAll(async () => {
    await subject.close()
    await fs.rm(webRoot, { recursive: true, force: true })
  })

  it.each(["/", "/pricing", "/blog/some-post", "/admin/users", "/app", "/no/such/page?x=1"])(
    "answers %s with index.html",
    async (url) => {
      const response = await subject.app.inject({ method: "GET", url })
      expect(response.statusCode).toBe(200)
      expect(response.headers["content-type"]).toMatch(/^text\/html/)
      expect(response.headers["cache-control"]).toBe("no-cache")
      expect(response.body).toBe(INDEX_HTML)
    }
  )

  it("serves hashed assets for a year and other files with revalidation", async () => {
    const asset = await subject.app.inject({ method: "GET", url: "/assets/app-1a2b.js" })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers["content-type"]).toMatch(/javascript/)
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    const favicon = await subject.app.inject({ method: "GET", url: "/favicon.png" })
    expect(favicon.headers["content-type"]).toBe("image/png")
    expect(favicon.headers["cache-control"]).toBe("no-cache")
  })

  it("keeps a missing asset a 404 instead of answering HTML for JavaScript", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/assets/gone-9z9z.js" })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ success: false, error: { code: "NOT_FOUND" } })
  })

  it.each([
    ["GET", "/api/nothing-here"],
    ["GET", "/api"],
    ["POST", "/api/status"],
    ["DELETE", "/api/status/1"],
    ["GET", "/api/nothing?with=query"]
  ])("answers an unknown API call %s %s with a JSON 404 in the wrapper", async (method, url) => {
    const response = await subject.app.inject({ method: method as "GET", url })
    expect(response.statusCode).toBe(404)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    expect(response.json()).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: expect.stringContaining("No API endpoint") }
    })
  })

  it("sends security headers with a CSP that allows only our own origin", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/" })
    const csp = String(response.headers["content-security-policy"])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/https?:\/\//)
    expect(csp).not.toContain("upgrade-insecure-requests")
    expect(response.headers["x-content-type-options"]).toBe("nosniff")
    expect(response.headers["referrer-policy"]).toBe("no-referrer")
    expect(response.headers["strict-transport-security"]).toBeUndefined()
    expect(response.headers["cross-origin-opener-policy"]).toBe("same-origin")
  })

  it("allows Google sign-in's script, helper frame and Auth API only when Google sign-in is configured", async () => {
    const directives = (csp: string) => Object.fromEntries(csp.split(/;\s*/).map((directive) => [directive.split(" ")[0], directive.split(" ").slice(1)]))
    const real = await startTestApp({ WEB_ROOT: webRoot, FIREBASE_PROJECT_ID: "image-query-ai-prod", FIREBASE_WEB_API_KEY: "AIza-public-key" })
    const emulated = await startTestApp({ WEB_ROOT: webRoot, FIREBASE_PROJECT_ID: "demo-image-query-ai", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" })
    try {
      const realPage = await real.app.inject({ method: "GET", url: "/login" })
      const realCsp = directives(String(realPage.headers["content-security-policy"]))
      expect(realCsp["script-src"]).toEqual(["'self'", "https://apis.google.com"])
      expect(realCsp["frame-src"]).toEqual(["'self'", "https://image-query-ai-prod.firebaseapp.com"])
      expect(realCsp["connect-src"]).toEqual(["'self'", "https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"])
      expect(realCsp["default-src"]).toEqual(["'self'"])
      // Google's popup answers through its opener, which "same-origin" would cut.
      expect(realPage.headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups")

      const emulatedCsp = directives(String((await emulated.app.inject({ method: "GET", url: "/login" })).headers["content-security-policy"]))
      expect(emulatedCsp["frame-src"]).toEqual(["'self'", "http://127.0.0.1:9099"])
      expect(emulatedCsp["connect-src"]).toEqual(["'self'", "http://127.0.0.1:9099"])
    } finally {
      await Promise.all([real.close(), emulated.close()])
    }
  })

  it("asks for HTTPS upgrades and HSTS when the public URL is HTTPS", async () => {
    const secure = await startTestApp({ WEB_ROOT: webRoot, PUBLIC_URL: "https://app.example.com" })
    try {
      const response = await secure.app.inject({ method: "GET", url: "/" })
      expect(String(response.headers["content-security-policy"])).toContain("upgrade-insecure-requests")
      expect(response.headers["strict-transport-security"]).toContain("max-age=")
    } finally {
      await secure.close()
    }
  })
})

describe("without a web build", () => {
  it("tells the visitor how to build the site, and the API keeps working", async () => {
    const emptyRoot = await makeTempDir("iqa-empty-web-")
    const subject = await startTestApp({ WEB_ROOT: emptyRoot })
    try {
      const page = await subject.app.inject({ method: "GET", url: "/pricing" })
      expect(page.statusCode).toBe(503)
      expect(page.body).toContain("npm run build:web")
      const status = await subject.app.inject({ method: "GET", url: "/api/status" })
      expect(status.statusCode).toBe(200)
    } finally {
      await subject.close()
      await fs.rm(emptyRoot, { recursive: true, force: true })
    }
  })
})

describe("errors in the wrapper", () => {
  let subject: TestApp

  beforeAll(async () => {
    const database = await openTestDatabase()
    const dataDir = await makeTempDir()
    const app = await buildApp(testConfig({}, dataDir), { database })
    const echoSchema = z.object({ name: z.string().min(1).max(50) })
    app.post("/api/test/echo", async (request) => ({ success: true, data: parseInput(echoSchema, request.body) }))
    app.get("/api/test/teapot", async () => {
      throw new ApiError(409, "BAD_REQUEST", "Already there")
    })
    app.get("/api/test/crash", async () => {
      throw new Error("database password is hunter2")
    })
    await app.ready()
    subject = {
      app,
      database,
      dataDir,
      close: async () => {
        await app.close()
        await database.close()
      }
    }
  })
  afterAll(async () => subject.close())

  it.each([
    ["not JSON", "{name:", "application/json", 400, "BAD_REQUEST"],
    ["an empty JSON body", "", "application/json", 400, "BAD_REQUEST"],
    ["a wrong type", JSON.stringify({ name: 42 }), "application/json", 400, "VALIDATION_FAILED"],
    ["a missing field", JSON.stringify({}), "application/json", 400, "VALIDATION_FAILED"],
    ["a huge string", JSON.stringify({ name: "x".repeat(10_000) }), "application/json", 400, "VALIDATION_FAILED"],
    ["an unsupported content type", "name=x", "application/x-www-form-urlencoded", 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["a body over the limit", JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }), "application/json", 413, "PAYLOAD_TOO_LARGE"]
  ])("refuses %s with a 4xx wrapper", async (_label, payload, contentType, status, code) => {
    const response = await subject.app.inject({
      method: "POST",
      url: "/api/test/echo",
      payload,
      headers: { "content-type": contentType }
    })
    expect(response.statusCode).toBe(status)
    const body = response.json()
    expect(body.success).toBe(false)
    expect(body.error.code).toBe(code)
    expect(typeof body.error.message).toBe("string")
  })

  it("lists validation problems in details", async () => {
    const response = await subject.app.inject({ method: "POST", url: "/api/test/echo", payload: { name: "" } })
    expect(response.json().error).toMatchObject({ message: "Validation failed", details: [expect.stringMatching(/^name: /)] })
  })

  it("passes a valid body", async () => {
    const response = await subject.app.inject({ method: "POST", url: "/api/test/echo", payload: { name: "Ada" } })
    expect(response.json()).toEqual({ success: true, data: { name: "Ada" } })
  })

  it("answers ApiError with its status and code", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/api/test/teapot" })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({ success: false, error: { code: "BAD_REQUEST", message: "Already there" } })
  })

  it("hides the details of an unexpected failure", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/api/test/crash" })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({
      success: false,
      error: { code: "INTERNAL_ERROR", message: "Something went wrong on our side. Please try again." }
    })
    expect(response.body).not.toContain("hunter2")
  })
})

describe("start-up state in DATA_DIR", () => {
  it("applies migrations to a new embedded database and reopens it without redoing them", async () => {
    const dataDir = await makeTempDir()
    try {
      const first = await buildApp(testConfig({}, dataDir))
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(first.database.db)
      expect(applied.rows.map((row) => row.name)).toEqual(["001-app-settings", "002-accounts", "003-usage", "004-feedback", "005-session-binding", "006-sign-in-checks", "007-billing", "008-shared-limits", "009-email-outbox", "010-identity-traces", "011-billing-integrity", "012-api-keys", "013-api-call-days", "014-organizations", "015-admin-users", "016-audit-log", "017-analytics", "018-blog-posts", "019-trial-claims", "020-two-step-sign-in", "021-passkeys", "022-organization-require-mfa", "023-organization-domains", "024-organization-sso", "025-sso-sign-in", "026-scim", "027-webhooks"])
      await first.database.db.insertInto("app_settings").values({ key: "probe", value: JSON.stringify({ kept: true }) }).execute()
      await first.close()

      const second = await buildApp(testConfig({}, dataDir))
      const row = await second.database.db.selectFrom("app_settings").selectAll().where("key", "=", "probe").executeTakeFirst()
      expect(row?.value).toEqual({ kept: true })
      expect(second.database.kind).toBe("embedded")
      await second.close()
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true })
    }
    // Two cold starts of an embedded database, every migration on the first: 9 s on a quiet machine, 28 s in a full
    // CI run with the PostgreSQL files beside it, over the API files' 20 s.
  }, 60_000)

  it("generates the token secret once and reuses it: private to the owner in DATA_DIR, or in a shared PostgreSQL database", async () => {
    const dataDir = await makeTempDir()
    const otherDataDir = await makeTempDir()
    const database = await openTestDatabase()
    try {
      const first = await buildApp(testConfig({}, dataDir), { database })
      const second = await buildApp(testConfig({}, database.kind === "postgres" ? otherDataDir : dataDir), { database })
      expect(first.tokenSecret.length).toBeGreaterThanOrEqual(32)
      expect(second.tokenSecret).toBe(first.tokenSecret)
      if (database.kind === "postgres") {
        // Instances on other machines read it from the database; no file holds it.
        await expect(fs.stat(path.join(dataDir, "secrets/token-secret"))).rejects.toThrow()
        expect(await database.db.selectFrom("app_settings").select("value").where("key", "=", "secret:token-secret").executeTakeFirst()).toEqual({ value: first.tokenSecret })
      } else {
        const stat = await fs.stat(path.join(dataDir, "secrets/token-secret"))
        expect(stat.mode & 0o777).toBe(0o600)
      }
      await Promise.all([first.close(), second.close()])
    } finally {
      await database.close()
      await fs.rm(dataDir, { recursive: true, force: true })
      await fs.rm(otherDataDir, { recursive: true, force: true })
    }
  })

  it("uses TOKEN_SECRET when configured and writes no secret file", async () => {
    const dataDir = await makeTempDir()
    const database = await openTestDatabase()
    try {
      const secret = "s".repeat(40)
      const app = await buildApp(testConfig({ TOKEN_SECRET: secret }, dataDir), { database })
      expect(app.tokenSecret).toBe(secret)
      await expect(fs.stat(path.join(dataDir, "secrets/token-secret"))).rejects.toThrow()
      await app.close()
    } finally {
      await database.close()
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  })
})
