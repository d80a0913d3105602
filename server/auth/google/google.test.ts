import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest"

import { EMULATOR_PROJECT_ID, emulatorGoogleIdToken } from "../../../tests/setup/firebase-emulator"
import { readOutbox, startTestApp, type TestApp } from "../../test-kit"
import { signIn } from "../account-service"
import { firebaseWebConfig } from "./google-identity"

const STRONG = "Blue-Harbor-42!"
const emulatorHost = inject("firebaseAuthEmulatorHost")
const googleEnv = { PUBLIC_URL: "http://localhost:8787", FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }

let subject: TestApp
// Firebase checks its tokens against the real time, so the app's clock starts there too.
let now = Date.now()
let ipCounter = 0
const nextIp = () => `10.12.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`
let counter = 0
const unique = () => `${Date.now().toString(36)}-${++counter}`

async function call(app: TestApp, method: "GET" | "POST", url: string, options: { body?: unknown; token?: string; ip?: string } = {}) {
  const response = await app.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? nextIp(),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body !== undefined ? { payload: options.body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}
const post = (url: string, body?: unknown, options: { token?: string; ip?: string } = {}) => call(subject, "POST", url, { body, ...options })
const get = (url: string, token?: string) => call(subject, "GET", url, { token })

const emulatorApi = (method: string) => `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`

/** A Google user signing in through the emulator; the same `sub` is the same Google account (the same Firebase uid). */
const googleIdToken = (claims: { sub: string; email: string; email_verified?: boolean; name?: string }) => emulatorGoogleIdToken(emulatorHost, claims)

const newGoogleUser = (name = "Grace Hopper") => {
  const id = unique()
  return { sub: `google-${id}`, email: `g-${id}@example.com`, name }
}

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>
}

