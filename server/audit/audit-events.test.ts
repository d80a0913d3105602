/**
 * The audit log written by the real flows, each entry in the transaction of its change: a sign-in method added or
 * removed (a password, Google), a password changed or reset, sessions ended (sign out everywhere, and by a password
 * change, a reset or a removed method), a lockout. A change that fails or rolls back leaves no entry, an entry that
 * cannot be written undoes its change, the database refuses to change or delete an entry, and deleting an account
 * keeps its entries with its address. Google identities come from the Firebase Auth emulator.
 */
import { sql } from "kysely"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import { EMULATOR_PROJECT_ID, emulatorGoogleIdToken } from "../../tests/setup/firebase-emulator"
import { ensureAdminAccount } from "../auth/admin-bootstrap"
import { readOutbox, startTestApp, type TestApp } from "../test-kit"

const STRONG = "Blue-Harbor-42!"
const STRONGER = "Quiet-Meadow-73?"
const emulatorHost = inject("firebaseAuthEmulatorHost")

let subject: TestApp
// Firebase checks its tokens against the real time: the app's clock starts there and only moves a few minutes on.
let now = Date.now()
let ipCounter = 0
const nextIp = () => `10.27.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`
let counter = 0
const unique = () => `${Date.now().toString(36)}-${++counter}`

beforeAll(async () => {
  subject = await startTestApp({ PUBLIC_URL: "http://localhost:8787", FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }, { clock: () => now })
})
afterAll(async () => subject?.close())

async function post(url: string, body: unknown, { token, ip = nextIp() }: { token?: string; ip?: string } = {}) {
  const response = await subject.app.inject({ method: "POST", url, remoteAddress: ip, headers: token ? { authorization: `Bearer ${token}` } : {}, payload: body as object })
  return { status: response.statusCode, body: response.json() }
}

async function linkOf(email: string, subjectStart: string) {
  await subject.app.outbox.idle()
  const mail = (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email) && message.subject.startsWith(subjectStart)).pop()
  return new URL(mail!.link!).searchParams.get("oobCode")!
}

/** A verified e-mail account, signed in twice (two sessions). */
async function emailAccount() {
  const email = `audit-${unique()}@example.com`
  await post("/api/auth/register", { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true })
  await post("/api/auth/verify-email", { oobCode: await linkOf(email, "Verify") })
  const first = await post("/api/auth/login", { email, password: STRONG })
  const second = await post("/api/auth/login", { email, password: STRONG })
  const { id } = await subject.database.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
  return { id, email, token: first.body.data.token as string, otherToken: second.body.data.token as string }
}

/** The account's entries, oldest first. */
const entriesOf = (userId: string) =>
  subject.database.db
    .selectFrom("audit_events")
    .select(["kind", "actor_id", "actor_email", "subject_id", "target", "detail", "ip"])
    .where((eb) => eb.or([eb("subject_id", "=", userId), eb("actor_id", "=", userId)]))
    .orderBy("id")
    .execute()

