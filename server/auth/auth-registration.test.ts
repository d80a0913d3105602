/** Registration, e-mail verification and its resend, check and sync. */
import { decodeJwt } from "jose"
import { describe, expect, it } from "vitest"

import { authTestKit, STRONG } from "./auth-test-kit"

const kit = authTestKit()
const { call, register, verify, login, userCount, mailTo, newEmail, nextIp } = kit

describe("registration and e-mail verification", () => {
  it("creates an unverified account, sends the verification link and opens no session", async () => {
    const email = newEmail()
    const { status, body } = await register(email)
    expect(status).toBe(201)
    expect(body.data).toMatchObject({
      user: { email, name: "Ada Lovelace", role: "user", provider: "email", subscription: { plan: { id: "free", name: "Free" } }, emailVerified: false },
      token: null,
      refreshToken: null,
      verificationRequired: true,
      verificationToken: expect.any(String)
    })
    const [message] = await mailTo(email)
    expect(message!.subject).toBe("Verify your email for Image Query AI")
    const link = new URL(message!.link!)
    expect(`${link.origin}${link.pathname}`).toBe("http://localhost:8787/")
    expect([...link.searchParams.keys()]).toEqual(["mode", "oobCode", "apiKey", "lang"])
    expect(link.searchParams.get("mode")).toBe("verifyEmail")
    expect(link.searchParams.get("lang")).toBe("en")
  })

  it("refuses sign-in before verification only after a correct password, then verifies once", async () => {
    const email = newEmail()
    await register(email)
    expect((await login(email, "Wrong-Password-1!")).body.error.code).toBe("INVALID_CREDENTIALS")
    const unverified = await login(email)
    expect(unverified.status).toBe(403)
    expect(unverified.body.error).toEqual({
      code: "EMAIL_NOT_VERIFIED",
      message: "Please verify your email before signing in. Check your inbox for a verification link.",
      verificationToken: expect.any(String)
    })

    const verified = await verify(email)
    expect(verified.body).toEqual({ success: true, data: { email, verified: true } })
    expect((await mailTo(email)).map((message) => message.subject)).toEqual(["Verify your email for Image Query AI", "Welcome to Image Query AI"])

    const again = await verify(email)
    expect(again.status).toBe(400)
    expect(again.body.error).toEqual({ code: "INVALID_OR_EXPIRED_CODE", message: "This verification link is invalid or has expired." })

    const signedIn = await login(email)
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.data.user).toMatchObject({ email, emailVerified: true, subscription: { plan: { name: "Free" } } })
    const claims = decodeJwt(signedIn.body.data.token)
    expect(claims.exp).toBe(Math.floor(kit.now / 1000) + 3600)
    expect(claims.role).toBe("user")
    expect(typeof signedIn.body.data.refreshToken).toBe("string")
  })

  it("expires verification codes after 24 hours", async () => {
    const email = newEmail()
    await register(email)
    kit.now += 24 * 3_600_000 + 1000
    expect((await verify(email)).body.error.code).toBe("INVALID_OR_EXPIRED_CODE")
  })

  it("refuses a second account for the same address, whatever its case", async () => {
    const email = newEmail()
    await register(email)
    const duplicate = await register(email.toUpperCase())
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.error).toEqual({ code: "EMAIL_ALREADY_EXISTS", message: "An account with this email address already exists." })
  })

  it("refuses a password the policy refuses, lists every failure and stores nothing but the violation", async () => {
    const before = await userCount()
    const violationsBefore = await kit.subject.database.db.selectFrom("policy_violations").selectAll().execute()
    const { status, body } = await register(newEmail(), "password")
    expect(status).toBe(400)
    expect(body.error.code).toMatch(/^PASSWORD_/)
    expect(body.error.message).toBe("Password requirements not met")
    expect(body.error.details.length).toBeGreaterThan(1)
    expect(await userCount()).toBe(before)
    const violations = await kit.subject.database.db.selectFrom("policy_violations").selectAll().execute()
    expect(violations.length).toBe(violationsBefore.length + 1)
    expect(violations.at(-1)!.action).toBe("register")
    expect(JSON.stringify(violations.at(-1))).not.toContain('"password"')
  })

  it("refuses the e-mail as part of the password and a common password", async () => {
    expect((await register("marigold@example.com", "Marigold-2026!x")).body.error.details).toEqual(
      expect.arrayContaining([expect.stringMatching(/personal|email|name/i)])
    )
    // In the common-password list as "p@ssw0rd"; the comparison ignores case.
    const common = await register(newEmail(), "P@ssw0rd")
    expect(common.status).toBe(400)
    expect(common.body.error.code).toBe("PASSWORD_TOO_COMMON")
  })

  it.each([
    ["no body", undefined],
    ["an empty object", {}],
    ["a missing name", { email: "x@example.com", password: STRONG, termsAccepted: true, privacyPolicyAccepted: true }],
    ["terms not accepted", { email: "x@example.com", password: STRONG, name: "X", termsAccepted: false, privacyPolicyAccepted: true }],
    ["a number as e-mail", { email: 42, password: STRONG, name: "X", termsAccepted: true, privacyPolicyAccepted: true }],
    ["an invalid e-mail", { email: "not-an-email", password: STRONG, name: "X", termsAccepted: true, privacyPolicyAccepted: true }],
    ["a huge name", { email: "x@example.com", password: STRONG, name: "n".repeat(5000), termsAccepted: true, privacyPolicyAccepted: true }],
    ["a huge password", { email: "x@example.com", password: "P".repeat(100_000), name: "X", termsAccepted: true, privacyPolicyAccepted: true }],
    ["a role", { email: "x@example.com", password: STRONG, name: "X", termsAccepted: true, privacyPolicyAccepted: true, role: "admin" }]
  ])("answers %s with a 4xx wrapper and creates no account", async (_label, body) => {
    const before = await userCount()
    const response = await call("POST", "/api/auth/register", { body })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    expect(response.body.success).toBe(false)
    expect(await userCount()).toBe(before)
  })

  it("answers a body that is not JSON with 400", async () => {
    const response = await call("POST", "/api/auth/register", { raw: "{email:" })
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe("BAD_REQUEST")
  })
})

