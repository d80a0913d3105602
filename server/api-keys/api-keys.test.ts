/**
 * Personal API keys: made once and shown once, listed without the key, revoked at once; Pro and Enterprise only (a
 * trial counts); at most ten, under a burst too; managed from a website session only, with proof of the person;
 * each change e-mailed to the owner and written to the audit log.
 */
import { createHash } from "node:crypto"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { MAX_ACTIVE_API_KEYS } from "~core/api-keys"

import { hashPassword } from "../auth/passwords"
import { readOutbox, signedInUser, startTestApp, type TestApp } from "../test-kit"

let subject: TestApp

beforeAll(async () => {
  subject = await startTestApp()
})
afterAll(() => subject?.close())

async function call(method: "GET" | "POST" | "DELETE", url: string, { token, body, ip = "203.0.113.7" }: { token?: string; body?: unknown; ip?: string } = {}) {
  const response = await subject.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
  })
  return { status: response.statusCode, body: JSON.parse(response.body || "{}"), text: response.body }
}

const emailOf = async (id: string) => (await subject.database.db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirstOrThrow()).email
const activeKeys = async (userId: string) =>
  subject.database.db.selectFrom("api_keys").selectAll().where("user_id", "=", userId).where("revoked_at", "is", null).execute()

describe("personal API keys", () => {
  it("shows a new key once, keeps only its hash, lists it without the key, and revokes it at once; each change e-mailed and audited", async () => {
    const owner = await signedInUser(subject.app, "pro")
    const created = await call("POST", "/api/keys", { token: owner.token, body: { name: "ci" } })
    expect(created.status).toBe(201)
    const key = created.body.data as { id: string; name: string; prefix: string; key: string; createdAt: string }
    expect(key.key).toMatch(/^iqa_[0-9A-Za-z]{43}$/)
    expect(key).toMatchObject({ name: "ci", prefix: key.key.slice(0, 12) })

    const [row] = await activeKeys(owner.id)
    expect(row!.key_hash).toBe(createHash("sha256").update(key.key).digest("hex"))
    expect(JSON.stringify(row)).not.toContain(key.key.slice(12))

    const listed = await call("GET", "/api/keys", { token: owner.token })
    expect(listed.body.data).toEqual([{ id: key.id, name: "ci", prefix: key.prefix, createdAt: key.createdAt, lastUsedAt: null }])
    expect(listed.text).not.toContain(key.key.slice(12))

    expect((await call("DELETE", `/api/keys/${key.id}`, { token: owner.token })).status).toBe(200)
    expect((await call("GET", "/api/keys", { token: owner.token })).body.data).toEqual([])
    expect((await call("DELETE", `/api/keys/${key.id}`, { token: owner.token })).body.error.code).toBe("NOT_FOUND")

    await subject.app.outbox.idle()
    const email = await emailOf(owner.id)
    const subjects = (await readOutbox(subject.dataDir)).filter((mail) => mail.to.includes(email)).map((mail) => mail.subject)
    expect(subjects).toEqual(["A new API key 'ci' was created", "The API key 'ci' was revoked"])
    const audit = await subject.database.db.selectFrom("audit_events").selectAll().where("subject_id", "=", owner.id).orderBy("id").execute()
    expect(audit.map(({ kind, actor_id, ip, detail }) => ({ kind, actor_id, ip, detail }))).toEqual([
      { kind: "api_key.created", actor_id: owner.id, ip: "203.0.113.7", detail: { keyId: key.id, name: "ci", prefix: key.prefix } },
      { kind: "api_key.revoked", actor_id: owner.id, ip: "203.0.113.7", detail: { keyId: key.id, name: "ci", prefix: key.prefix } }
    ])
  })

  it("is for Pro and Enterprise, a trial included: a Free account is told to upgrade and gets no key", async () => {
    const free = await signedInUser(subject.app, "free")
    const refused = await call("POST", "/api/keys", { token: free.token, body: { name: "ci" } })
    expect([refused.status, refused.body.error.code]).toEqual([403, "PLAN_REQUIRED"])
    expect(await activeKeys(free.id)).toEqual([])

    const trial = await signedInUser(subject.app, "pro")
    await subject.database.db.updateTable("users").set({ subscription_status: "trialing" }).where("id", "=", trial.id).execute()
    expect((await call("POST", "/api/keys", { token: trial.token, body: { name: "trial" } })).status).toBe(201)
    const enterprise = await signedInUser(subject.app, "enterprise")
    expect((await call("POST", "/api/keys", { token: enterprise.token, body: { name: "etl" } })).status).toBe(201)
  })

  it(`holds at most ${MAX_ACTIVE_API_KEYS} keys when 20 are asked for at once; a revoked key frees its place`, async () => {
    const owner = await signedInUser(subject.app, "pro")
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => call("POST", "/api/keys", { token: owner.token, body: { name: `burst ${index}` } })))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_ACTIVE_API_KEYS)
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.code)).toEqual(Array(10).fill("KEY_LIMIT_REACHED"))
    expect(await activeKeys(owner.id)).toHaveLength(MAX_ACTIVE_API_KEYS)

    const one = answers.find((answer) => answer.status === 201)!.body.data as { id: string }
    await call("DELETE", `/api/keys/${one.id}`, { token: owner.token })
    expect((await call("POST", "/api/keys", { token: owner.token, body: { name: "after" } })).status).toBe(201)
  })

  it("is managed from a website session only, with the password of an account that has one, and never another's key", async () => {
    const owner = await signedInUser(subject.app, "pro")
    const { key, id } = (await call("POST", "/api/keys", { token: owner.token, body: { name: "mine" } })).body.data as { key: string; id: string }
    // The key opens nothing but the public API: not the keys, the account or billing.
    for (const [method, url] of [["GET", "/api/keys"], ["POST", "/api/keys"], ["GET", "/api/auth/profile"], ["GET", "/api/billing/subscription"], ["GET", "/api/admin/overview"]] as const) {
      const answer = await call(method, url, { token: key, body: method === "POST" ? { name: "minted" } : undefined })
      expect([answer.status, answer.body.error?.code], url).toEqual([401, "UNAUTHORIZED"])
    }

    const extension = await call("POST", "/api/auth/extension-session", { token: owner.token })
    const fromExtension = await call("POST", "/api/keys", { token: extension.body.data.token, body: { name: "from the extension" } })
    expect([fromExtension.status, fromExtension.body.error.code]).toEqual([403, "FORBIDDEN"])

    const other = await signedInUser(subject.app, "pro")
    expect((await call("DELETE", `/api/keys/${id}`, { token: other.token })).body.error.code).toBe("NOT_FOUND")
    expect(await activeKeys(owner.id)).toHaveLength(1)

    for (const body of [{}, { name: "" }, { name: "x".repeat(61) }, { name: "two\nlines" }, { name: "ci", extra: true }]) {
      expect((await call("POST", "/api/keys", { token: owner.token, body })).body.error.code, JSON.stringify(body)).toBe("VALIDATION_FAILED")
    }

    const withPassword = await signedInUser(subject.app, "pro")
    await subject.database.db.updateTable("users").set({ password_hash: await hashPassword("Copper-Kettle-37!") }).where("id", "=", withPassword.id).execute()
    expect((await call("POST", "/api/keys", { token: withPassword.token, body: { name: "ci" } })).body.error.code).toBe("VALIDATION_FAILED")
    expect((await call("POST", "/api/keys", { token: withPassword.token, body: { name: "ci", currentPassword: "wrong-password" } })).body.error.code).toBe("INVALID_CREDENTIALS")
    expect((await call("POST", "/api/keys", { token: withPassword.token, body: { name: "ci", currentPassword: "Copper-Kettle-37!" } })).status).toBe(201)
    expect(await activeKeys(withPassword.id)).toHaveLength(1)
  })
})