describe("the audit log, written by each flow", () => {
  it("records a password change with the sessions it ended, by the account, from its address", async () => {
    const account = await emailAccount()
    expect((await post("/api/auth/change-password", { currentPassword: STRONG, newPassword: STRONGER }, { token: account.token, ip: "203.0.113.7" })).status).toBe(200)
    const self = { actor_id: account.id, actor_email: account.email, subject_id: account.id, target: account.email, ip: "203.0.113.7" }
    expect(await entriesOf(account.id)).toEqual([
      { kind: "password.changed", ...self, detail: {} },
      { kind: "sessions.ended", ...self, detail: { reason: "password_changed", count: 1 } }
    ])
  })

  it("records a password reset and every session it ended", async () => {
    const account = await emailAccount()
    await post("/api/auth/forgot-password", { email: account.email })
    const oobCode = await linkOf(account.email, "Reset")
    expect((await post("/api/auth/reset-password", { oobCode, newPassword: "abc" })).status).toBe(400)
    expect(await entriesOf(account.id)).toEqual([])
    expect((await post("/api/auth/reset-password", { oobCode, newPassword: STRONGER }, { ip: "198.51.100.4" })).status).toBe(200)
    const entries = await entriesOf(account.id)
    expect(entries.map((entry) => [entry.kind, entry.detail, entry.ip])).toEqual([
      ["password.reset", {}, "198.51.100.4"],
      ["sessions.ended", { reason: "password_reset", count: 2 }, "198.51.100.4"]
    ])
  })

  it("records signing out everywhere", async () => {
    const account = await emailAccount()
    expect((await post("/api/auth/logout-all", {}, { token: account.token, ip: "192.0.2.9" })).status).toBe(200)
    expect(await entriesOf(account.id)).toEqual([
      { kind: "sessions.ended", actor_id: account.id, actor_email: account.email, subject_id: account.id, target: account.email, ip: "192.0.2.9", detail: { reason: "sign_out_everywhere", count: 2 } }
    ])
  })

  it("records a lockout once, by the system, naming the address and the account", async () => {
    const account = await emailAccount()
    const unknown = `nobody-${unique()}@example.com`
    for (const email of [account.email, unknown]) {
      const answers: number[] = []
      for (let attempt = 0; attempt < 5; attempt++) {
        now += 60_000 // past the progressive delay
        answers.push((await post("/api/auth/login", { email, password: "Wrong-Password-1!" }, { ip: "192.0.2.66" })).status)
      }
      expect(answers).toEqual([401, 401, 401, 401, 401])
      now += 60_000
      expect((await post("/api/auth/login", { email, password: "Wrong-Password-1!" })).status).toBe(423)
    }
    expect(await entriesOf(account.id)).toEqual([
      { kind: "account.locked", actor_id: null, actor_email: null, subject_id: account.id, target: account.email, ip: "192.0.2.66", detail: { email: account.email, failures: 5, lockedForSeconds: 900 } }
    ])
    const ofUnknown = await subject.database.db.selectFrom("audit_events").select(["kind", "subject_id", "target"]).where("target", "=", unknown).execute()
    expect(ofUnknown).toEqual([{ kind: "account.locked", subject_id: null, target: unknown }])
  })

  it("records a lockout once when 20 wrong passwords arrive at once", async () => {
    const account = await emailAccount()
    await Promise.all(Array.from({ length: 20 }, (_, index) => post("/api/auth/login", { email: account.email, password: "Wrong-Password-1!" }, { ip: `198.51.100.${index + 1}` })))
    // Whatever the burst left for later, the account is locked by the end of it, and said so once.
    for (let attempt = 0; attempt < 10 && (await post("/api/auth/login", { email: account.email, password: "Wrong-Password-1!" })).status !== 423; attempt++) now += 60_000
    expect((await entriesOf(account.id)).filter((entry) => entry.kind === "account.locked")).toHaveLength(1)
  })

  it("records a Google account linked, a password added, and a method removed with the sessions it ended", async () => {
    const account = await emailAccount()
    const idToken = await emulatorGoogleIdToken(emulatorHost, { sub: `google-${unique()}`, email: `linked-${unique()}@example.com`, name: "Grace Hopper" })
    expect((await post("/api/auth/link-google", { idToken, currentPassword: "Not-The-Password-1!" }, { token: account.token })).status).toBe(400)
    expect(await entriesOf(account.id)).toEqual([])
    expect((await post("/api/auth/link-google", { idToken, currentPassword: STRONG }, { token: account.token, ip: "192.0.2.10" })).status).toBe(200)
    expect((await post("/api/auth/unlink", { provider: "email", currentPassword: STRONG }, { token: account.token, ip: "192.0.2.11" })).status).toBe(200)
    // A Google-only account signed in within 5 minutes adds a password back.
    expect((await post("/api/auth/link-email", { email: account.email, password: STRONGER }, { token: account.token, ip: "192.0.2.12" })).status).toBe(200)
    expect((await entriesOf(account.id)).map((entry) => [entry.kind, entry.detail, entry.ip])).toEqual([
      ["sign_in_method.added", { method: "google" }, "192.0.2.10"],
      ["sign_in_method.removed", { method: "password" }, "192.0.2.11"],
      ["sessions.ended", { reason: "sign_in_method_removed", count: 1 }, "192.0.2.11"],
      ["sign_in_method.added", { method: "password" }, "192.0.2.12"]
    ])
  })

  it("records Google taking over an address whose e-mail account was never verified", async () => {
    const email = `unproven-${unique()}@example.com`
    await post("/api/auth/register", { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true })
    const { id } = await subject.database.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    const idToken = await emulatorGoogleIdToken(emulatorHost, { sub: `google-${unique()}`, email, name: "Grace Hopper" })
    const accepted = await post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true }, { ip: "192.0.2.20" })
    expect(accepted.status).toBe(201)
    expect((await entriesOf(id)).map((entry) => [entry.kind, entry.detail, entry.ip])).toEqual([
      ["sign_in_method.added", { method: "google" }, "192.0.2.20"],
      ["sign_in_method.removed", { method: "password" }, "192.0.2.20"]
    ])
  })

  it("records the password ADMIN_PASSWORD sets at start as the system's change", async () => {
    const account = await emailAccount()
    await ensureAdminAccount(subject.app, { email: account.email, password: STRONGER })
    expect(await entriesOf(account.id)).toEqual([
      { kind: "password.changed", actor_id: null, actor_email: null, subject_id: account.id, target: account.email, ip: null, detail: { by: "ADMIN_PASSWORD" } }
    ])
    // The same password again changes nothing, and records nothing.
    await ensureAdminAccount(subject.app, { email: account.email, password: STRONGER })
    expect(await entriesOf(account.id)).toHaveLength(1)
  })

  it("keeps an account's entries, with its address, after the account is deleted", async () => {
    const account = await emailAccount()
    await post("/api/auth/logout-all", {}, { token: account.otherToken })
    const fresh = await post("/api/auth/login", { email: account.email, password: STRONG })
    const deleted = await subject.app.inject({ method: "DELETE", url: "/api/auth/account", headers: { authorization: `Bearer ${fresh.body.data.token}` }, payload: { password: STRONG } })
    expect(deleted.statusCode).toBe(200)
    expect(await subject.database.db.selectFrom("users").select("id").where("id", "=", account.id).execute()).toEqual([])
    expect((await entriesOf(account.id)).map((entry) => [entry.kind, entry.actor_email, entry.target])).toEqual([["sessions.ended", account.email, account.email]])
  })
})