describe("resend, check and sync of verification", () => {
  it("answers alike for unknown and unverified addresses, with a 60 s cooldown per address and client", async () => {
    const email = newEmail()
    const ip = nextIp()
    await call("POST", "/api/auth/register", { ip, body: { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true } })
    const known = await call("POST", "/api/auth/resend-verification", { ip, body: { email } })
    // Registration itself started the cooldown.
    expect(known.status).toBe(429)
    expect(known.body.error).toMatchObject({ code: "TOO_MANY_REQUESTS", retryAfter: expect.any(Number) })

    kit.now += 61_000
    const first = await call("POST", "/api/auth/resend-verification", { ip, body: { email } })
    const unknown = await call("POST", "/api/auth/resend-verification", { ip, body: { email: "nobody-here@example.com" } })
    expect(first.body).toEqual(unknown.body)
    expect((await mailTo(email)).filter((message) => message.subject.startsWith("Verify"))).toHaveLength(2)

    const tooSoon = await call("POST", "/api/auth/resend-verification", { ip, body: { email: "nobody-here@example.com" } })
    expect(tooSoon.status).toBe(429)
    expect(tooSoon.body.error.message).toBe("Too many attempts. Please wait 60 seconds before trying again.")
    expect(tooSoon.body.error.retryAfter).toBe(60)
  })

  it("check-verification and sync-verification tell the state only to the holder of the address's verification token", async () => {
    const email = newEmail()
    const { verificationToken } = (await register(email)).body.data
    expect(verificationToken).toEqual(expect.any(String))
    const check = (address: string, token?: string) =>
      call("GET", `/api/auth/check-verification?${new URLSearchParams({ email: address, ...(token ? { verificationToken: token } : {}) }).toString()}`)
    const sync = (address: string, token?: string) => call("POST", "/api/auth/sync-verification", { body: { email: address, ...(token ? { verificationToken: token } : {}) } })
    const notVerified = { status: 200, body: { success: true, data: { verified: false } } }

    expect(await check(email, verificationToken)).toEqual(notVerified)
    await verify(email)
    expect((await check(email, verificationToken)).body.data.verified).toBe(true)
    expect((await sync(email.toUpperCase(), verificationToken)).body.data.verified).toBe(true)

    // Without the token, with another address's token, with a forged or an expired one: every address looks the same.
    const other = newEmail()
    const othersToken = (await register(other)).body.data.verificationToken
    for (const answer of [
      await check(email),
      await sync(email),
      await check(email, othersToken),
      await sync(email, `${verificationToken}x`),
      await check("ghost@example.com"),
      await sync("ghost@example.com", verificationToken)
    ]) {
      expect(answer).toEqual(notVerified)
    }
    kit.now += 3600_000 + 1000
    expect(await check(email, verificationToken)).toEqual(notVerified)
    expect((await call("GET", "/api/auth/check-verification")).status).toBe(400)
  })

  it("gives the verification token to a sign-in with the right password of an unverified account, and only then", async () => {
    const email = newEmail()
    await register(email)
    expect((await login(email, "Wrong-Password-1!")).body.error.verificationToken).toBeUndefined()
    const unverified = await login(email)
    expect(unverified.body.error.code).toBe("EMAIL_NOT_VERIFIED")
    await verify(email)
    const answer = await call("POST", "/api/auth/sync-verification", { body: { email, verificationToken: unverified.body.error.verificationToken } })
    expect(answer.body.data.verified).toBe(true)
  })
})