/** The emulator's tokens are unsigned; this one has the same claims with others changed. */
function reissued(idToken: string, changes: Record<string, unknown>): string {
  const [header, payload] = idToken.split(".")
  const claims = { ...decodePart(payload!), ...changes }
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`
}

function firebaseUid(idToken: string): string {
  return decodePart(idToken.split(".")[1]!).user_id as string
}

async function userRows(where: { email?: string; googleUid?: string }) {
  let query = subject.database.db.selectFrom("users").selectAll()
  if (where.email) query = query.where("email", "=", where.email)
  if (where.googleUid) query = query.where("google_uid", "=", where.googleUid)
  return query.execute()
}

async function mailTo(email: string) {
  await subject.app.outbox.idle()
  return (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email))
}

async function register(email: string) {
  return post("/api/auth/register", { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true })
}

async function verificationCode(email: string): Promise<string> {
  const link = (await mailTo(email)).find((message) => message.subject.startsWith("Verify"))!.link!
  return new URL(link).searchParams.get("oobCode")!
}

/** A verified e-mail account, signed in. */
async function emailAccount() {
  const email = `e-${unique()}@example.com`
  await register(email)
  await post("/api/auth/verify-email", { oobCode: await verificationCode(email) })
  const { body } = await post("/api/auth/login", { email, password: STRONG })
  return { email, token: body.data.token as string }
}

const acceptTerms = (idToken: string, options: { ip?: string } = {}) =>
  post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true }, options)

beforeAll(async () => {
  subject = await startTestApp(googleEnv, { clock: () => now })
})
afterAll(async () => subject?.close())
beforeEach(() => {
  now += 60_000
})

describe("signing in with Google", () => {
  it("asks a new Google user to accept the terms, creates nothing, then creates the account on acceptance", async () => {
    const google = newGoogleUser()
    const idToken = await googleIdToken(google)
    const uid = firebaseUid(idToken)

    const first = await post("/api/auth/google", { idToken })
    expect(first.status).toBe(403)
    expect(first.body).toEqual({
      success: false,
      error: { code: "TERMS_NOT_ACCEPTED", message: "Please accept the Terms of Service and Privacy Policy to create your account." }
    })
    expect(await userRows({ email: google.email })).toEqual([])

    const refused = await post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: false })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("VALIDATION_FAILED")
    expect(await userRows({ email: google.email })).toEqual([])

    const accepted = await acceptTerms(idToken)
    expect(accepted.status).toBe(201)
    expect(accepted.body.data).toEqual({
      user: expect.objectContaining({ email: google.email, name: "Grace Hopper", provider: "google", providerId: uid, emailVerified: true }),
      token: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(Number)
    })
    const [row] = await userRows({ googleUid: uid })
    expect(row).toMatchObject({ email: google.email, password_hash: null, google_uid: uid })
    expect(row!.terms_accepted_at).not.toBeNull()

    const profile = await get("/api/auth/profile", accepted.body.data.token)
    expect(profile.body.data.user).toMatchObject({ email: google.email, provider: "google", providerId: uid })
    expect((await get("/api/auth/auth-status", accepted.body.data.token)).body.data).toEqual({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })
  })

  it("signs a returning Google user in, and accept-terms for a known uid just signs in", async () => {
    const google = newGoogleUser()
    expect((await acceptTerms(await googleIdToken(google))).status).toBe(201)

    const again = await post("/api/auth/google", { idToken: await googleIdToken(google) })
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ user: { email: google.email, provider: "google" }, token: expect.any(String), refreshToken: expect.any(String) })
    expect((await get("/api/auth/profile", again.body.data.token)).status).toBe(200)

    const acceptedAgain = await acceptTerms(await googleIdToken(google))
    expect(acceptedAgain.status).toBe(200)
    expect(await userRows({ email: google.email })).toHaveLength(1)
  })

  it("names the account after the address when the Google token carries no name", async () => {
    const id = unique()
    const accepted = await acceptTerms(await googleIdToken({ sub: `google-${id}`, email: `nameless-${id}@example.com` }))
    expect(accepted.body.data.user.name).toBe(`nameless-${id}`)
  })

  it("refuses a Google address that Google has not verified, at sign-in and at acceptance", async () => {
    const google = { ...newGoogleUser(), email_verified: false }
    for (const answer of [await post("/api/auth/google", { idToken: await googleIdToken(google) }), await acceptTerms(await googleIdToken(google))]) {
      expect(answer.status).toBe(403)
      expect(answer.body.error).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified. Please verify your email before signing in." })
    }
    expect(await userRows({ email: google.email })).toEqual([])
  })

  it("refuses a token of another Firebase project", async () => {
    const other = await startTestApp({ ...googleEnv, FIREBASE_PROJECT_ID: "another-project" }, { clock: () => now })
    try {
      const idToken = await googleIdToken(newGoogleUser())
      for (const [url, body] of [
        ["/api/auth/google", { idToken }],
        ["/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true }]
      ] as const) {
        const answer = await call(other, "POST", url, { body })
        expect(answer.status).toBe(401)
        expect(answer.body.error).toEqual({
          code: "INVALID_TOKEN",
          message: "Google sign-in failed: the sign-in token is invalid or has expired. Please try again."
        })
      }
      expect(await other.database.db.selectFrom("users").select("id").execute()).toEqual([])
    } finally {
      await other.close()
    }
  })

  it("refuses an expired token, a token for another audience, a forged provider and garbage", async () => {
    const google = newGoogleUser()
    const idToken = await googleIdToken(google)
    const seconds = Math.floor(Date.now() / 1000)
    const tokens = [
      reissued(idToken, { iat: seconds - 7200, auth_time: seconds - 7200, exp: seconds - 3600 }),
      reissued(idToken, { aud: "another-project", iss: "https://securetoken.google.com/another-project" }),
      "not-a-token"
    ]
    for (const token of tokens) {
      const answer = await acceptTerms(token)
      expect(answer.status).toBe(401)
      expect(answer.body.error.code).toBe("INVALID_TOKEN")
    }
    const forgedProvider = await acceptTerms(reissued(idToken, { firebase: { identities: {}, sign_in_provider: "password" } }))
    expect(forgedProvider.status).toBe(401)
    expect(forgedProvider.body.error).toEqual({ code: "INVALID_TOKEN", message: "Google sign-in failed: this sign-in token does not come from Google." })
    expect(await userRows({ email: google.email })).toEqual([])
  })

  it("refuses an ID token of an e-mail and password Firebase user", async () => {
    const response = await fetch(emulatorApi("signUp"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `pw-${unique()}@example.com`, password: STRONG, returnSecureToken: true })
    })
    const { idToken } = (await response.json()) as { idToken: string }
    const answer = await post("/api/auth/google", { idToken })
    expect(answer.status).toBe(401)
    expect(answer.body.error.message).toBe("Google sign-in failed: this sign-in token does not come from Google.")
  })

  it("refuses a missing or oversized token as bad input", async () => {
    expect((await post("/api/auth/google", {})).body.error.code).toBe("VALIDATION_FAILED")
    expect((await post("/api/auth/google", { idToken: "x".repeat(9000) })).body.error.code).toBe("VALIDATION_FAILED")
    expect((await post("/api/auth/google", { idToken: "x", extra: 1 })).status).toBe(400)
  })
})

describe("no account takeover by e-mail address", () => {
  it("turns an unverified e-mail account with the address into the Google account: its password, codes and sessions go", async () => {
    const google = newGoogleUser("Real Owner")
    await register(google.email)
    const staleCode = await verificationCode(google.email)
    const [before] = await userRows({ email: google.email })
    const idToken = await googleIdToken(google)
    const uid = firebaseUid(idToken)

    const signIn = await post("/api/auth/google", { idToken })
    expect(signIn.status).toBe(403)
    expect(signIn.body.error.code).toBe("TERMS_NOT_ACCEPTED")
    expect((await userRows({ email: google.email }))[0]).toEqual(before)

    const accepted = await acceptTerms(idToken)
    expect(accepted.status).toBe(201)
    expect(accepted.body.data.user).toMatchObject({ id: before!.id, email: google.email, name: "Real Owner", provider: "google", providerId: uid, emailVerified: true })
    const [after] = await userRows({ email: google.email })
    expect(after).toMatchObject({ id: before!.id, password_hash: null, google_uid: uid })
    expect(await subject.database.db.selectFrom("password_history").select("id").where("user_id", "=", before!.id).execute()).toEqual([])

    const oldPassword = await post("/api/auth/login", { email: google.email, password: STRONG })
    expect(oldPassword.status).toBe(401)
    expect(oldPassword.body.error.code).toBe("INVALID_CREDENTIALS")
    expect((await post("/api/auth/verify-email", { oobCode: staleCode })).body.error.code).toBe("INVALID_OR_EXPIRED_CODE")
    expect((await get("/api/auth/auth-status", accepted.body.data.token)).body.data).toEqual({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })
  })

  it("refuses a Google sign-in whose address belongs to a verified e-mail account, and changes nothing", async () => {
    const { email } = await emailAccount()
    const [before] = await userRows({ email })
    const idToken = await googleIdToken({ sub: `google-${unique()}`, email, name: "Intruder" })
    for (const answer of [await post("/api/auth/google", { idToken }), await acceptTerms(idToken)]) {
      expect(answer.status).toBe(409)
      expect(answer.body.error).toEqual({
        code: "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL",
        message: "An account with this email already exists. Sign in with your password, then link Google from your dashboard."
      })
    }
    expect(await userRows({ email })).toEqual([before])
    expect((await post("/api/auth/login", { email, password: STRONG })).status).toBe(200)
  })

  it("refuses a Google identity with the address of an account linked to another Google identity", async () => {
    // The emulator gives one address one uid, so the other identity's account is written directly.
    const google = newGoogleUser()
    const [owner] = await subject.database.db
      .insertInto("users")
      .values({ email: google.email, name: "Owner", google_uid: `other-uid-${unique()}`, email_verified_at: new Date(now) })
      .returningAll()
      .execute()
    const idToken = await googleIdToken(google)
    for (const answer of [await post("/api/auth/google", { idToken }), await acceptTerms(idToken)]) {
      expect(answer.status).toBe(409)
      expect(answer.body.error).toEqual({
        code: "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL",
        message: "An account with this email already exists and signs in with a different Google account."
      })
    }
    expect(await userRows({ email: google.email })).toEqual([owner])
  })
})

describe("linking", () => {
  it("links a Google identity to a signed-in e-mail account, whatever the Google address; the uid cannot be linked twice", async () => {
    const { email, token } = await emailAccount()
    expect((await get("/api/auth/auth-status", token)).body.data).toEqual({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
    const idToken = await googleIdToken({ sub: `google-${unique()}`, email: `elsewhere-${unique()}@example.com` })
    const uid = firebaseUid(idToken)

    expect((await post("/api/auth/link-google", { idToken })).status).toBe(401)
    const linked = await post("/api/auth/link-google", { idToken, currentPassword: STRONG }, { token })
    expect(linked.status).toBe(200)
    expect(linked.body.data.user).toMatchObject({ email, provider: "email", providerId: uid })
    expect((await get("/api/auth/auth-status", token)).body.data).toEqual({ hasEmailAuth: true, hasGoogleAuth: true, providers: ["email", "google"] })

    // Both ways in now lead to the same account.
    const viaGoogle = await post("/api/auth/google", { idToken })
    expect(viaGoogle.status).toBe(200)
    expect(viaGoogle.body.data.user.email).toBe(email)
    expect((await post("/api/auth/login", { email, password: STRONG })).status).toBe(200)

    const again = await post("/api/auth/link-google", { idToken: await googleIdToken({ sub: `google-${unique()}`, email }), currentPassword: STRONG }, { token })
    expect(again.status).toBe(409)
    expect(again.body.error).toEqual({ code: "PROVIDER_ALREADY_LINKED", message: "This account is already linked to a Google account." })

    const second = await emailAccount()
    const taken = await post("/api/auth/link-google", { idToken, currentPassword: STRONG }, { token: second.token })
    expect(taken.status).toBe(409)
    expect(taken.body.error).toEqual({ code: "CREDENTIAL_ALREADY_IN_USE", message: "This Google account is already linked to another account." })
    expect((await userRows({ email: second.email }))[0]!.google_uid).toBeNull()
  })

  it("links one Google identity to one account only when two accounts race for it", async () => {
    const [first, second] = [await emailAccount(), await emailAccount()]
    const idToken = await googleIdToken(newGoogleUser())
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => post("/api/auth/link-google", { idToken, currentPassword: STRONG }, { token: index % 2 ? first.token : second.token }))
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    // The others are told the identity is taken, or (the current password is checked first) to wait: sign-in
    // protection checks a few passwords of one address at a time.
    expect(answers.filter((answer) => answer.status === 409).length).toBeGreaterThan(0)
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 409 || answer.status === 429)).toBe(true)
    expect(await userRows({ googleUid: firebaseUid(idToken) })).toHaveLength(1)
  })

  it("adds e-mail and password to a Google account, with the password policy, then signs in with the password", async () => {
    const google = newGoogleUser()
    const { token } = (await acceptTerms(await googleIdToken(google))).body.data
    const weak = await post("/api/auth/link-email", { email: google.email, password: "short" }, { token })
    expect(weak.status).toBe(400)
    expect(weak.body.error.code).toMatch(/^PASSWORD_|VALIDATION_FAILED/)

    const linked = await post("/api/auth/link-email", { email: google.email, password: STRONG }, { token })
    expect(linked.status).toBe(200)
    expect((await get("/api/auth/auth-status", token)).body.data).toEqual({ hasEmailAuth: true, hasGoogleAuth: true, providers: ["email", "google"] })
    const withPassword = await post("/api/auth/login", { email: google.email, password: STRONG })
    expect(withPassword.status).toBe(200)
    expect(withPassword.body.data.user.email).toBe(google.email)
    expect((await post("/api/auth/google", { idToken: await googleIdToken(google) })).status).toBe(200)
  })
})

describe("parallel bursts and rate limits", () => {
  it("creates nothing for 20 parallel sign-ins of a new user, and exactly one account for 20 parallel acceptances", async () => {
    const google = newGoogleUser()
    const idToken = await googleIdToken(google)
    const signIns = await Promise.all(Array.from({ length: 20 }, () => post("/api/auth/google", { idToken })))
    expect(new Set(signIns.map((answer) => answer.body.error?.code))).toEqual(new Set(["TERMS_NOT_ACCEPTED"]))
    expect(await userRows({ email: google.email })).toEqual([])

    const acceptances = await Promise.all(Array.from({ length: 20 }, () => acceptTerms(idToken)))
    expect(acceptances.map((answer) => answer.status).sort()).toEqual([...Array(19).fill(200), 201])
    expect(await userRows({ email: google.email })).toHaveLength(1)
    expect(new Set(acceptances.map((answer) => answer.body.data.user.id)).size).toBe(1)
  })

  it("converts an unverified account once under 20 parallel acceptances", async () => {
    const google = newGoogleUser()
    await register(google.email)
    const idToken = await googleIdToken(google)
    const acceptances = await Promise.all(Array.from({ length: 20 }, () => acceptTerms(idToken)))
    expect(acceptances.map((answer) => answer.status).sort()).toEqual([...Array(19).fill(200), 201])
    expect(await userRows({ email: google.email })).toHaveLength(1)
  })

  it("limits Google sign-in per IP address like password sign-in", async () => {
    const ip = nextIp()
    const answers = await Promise.all(Array.from({ length: 31 }, () => post("/api/auth/google", { idToken: "not-a-token" }, { ip })))
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(30)
    const limited = answers.filter((answer) => answer.status === 429)
    expect(limited).toHaveLength(1)
    expect(limited[0]!.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", message: "Too many login attempts from this IP. Please try again later." })
  })
})

/** A signed-in e-mail account of another app, written directly. */
async function signedInElsewhere(app: TestApp): Promise<string> {
  const user = await app.database.db
    .insertInto("users")
    .values({ email: `direct-${unique()}@example.com`, name: "Direct", password_hash: "unused", email_verified_at: new Date(now) })
    .returningAll()
    .executeTakeFirstOrThrow()
  return (await signIn(app.app, user)).token
}

describe("configuration", () => {
  it("serves the web client's public settings", async () => {
    expect((await get("/api/auth/firebase-config")).body).toEqual({
      success: true,
      data: {
        enabled: true,
        config: { apiKey: "demo-api-key", authDomain: `${EMULATOR_PROJECT_ID}.firebaseapp.com`, projectId: EMULATOR_PROJECT_ID },
        emulatorUrl: `http://${emulatorHost}`
      }
    })
    const base = { projectId: "shop-1", webApiKey: undefined, authDomain: undefined, authEmulatorHost: undefined }
    expect(firebaseWebConfig(base)).toEqual({ enabled: false, config: null, emulatorUrl: null })
    expect(firebaseWebConfig({ ...base, webApiKey: "AIza-public", authDomain: "login.shop.example" })).toEqual({
      enabled: true,
      config: { apiKey: "AIza-public", authDomain: "login.shop.example", projectId: "shop-1" },
      emulatorUrl: null
    })
    expect(firebaseWebConfig({ ...base, projectId: undefined, webApiKey: "AIza-public" }).enabled).toBe(false)
  })

  it("answers 503 GOOGLE_NOT_CONFIGURED without FIREBASE_PROJECT_ID", async () => {
    const bare = await startTestApp({ PUBLIC_URL: "http://localhost:8787" })
    try {
      expect((await call(bare, "GET", "/api/auth/firebase-config")).body.data).toEqual({ enabled: false, config: null, emulatorUrl: null })
      for (const [url, body] of [
        ["/api/auth/google", { idToken: "anything" }],
        ["/api/auth/google/accept-terms", { idToken: "anything", termsAccepted: true, privacyPolicyAccepted: true }],
        ["/api/auth/link-google", { idToken: "anything" }]
      ] as const) {
        const answer = await call(bare, "POST", url, { body, token: url.endsWith("link-google") ? await signedInElsewhere(bare) : undefined })
        expect(answer.status).toBe(503)
        expect(answer.body.error).toEqual({ code: "GOOGLE_NOT_CONFIGURED", message: "Google sign-in is not configured on this server." })
      }
    } finally {
      await bare.close()
    }
  })
})