describe("the audit log and its change, together or not at all", () => {
  /** Makes `table`'s `event` fail in the database while `work` runs, as a crash in the middle of the change would. */
  async function whileFailing(table: string, event: "insert" | "update", work: () => Promise<void>) {
    const db = subject.database.db
    await sql`create function fail_for_test() returns trigger language plpgsql as $$ begin raise exception 'failing on purpose'; end $$`.execute(db)
    await sql.raw(`create trigger fail_for_test before ${event} on ${table} for each row execute function fail_for_test()`).execute(db)
    try {
      await work()
    } finally {
      await sql.raw(`drop trigger fail_for_test on ${table}`).execute(db)
      await sql`drop function fail_for_test()`.execute(db)
    }
  }

  const passwordHashOf = async (userId: string) => (await subject.database.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow()).password_hash

  it("writes no entry when the change fails after it started, and keeps the password", async () => {
    const account = await emailAccount()
    const before = await passwordHashOf(account.id)
    // Ending the other sessions fails after the password was replaced: the whole change rolls back.
    await whileFailing("sessions", "update", async () => {
      expect((await post("/api/auth/change-password", { currentPassword: STRONG, newPassword: STRONGER }, { token: account.token })).status).toBe(500)
    })
    expect(await passwordHashOf(account.id)).toBe(before)
    expect(await entriesOf(account.id)).toEqual([])
  })

  it("undoes the change when its entry cannot be written", async () => {
    const account = await emailAccount()
    const before = await passwordHashOf(account.id)
    await whileFailing("audit_events", "insert", async () => {
      expect((await post("/api/auth/change-password", { currentPassword: STRONG, newPassword: STRONGER }, { token: account.token })).status).toBe(500)
      await post("/api/auth/forgot-password", { email: account.email })
      expect((await post("/api/auth/reset-password", { oobCode: await linkOf(account.email, "Reset"), newPassword: STRONGER })).status).toBe(500)
      expect((await post("/api/auth/logout-all", {}, { token: account.token })).status).toBe(500)
    })
    expect(await passwordHashOf(account.id)).toBe(before)
    // Both sessions still live: neither the change nor the sign-out ended them.
    for (const token of [account.token, account.otherToken]) {
      expect((await subject.app.inject({ method: "GET", url: "/api/auth/profile", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200)
    }
  })
})

describe("the database", () => {
  it("refuses to change, delete or empty the audit log, whoever asks", async () => {
    const account = await emailAccount()
    await post("/api/auth/logout-all", {}, { token: account.token })
    const db = subject.database.db
    const refusals = [
      sql`update audit_events set kind = 'password.changed' where actor_id = ${account.id}`,
      sql`update audit_events set actor_email = null`,
      sql`delete from audit_events where actor_id = ${account.id}`,
      sql`delete from audit_events`,
      sql`truncate audit_events`
    ]
    for (const statement of refusals) await expect(statement.execute(db)).rejects.toThrow(/append-only/)
    expect(await entriesOf(account.id)).toHaveLength(1)
  })
})
