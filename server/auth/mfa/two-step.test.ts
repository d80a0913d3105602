/**
 * Two-step sign-in through the API: the life cycle of an authenticator app, the sign-in's second step (replay, expiry,
 * wrong codes under a parallel burst and the account's lockout), recovery codes used once, what is sealed in the
 * database, the e-mails and the audit log. Runs on the embedded database and, in the api-postgres project, PostgreSQL.
 */
import { describe, expect, it } from "vitest"

import { MFA_TOKEN_LIFETIME_MS } from "~core/two-step"

import { authTestKit, STRONG } from "../auth-test-kit"
import { codeAt } from "./authenticator"

const kit = authTestKit()
const { call, login, signedUpUser } = kit

/** A signed-up account with two-step sign-in on: its secret, its recovery codes and its session. */
async function withTwoStep() {
  const user = await signedUpUser()
  const setup = await call("POST", "/api/auth/mfa/totp/setup", { token: user.token, body: { currentPassword: STRONG } })
  expect(setup.status).toBe(200)
  const secret = setup.body.data.secret as string
  const enabled = await call("POST", "/api/auth/mfa/totp/enable", { token: user.token, body: { code: codeAt(secret, kit.now) } })
  expect(enabled.status).toBe(200)
  // The next code is of the next step: the one just used is spent.
  kit.now += 30_000
  return { ...user, secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] }
}

const mfaTokenOf = async (email: string) => {
  const answer = await login(email)
  expect(answer.status).toBe(200)
  expect(answer.body.data).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ["totp", "recovery_code"] })
  expect(answer.body.data.token).toBeUndefined()
  return answer.body.data.mfaToken as string
}

