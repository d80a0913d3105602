/**
 * A stolen token adds no way in: adding a sign-in method (a password, Google) needs proof of the person (the current
 * password, or a sign-in within 5 minutes for an account without one) and never works with the extension's token;
 * the owner is e-mailed. POST /api/auth/unlink removes a method while another remains, with the same proof, and ends
 * the other sessions. Google identities come from the Firebase Auth emulator.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import { EMULATOR_PROJECT_ID, emulatorGoogleIdToken } from "../../tests/setup/firebase-emulator"
import { readOutbox, startTestApp, type TestApp } from "../test-kit"

const STRONG = "Blue-Harbor-42!"
const emulatorHost = inject("firebaseAuthEmulatorHost")

let subject: TestApp
// Firebase checks its tokens against the real time: the app's clock starts there.
let now = Date.now()
let ipCounter = 0
const nextIp = () => `10.15.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`
let counter = 0
const unique = () => `${Date.now().toString(36)}-${++counter}`

beforeAll(async () => {
  subject = await startTestApp({ PUBLIC_URL: "http://localhost:8787", FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }, { clock: () => now })
})
afterAll(async () => subject?.close())

async function post(url: string, body: unknown, token?: string) {
  const response = await subject.app.inject({ method: "POST", url, remoteAddress: nextIp(), headers: token ? { authorization: `Bearer ${token}` } : {}, payload: body as object })
  return { status: response.statusCode, body: response.json() }
}
const status = async (token: string) => (await subject.app.inject({ method: "GET", url: "/api/auth/auth-status", headers: { authorization: `Bearer ${token}` } })).json().data
const profileStatus = async (token: string) => (await subject.app.inject({ method: "GET", url: "/api/auth/profile", headers: { authorization: `Bearer ${token}` } })).statusCode

const googleIdToken = (claims: { sub: string; email: string; name?: string }) => emulatorGoogleIdToken(emulatorHost, { name: "Grace Hopper", ...claims })

async function mailsTo(email: string) {
  await subject.app.outbox.idle()
  return (await readOutbox(subject.dataDir)).filter((mail) => mail.to.includes(email)).map((mail) => mail.subject)
}

/** A verified e-mail account, signed in. */
async function emailAccount() {
  const email = `methods-${unique()}@example.com`
  await post("/api/auth/register", { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true })
  await subject.app.outbox.idle()
  const link = (await readOutbox(subject.dataDir)).find((mail) => mail.to.includes(email) && mail.subject.startsWith("Verify"))!.link!
  await post("/api/auth/verify-email", { oobCode: new URL(link).searchParams.get("oobCode") })
  return { email, token: (await post("/api/auth/login", { email, password: STRONG })).body.data.token as string }
}

/** A Google-only account, signed in now. */
async function googleAccount() {
  const id = unique()
  const email = `g-methods-${id}@example.com`
  const idToken = await googleIdToken({ sub: `google-${id}`, email })
  const answer = await post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true })
  return { email, idToken, token: answer.body.data.token as string }
}

const extensionTokenOf = async (siteToken: string) => (await post("/api/auth/extension-session", {}, siteToken)).body.data.token as string

describe("adding a password to a Google account", () => {
  it("needs a sign-in of the last 5 minutes, never the extension's token, and tells the owner", async () => {
    const google = await googleAccount()
    const extension = await extensionTokenOf(google.token)
    const fromExtension = await post("/api/auth/link-email", { email: google.email, password: STRONG }, extension)
    expect(fromExtension.status).toBe(403)
    expect(fromExtension.body.error.code).toBe("FORBIDDEN")

    const saved = now
    try {
      now += 6 * 60_000
      const stale = await post("/api/auth/link-email", { email: google.email, password: STRONG }, google.token)
      expect(stale.status).toBe(403)
      expect(stale.body.error).toMatchObject({ code: "REAUTHENTICATION_REQUIRED", message: expect.stringContaining("sign in again") })
    } finally {
      now = saved
    }
    expect(await status(google.token)).toMatchObject({ hasEmailAuth: false })

    expect((await post("/api/auth/link-email", { email: google.email, password: STRONG }, google.token)).status).toBe(200)
    expect(await status(google.token)).toMatchObject({ hasEmailAuth: true, hasGoogleAuth: true })
    expect(await mailsTo(google.email)).toContain("A password was added to your Image Query AI account")
  })
})

