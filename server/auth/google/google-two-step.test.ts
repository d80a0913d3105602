/** Two-step sign-in for an account that signs in with Google: set up with a fresh sign-in as the proof, then asked for after Google. */
import { describe, expect, it } from "vitest"

import { codeAt } from "../mfa/authenticator"
import { acceptTerms, get, googleIdToken, newGoogleUser, now, post, setUpGoogleApp } from "./google-test-kit"

setUpGoogleApp()

describe("two-step sign-in after Google", () => {
  it("asks a Google account with an authenticator app for its code before any session", async () => {
    const google = newGoogleUser()
    const idToken = await googleIdToken(google)
    const created = await acceptTerms(idToken)
    expect(created.status).toBe(201)
    const token = created.body.data.token as string
    // No password: a sign-in within the last 5 minutes is the proof.
    const setup = await post("/api/auth/mfa/totp/setup", {}, { token })
    expect(setup.status).toBe(200)
    const secret = setup.body.data.secret as string
    expect((await post("/api/auth/mfa/totp/enable", { code: codeAt(secret, now) }, { token })).status).toBe(200)

    const signIn = await post("/api/auth/google", { idToken: await googleIdToken(google) })
    expect(signIn.status).toBe(200)
    expect(signIn.body.data).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ["totp", "recovery_code"] })
    const wrong = await post("/api/auth/mfa/verify", { mfaToken: signIn.body.data.mfaToken, code: "000000" })
    expect(wrong.body.error.code).toBe("INVALID_CODE")
    const verified = await post("/api/auth/mfa/verify", { mfaToken: signIn.body.data.mfaToken, code: codeAt(secret, now + 30_000) })
    expect(verified.status).toBe(200)
    expect(verified.body.data.user.email).toBe(google.email)
    expect((await get("/api/auth/mfa", verified.body.data.token as string)).body.data).toEqual({ totp: true, recoveryCodesLeft: 10, passkeys: 0 })
  })
})
