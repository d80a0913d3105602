// Signing in with Google: new and returning users, the tokens refused, parallel bursts and rate limits, configuration.
import { describe, expect, it } from "vitest"

import { EMULATOR_PROJECT_ID } from "../../../tests/setup/firebase-emulator"
import { startTestApp, type TestApp } from "../../test-kit"
import { signIn } from "../account-service"
import { firebaseWebConfig } from "./google-identity"
import {
  acceptTerms,
  call,
  emulatorApi,
  emulatorHost,
  firebaseUid,
  get,
  googleEnv,
  googleIdToken,
  newGoogleUser,
  nextIp,
  now,
  post,
  register,
  reissued,
  setUpGoogleApp,
  STRONG,
  unique,
  userRows
} from "./google-test-kit"

setUpGoogleApp()

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