describe("linking Google to an e-mail account", () => {
  it("needs the current password, never the extension's token, and tells the owner", async () => {
    const account = await emailAccount()
    const idToken = await googleIdToken({ sub: `google-${unique()}`, email: `elsewhere-${unique()}@example.com` })
    const missing = await post("/api/auth/link-google", { idToken }, account.token)
    expect(missing.status).toBe(400)
    expect(missing.body.error.details).toEqual(["currentPassword: Current password is required"])
    const wrong = await post("/api/auth/link-google", { idToken, currentPassword: "Not-The-Password-1!" }, account.token)
    expect(wrong.body.error.code).toBe("INVALID_CREDENTIALS")
    const fromExtension = await post("/api/auth/link-google", { idToken, currentPassword: STRONG }, await extensionTokenOf(account.token))
    expect(fromExtension.status).toBe(403)
    expect(await status(account.token)).toMatchObject({ hasGoogleAuth: false })
    expect(await mailsTo(account.email)).not.toContain("Google sign-in was added to your Image Query AI account")

    expect((await post("/api/auth/link-google", { idToken, currentPassword: STRONG }, account.token)).status).toBe(200)
    expect(await status(account.token)).toMatchObject({ hasGoogleAuth: true })
    expect(await mailsTo(account.email)).toContain("Google sign-in was added to your Image Query AI account")
  })
})

describe("POST /api/auth/unlink", () => {
  /** An e-mail account that has linked Google too, and a second sign-in of it. */
  async function bothMethods() {
    const account = await emailAccount()
    const idToken = await googleIdToken({ sub: `google-${unique()}`, email: account.email })
    expect((await post("/api/auth/link-google", { idToken, currentPassword: STRONG }, account.token)).status).toBe(200)
    const other = (await post("/api/auth/login", { email: account.email, password: STRONG })).body.data.token as string
    return { ...account, idToken, other }
  }

  it("removes Google with the current password, ends the other sessions and tells the owner; the last method stays", async () => {
    const account = await bothMethods()
    expect((await post("/api/auth/unlink", { provider: "google" }, account.token)).body.error.code).toBe("VALIDATION_FAILED")
    expect((await post("/api/auth/unlink", { provider: "google", currentPassword: STRONG }, await extensionTokenOf(account.token))).status).toBe(403)
    const removed = await post("/api/auth/unlink", { provider: "google", currentPassword: STRONG }, account.token)
    expect(removed.status).toBe(200)
    expect(await status(account.token)).toEqual({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
    expect(await profileStatus(account.other)).toBe(401)
    expect(await profileStatus(account.token)).toBe(200)
    expect((await post("/api/auth/google", { idToken: account.idToken })).status).not.toBe(200)
    expect(await mailsTo(account.email)).toContain("Google sign-in was removed from your Image Query AI account")

    const last = await post("/api/auth/unlink", { provider: "email", currentPassword: STRONG }, account.token)
    expect(last.status).toBe(409)
    expect(last.body.error.code).toBe("LAST_SIGN_IN_METHOD")
    expect((await post("/api/auth/unlink", { provider: "google", currentPassword: STRONG }, account.token)).body.error.code).toBe("NOT_LINKED")
  })

  it("removes the password: the account then signs in with Google only", async () => {
    const account = await bothMethods()
    expect((await post("/api/auth/unlink", { provider: "email", currentPassword: STRONG }, account.token)).status).toBe(200)
    expect(await status(account.token)).toEqual({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })
    expect((await post("/api/auth/login", { email: account.email, password: STRONG })).status).not.toBe(200)
    expect((await post("/api/auth/google", { idToken: account.idToken })).status).toBe(200)
    expect(await mailsTo(account.email)).toContain("The password was removed from your Image Query AI account")
  })

  it("20 removals of both methods at once leave the account one way in", async () => {
    const account = await bothMethods()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => post("/api/auth/unlink", { provider: index % 2 ? "google" : "email", currentPassword: STRONG }, account.token))
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    const row = await subject.database.db.selectFrom("users").select(["password_hash", "google_uid"]).where("email", "=", account.email).executeTakeFirstOrThrow()
    expect([row.password_hash, row.google_uid].filter((method) => method !== null)).toHaveLength(1)
  })
})