describe("two-step sign-in with an authenticator app", () => {
  it("is set up with the password, confirmed with a code, and then asked for at every sign-in", async () => {
    const user = await signedUpUser()
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: 0 })
    expect((await call("POST", "/api/auth/mfa/totp/setup", { token: user.token, body: {} })).status).toBe(400)
    expect((await call("POST", "/api/auth/mfa/totp/setup", { token: user.token, body: { currentPassword: "wrong" } })).body.error.code).toBe("INVALID_CREDENTIALS")
    const setup = await call("POST", "/api/auth/mfa/totp/setup", { token: user.token, body: { currentPassword: STRONG } })
    const { secret, otpauthUrl, qrSvg } = setup.body.data
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(otpauthUrl).toBe(`otpauth://totp/Image%20Query%20AI:${encodeURIComponent(user.email)}?issuer=Image%20Query%20AI&secret=${secret}&algorithm=SHA1&digits=6&period=30`)
    expect(qrSvg).toMatch(/^<svg [^>]*>.*<\/svg>\s*$/s)
    // Set up is not on: a sign-in still opens a session.
    expect((await login(user.email)).body.data.token).toEqual(expect.any(String))

    expect((await call("POST", "/api/auth/mfa/totp/enable", { token: user.token, body: { code: "000000" } })).body.error.code).toBe("INVALID_CODE")
    const enabled = await call("POST", "/api/auth/mfa/totp/enable", { token: user.token, body: { code: codeAt(secret, kit.now) } })
    expect(enabled.body.data.recoveryCodes).toHaveLength(10)
    expect(new Set(enabled.body.data.recoveryCodes).size).toBe(10)
    for (const code of enabled.body.data.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/)
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data).toEqual({ totp: true, recoveryCodesLeft: 10, passkeys: 0 })

    // The database holds neither the secret nor a recovery code.
    const db = kit.subject.database.db
    const stored = JSON.stringify([await db.selectFrom("totp_factors").selectAll().execute(), await db.selectFrom("recovery_codes").selectAll().execute()])
    expect(stored).not.toContain(secret)
    for (const code of enabled.body.data.recoveryCodes) expect(stored).not.toContain(code.replace("-", ""))

    kit.now += 30_000
    const mfaToken = await mfaTokenOf(user.email)
    const signedIn = await call("POST", "/api/auth/mfa/verify", { body: { mfaToken, code: codeAt(secret, kit.now) } })
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.data).toMatchObject({ user: { email: user.email }, token: expect.any(String), refreshToken: expect.any(String) })
    expect((await call("GET", "/api/auth/profile", { token: signedIn.body.data.token })).status).toBe(200)
    // The token is used up.
    expect((await call("POST", "/api/auth/mfa/verify", { body: { mfaToken, code: codeAt(secret, kit.now) } })).body.error.code).toBe("MFA_TOKEN_INVALID")

    const mails = (await kit.mailTo(user.email)).map((message) => message.subject)
    expect(mails).toContain("Two-step sign-in was turned on")
    const audit = await db.selectFrom("audit_events").select("kind").where("subject_id", "=", signedIn.body.data.user.id as string).execute()
    expect(audit.map((row) => row.kind)).toContain("two_step.enabled")
  })

  it("refuses a code already used for the rest of its window, and a token older than five minutes", async () => {
    const user = await withTwoStep()
    const code = codeAt(user.secret, kit.now)
    expect((await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: await mfaTokenOf(user.email), code } })).status).toBe(200)
    const replay = await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: await mfaTokenOf(user.email), code } })
    expect(replay.status).toBe(401)
    expect(replay.body.error.code).toBe("INVALID_CODE")

    kit.now += 30_000
    const late = await mfaTokenOf(user.email)
    kit.now += MFA_TOKEN_LIFETIME_MS + 1000
    const expired = await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: late, code: codeAt(user.secret, kit.now) } })
    expect(expired.status).toBe(401)
    expect(expired.body.error.code).toBe("MFA_TOKEN_INVALID")
  })

  it("ends the sign-in after five wrong codes and locks the account under 20 parallel guesses", async () => {
    const user = await withTwoStep()
    const mfaToken = await mfaTokenOf(user.email)
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => call("POST", "/api/auth/mfa/verify", { body: { mfaToken, code: String(100000 + index) } }))
    )
    expect(guesses.every((answer) => answer.status !== 200 && answer.status !== 500)).toBe(true)
    const checked = guesses.filter((answer) => answer.body.error.code === "INVALID_CODE" || answer.body.error.code === "MFA_TOKEN_INVALID")
    expect(checked.length).toBeLessThanOrEqual(5)
    // The right code now finds the sign-in ended, and the account locked or waiting.
    const after = await call("POST", "/api/auth/mfa/verify", { body: { mfaToken, code: codeAt(user.secret, kit.now) } })
    expect(after.status).not.toBe(200)
    const next = await login(user.email)
    expect([423, 429]).toContain(next.status)
  })

  it("signs in once with each recovery code, tells the owner, and replaces them all with a code", async () => {
    const user = await withTwoStep()
    const [first, second] = user.recoveryCodes
    const signedIn = await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: await mfaTokenOf(user.email), recoveryCode: first!.toUpperCase() } })
    expect(signedIn.status).toBe(200)
    const again = await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: await mfaTokenOf(user.email), recoveryCode: first } })
    expect(again.body.error.code).toBe("INVALID_CODE")
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data.recoveryCodesLeft).toBe(9)
    const mail = (await kit.mailTo(user.email)).find((message) => message.subject === "A recovery code was used to sign in to your account")
    expect(mail?.text).toContain("9 of your recovery codes are left")

    const replaced = await call("POST", "/api/auth/mfa/recovery-codes", { token: user.token, body: { code: codeAt(user.secret, kit.now) } })
    expect(replaced.body.data.recoveryCodes).toHaveLength(10)
    expect((await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: await mfaTokenOf(user.email), recoveryCode: second } })).body.error.code).toBe("INVALID_CODE")
  })

  it("spends a code on one change under 20 parallel calls: one enable answers recovery codes, one replacement replaces them", async () => {
    const user = await signedUpUser()
    const setup = await call("POST", "/api/auth/mfa/totp/setup", { token: user.token, body: { currentPassword: STRONG } })
    const secret = setup.body.data.secret as string
    const first = codeAt(secret, kit.now)
    const enables = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/auth/mfa/totp/enable", { token: user.token, body: { code: first } })))
    expect(enables.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(enables.filter((answer) => answer.status >= 500)).toEqual([])

    kit.now += 30_000
    const next = codeAt(secret, kit.now)
    const replacements = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/auth/mfa/recovery-codes", { token: user.token, body: { code: next } })))
    const replaced = replacements.filter((answer) => answer.status === 200)
    expect(replaced).toHaveLength(1)
    expect(replacements.filter((answer) => answer.status >= 500)).toEqual([])
    // The codes the one replacement answered are the account's: one of them signs in.
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data.recoveryCodesLeft).toBe(10)
    kit.now += 30 * 60_000
    const recoveryCode = (replaced[0]!.body.data.recoveryCodes as string[])[0]
    expect((await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: await mfaTokenOf(user.email), recoveryCode } })).status).toBe(200)
  })

  it("is turned off only with the password and a current code, and tells the owner", async () => {
    const user = await withTwoStep()
    const code = codeAt(user.secret, kit.now)
    expect((await call("POST", "/api/auth/mfa/totp/disable", { token: user.token, body: { currentPassword: STRONG, code: "123456" } })).body.error.code).toBe("INVALID_CODE")
    expect((await call("POST", "/api/auth/mfa/totp/disable", { token: user.token, body: { code } })).status).toBe(400)
    const off = await call("POST", "/api/auth/mfa/totp/disable", { token: user.token, body: { currentPassword: STRONG, code } })
    expect(off.body.data).toEqual({ totp: false })
    expect((await login(user.email)).body.data.token).toEqual(expect.any(String))
    expect((await kit.mailTo(user.email)).map((message) => message.subject)).toContain("Two-step sign-in was turned off")
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: 0 })
  })

  it("counts wrong codes to turn it off toward the lockout, so a stolen session with the password cannot try codes at speed", async () => {
    const user = await withTwoStep()
    for (const code of ["111111", "222222"]) {
      const wrong = await call("POST", "/api/auth/mfa/totp/disable", { token: user.token, body: { currentPassword: STRONG, code } })
      expect(wrong.body.error.code).toBe("INVALID_CODE")
    }
    const third = await call("POST", "/api/auth/mfa/totp/disable", { token: user.token, body: { currentPassword: STRONG, code: codeAt(user.secret, kit.now) } })
    expect(third.status).toBe(429)
    expect(third.body.error.code).toBe("PROGRESSIVE_DELAY")
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data.totp).toBe(true)
  })

  it("checks at most the attempts left of 20 parallel wrong codes to turn it off, and stays on", async () => {
    const user = await withTwoStep()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => call("POST", "/api/auth/mfa/totp/disable", { token: user.token, body: { currentPassword: STRONG, code: String(300000 + index) } }))
    )
    expect(answers.every((answer) => answer.status !== 200 && answer.status !== 500)).toBe(true)
    expect(answers.filter((answer) => answer.body.error.code === "INVALID_CODE").length).toBeLessThanOrEqual(5)
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data.totp).toBe(true)
  })

  it("answers bad input with the spec's wrapper and changes nothing", async () => {
    const user = await withTwoStep()
    for (const body of [{}, { mfaToken: "x" }, { mfaToken: "x", code: "12" }, { mfaToken: "x", recoveryCode: "nope" }, { mfaToken: "x", code: "123456", recoveryCode: "abcde-23456" }]) {
      const answer = await call("POST", "/api/auth/mfa/verify", { body })
      expect(answer.status).toBe(400)
      expect(answer.body).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED" } })
    }
    expect((await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: "unknown", code: "123456" } })).body.error.code).toBe("MFA_TOKEN_INVALID")
    expect((await call("POST", "/api/auth/mfa/totp/setup", { token: user.token, body: { currentPassword: STRONG } })).body.error.code).toBe("MFA_ALREADY_ENABLED")
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data.totp).toBe(true)
  })
})
