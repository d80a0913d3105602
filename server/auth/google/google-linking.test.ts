// No account takeover by e-mail address, and linking Google to an e-mail account and e-mail to a Google account.
import { describe, expect, it } from "vitest"

import {
  acceptTerms,
  emailAccount,
  firebaseUid,
  get,
  googleIdToken,
  newGoogleUser,
  now,
  post,
  register,
  setUpGoogleApp,
  STRONG,
  subject,
  unique,
  userRows,
  verificationCode
} from "./google-test-kit"

setUpGoogleApp()

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
