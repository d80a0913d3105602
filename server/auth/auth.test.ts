import { decodeJwt } from "jose"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { LOGIN_RATE_LIMIT_ATTEMPTS } from "~core/password-policy/defaults"

import { readOutbox, startTestApp, type TestApp } from "../test-kit"
import { signAccessToken } from "./tokens"

const STRONG = "Blue-Harbor-42!"
const STRONGER = "Quiet-Meadow-73?"
const DAY = 24 * 60 * 60_000

let subject: TestApp
let now = Date.UTC(2026, 10, 22, 9, 0, 0)
let ipCounter = 0

/** Each call from its own address, so per-IP limits do not mix tests up (one test checks them). */
const nextIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`

async function call(method: "GET" | "POST" | "PUT" | "DELETE", url: string, options: { body?: unknown; token?: string; ip?: string; raw?: string } = {}) {
  const response = await subject.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? nextIp(),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.raw !== undefined ? { "content-type": "application/json" } : {})
    },
    ...(options.raw !== undefined ? { payload: options.raw } : options.body !== undefined ? { payload: options.body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}

let emailCounter = 0
const newEmail = () => `person${++emailCounter}@example.com`

async function mailTo(email: string) {
  await subject.app.outbox.idle()
  return (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email))
}

async function register(email: string, password = STRONG, name = "Ada Lovelace") {
  return call("POST", "/api/auth/register", { body: { email, password, name, termsAccepted: true, privacyPolicyAccepted: true } })
}

async function verify(email: string) {
  const link = (await mailTo(email)).find((message) => message.subject.startsWith("Verify"))!.link!
  const oobCode = new URL(link).searchParams.get("oobCode")!
  return call("POST", "/api/auth/verify-email", { body: { oobCode } })
}

async function login(email: string, password = STRONG) {
  return call("POST", "/api/auth/login", { body: { email, password } })
}

async function signedUpUser(password = STRONG) {
  const email = newEmail()
  await register(email, password)
  await verify(email)
  const { body } = await login(email, password)
  return { email, token: body.data.token as string, refreshToken: body.data.refreshToken as string }
}

async function userCount() {
  const row = await subject.database.db.selectFrom("users").select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow()
  return Number(row.count)
}

beforeAll(async () => {
  subject = await startTestApp(
    { PUBLIC_URL: "http://localhost:8787", ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "Stone-Harvest-2026!" },
    { clock: () => now }
  )
})
afterAll(async () => subject?.close())
beforeEach(() => {
  now += 10 * 60_000
})

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
    expect(claims.exp).toBe(Math.floor(now / 1000) + 3600)
    expect(claims.role).toBe("user")
    expect(typeof signedIn.body.data.refreshToken).toBe("string")
  })

  it("expires verification codes after 24 hours", async () => {
    const email = newEmail()
    await register(email)
    now += 24 * 3_600_000 + 1000
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
    const violationsBefore = await subject.database.db.selectFrom("policy_violations").selectAll().execute()
    const { status, body } = await register(newEmail(), "password")
    expect(status).toBe(400)
    expect(body.error.code).toMatch(/^PASSWORD_/)
    expect(body.error.message).toBe("Password requirements not met")
    expect(body.error.details.length).toBeGreaterThan(1)
    expect(await userCount()).toBe(before)
    const violations = await subject.database.db.selectFrom("policy_violations").selectAll().execute()
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

    now += 61_000
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
    now += 3600_000 + 1000
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

describe("sign-in protection", () => {
  it("counts failures down, delays progressively, locks after 5 and unlocks after the lockout", async () => {
    const { email } = await signedUpUser()
    const wrong = () => login(email, "Not-The-Password-9!")

    let response = await wrong()
    expect(response.status).toBe(401)
    expect(response.body.error).toEqual({
      code: "INVALID_CREDENTIALS",
      message: "Invalid email or password. 4 login attempts remaining.",
      remainingAttempts: 4,
      nextAttemptDelay: 0
    })
    response = await wrong()
    expect(response.body.error).toMatchObject({ remainingAttempts: 3, nextAttemptDelay: 2 })

    response = await login(email)
    expect(response.status).toBe(429)
    expect(response.body.error).toMatchObject({ code: "PROGRESSIVE_DELAY", message: "Please wait 2 seconds before trying again.", retryAfter: 2 })

    now += 2000
    expect((await wrong()).body.error).toMatchObject({ remainingAttempts: 2, nextAttemptDelay: 4 })
    now += 4000
    expect((await wrong()).body.error).toMatchObject({ remainingAttempts: 1, nextAttemptDelay: 8 })
    now += 8000
    response = await wrong()
    expect(response.body.error).toMatchObject({
      code: "INVALID_CREDENTIALS",
      message: "Invalid email or password. Account temporarily locked.",
      remainingAttempts: 0,
      retryAfter: 900
    })

    response = await login(email)
    expect(response.status).toBe(423)
    expect(response.body.error).toEqual({
      code: "ACCOUNT_LOCKED",
      message: "Account temporarily locked. Please try again in 15 minutes or reset your password.",
      retryAfter: 900
    })

    now += 900_000
    expect((await login(email)).status).toBe(200)
    // A success clears the count.
    expect((await wrong()).body.error.remainingAttempts).toBe(4)
  })

  it("counts every attempt of a parallel burst: at most rateLimitAttempts are checked, the rest wait", async () => {
    const { email } = await signedUpUser()
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(email, "Not-The-Password-9!")))
    const codes = answers.map((answer) => answer.body.error.code)
    expect(codes.filter((code) => code === "INVALID_CREDENTIALS").length).toBeLessThanOrEqual(LOGIN_RATE_LIMIT_ATTEMPTS)
    expect(codes.every((code) => ["INVALID_CREDENTIALS", "ACCOUNT_LOCKED", "PROGRESSIVE_DELAY"].includes(code))).toBe(true)
    // The refused ones were not counted: after the delay the count goes on from the checked ones (how many ran
    // before the first failures settled depends on timing; all of them used up means locked).
    const checked = codes.filter((code) => code === "INVALID_CREDENTIALS").length
    now += 2000
    const next = await login(email, "Not-The-Password-9!")
    if (checked === LOGIN_RATE_LIMIT_ATTEMPTS) expect(next.body.error.code).toBe("ACCOUNT_LOCKED")
    else expect(next.body.error.remainingAttempts).toBe(LOGIN_RATE_LIMIT_ATTEMPTS - 1 - checked)
  })

  it("does not slow down correct sign-ins made at the same time (two tabs, a script with a few connections)", async () => {
    const { email } = await signedUpUser()
    const answers = await Promise.all(Array.from({ length: LOGIN_RATE_LIMIT_ATTEMPTS - 1 }, () => login(email, STRONG)))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
  })

  it("counts a burst for an unknown address the same way", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => login("burst-ghost@example.com", "Not-The-Password-9!")))
    const checked = answers.filter((answer) => answer.body.error.code === "INVALID_CREDENTIALS").length
    expect(checked).toBeGreaterThanOrEqual(1)
    expect(checked).toBeLessThanOrEqual(LOGIN_RATE_LIMIT_ATTEMPTS)
  })

  it("answers an unknown address exactly like a wrong password", async () => {
    const ghost = "ghost-account@example.com"
    const known = (await signedUpUser()).email
    const forGhost = await login(ghost, "Whatever-123!")
    const forKnown = await login(known, "Whatever-123!")
    expect(forGhost).toEqual(forKnown)
  })

  it("limits sign-in attempts per IP address", async () => {
    const ip = "192.0.2.77"
    let last = { status: 0, body: {} as { error?: { code: string; message: string } } }
    for (let attempt = 0; attempt < 31; attempt++) {
      last = await call("POST", "/api/auth/login", { ip, body: { email: `spray${attempt}@example.com`, password: "Guess-1234!" } })
    }
    expect(last.status).toBe(429)
    expect(last.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", message: "Too many login attempts from this IP. Please try again later." })
  })

  it("limits sign-in attempts per IP address under a burst: 31 at once, 30 answered", async () => {
    const ip = "192.0.2.78"
    const answers = await Promise.all(
      Array.from({ length: 31 }, (_, attempt) => call("POST", "/api/auth/login", { ip, body: { email: `burst-spray${attempt}@example.com`, password: "Guess-1234!" } }))
    )
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(30)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error?.code)).toEqual(["RATE_LIMIT_EXCEEDED"])
  })

  it("limits registrations per IP address under a burst: 20 at once, 10 taken", async () => {
    const ip = "192.0.2.79"
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("POST", "/api/auth/register", { ip, body: { email: newEmail(), password: STRONG, name: "Burst", termsAccepted: true, privacyPolicyAccepted: true } }))
    )
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error.code)).toEqual(Array(10).fill("RATE_LIMIT_EXCEEDED"))
  })

  it("limits registrations per IP address", async () => {
    const ip = "192.0.2.78"
    const results: number[] = []
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await call("POST", "/api/auth/register", {
        ip,
        body: { email: newEmail(), password: STRONG, name: "Spammer", termsAccepted: true, privacyPolicyAccepted: true }
      })
      results.push(response.status)
      if (response.status === 429) {
        expect(response.body.error.message).toBe("Too many registration attempts. Please wait a moment before trying again.")
      }
    }
    expect(results.slice(0, 10).every((status) => status === 201)).toBe(true)
    expect(results[10]).toBe(429)
  })
})

describe("sessions", () => {
  it("rotates refresh tokens, answers a twin refresh within the grace window with an access token only and revokes on later reuse", async () => {
    const { token, refreshToken } = await signedUpUser()
    const first = await call("POST", "/api/auth/refresh", { body: { refreshToken } })
    expect(first.status).toBe(200)
    expect(first.body.data.token).toEqual(expect.any(String))
    expect(first.body.data.refreshToken).not.toBe(refreshToken)

    now += 10_000
    const twin = await call("POST", "/api/auth/refresh", { body: { refreshToken } })
    expect(twin.status).toBe(200)
    // Never the newest refresh token: whoever holds a copy of the old one must not obtain it.
    expect(twin.body.data).toEqual({ token: expect.any(String), refreshToken: null, expiresAt: Math.floor(now / 1000) + 3600 })
    expect((await call("GET", "/api/auth/profile", { token: twin.body.data.token })).status).toBe(200)
    const serialised = JSON.stringify(twin.body)
    expect(serialised).not.toContain(first.body.data.refreshToken)
    const stored = await subject.database.db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow()
    expect(Object.keys(stored)).not.toContain("grace_token")

    now += 30_000
    const reuse = await call("POST", "/api/auth/refresh", { body: { refreshToken } })
    expect(reuse.status).toBe(401)
    expect(reuse.body.error.code).toBe("SESSION_EXPIRED")
    // The whole family is gone: the newest token and the access tokens too.
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: first.body.data.refreshToken } })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
  })

  it("keeps sessions apart: refreshing one does not disturb another", async () => {
    const { email } = await signedUpUser()
    const second = (await login(email)).body.data
    const third = (await login(email)).body.data
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: second.refreshToken } })).status).toBe(200)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken: third.refreshToken } })).status).toBe(200)
  })

  it("refuses expired and forged access tokens", async () => {
    const { token } = await signedUpUser()
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: token.slice(0, -4) + "AAAA" })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: "not.a.jwt" })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile")).status).toBe(401)
    now += 3601_000
    const expired = await call("GET", "/api/auth/profile", { token })
    expect(expired.status).toBe(401)
    expect(expired.body.error.code).toBe("UNAUTHORIZED")
  })

  it("refuses a token whose session belongs to another user, even signed with our key", async () => {
    const alice = await signedUpUser()
    const bob = await signedUpUser()
    const aliceClaims = decodeJwt(alice.token)
    const bobSession = decodeJwt(bob.token).sid as string
    // A token for Alice naming Bob's live session: whoever could sign one must not ride on Bob's session.
    const crossed = await signAccessToken({ userId: aliceClaims.sub!, role: "user", sessionId: bobSession }, subject.app.tokenSecret, now)
    expect((await call("GET", "/api/auth/profile", { token: crossed.token })).status).toBe(401)
    expect((await call("GET", "/api/auth/profile", { token: alice.token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: bob.token })).status).toBe(200)
  })

  it("ends a session at its absolute lifetime, however often it is refreshed", async () => {
    const { refreshToken } = await signedUpUser()
    const signedInAt = now
    let current = refreshToken
    for (const day of [29, 58, 87]) {
      now = signedInAt + day * DAY
      const refreshed = await call("POST", "/api/auth/refresh", { body: { refreshToken: current } })
      expect(refreshed.status).toBe(200)
      current = refreshed.body.data.refreshToken
    }
    now = signedInAt + 90 * DAY - 10 * 60_000
    const last = await call("POST", "/api/auth/refresh", { body: { refreshToken: current } })
    expect(last.status).toBe(200)
    now = signedInAt + 90 * DAY
    const ended = await call("POST", "/api/auth/refresh", { body: { refreshToken: last.body.data.refreshToken } })
    expect(ended.status).toBe(401)
    expect(ended.body.error.code).toBe("SESSION_EXPIRED")
    // The access token is not yet an hour old, but its session is over.
    expect((await call("GET", "/api/auth/profile", { token: last.body.data.token })).status).toBe(401)
  })

  it("logs out: the session's access and refresh tokens stop working", async () => {
    const { token, refreshToken } = await signedUpUser()
    const response = await call("POST", "/api/auth/logout", { token })
    expect(response.body).toEqual({ success: true, data: { loggedOut: true } })
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken } })).status).toBe(401)
    expect((await call("POST", "/api/auth/logout")).status).toBe(200)
  })
})

describe("profile, status and account", () => {
  it("reads and renames on both profile paths, and changes nothing else", async () => {
    const { email, token } = await signedUpUser()
    for (const path of ["/api/auth/profile", "/api/users/profile"]) {
      expect((await call("GET", path, { token })).body.data.user).toMatchObject({ email, role: "user" })
    }
    const renamed = await call("PUT", "/api/users/profile", { token, body: { name: "Ada King" } })
    expect(renamed.body.data.user.name).toBe("Ada King")
    for (const body of [{ role: "admin" }, { name: "X", role: "admin" }, { email: "other@example.com" }, { name: "" }, { name: "x".repeat(500) }, { plan_id: "pro" }]) {
      const refused = await call("PUT", "/api/auth/profile", { token, body })
      expect(refused.status).toBe(400)
    }
    expect((await call("GET", "/api/auth/profile", { token })).body.data.user).toMatchObject({ name: "Ada King", role: "user", email })
  })

  it("reports the sign-in methods", async () => {
    const { token } = await signedUpUser()
    expect((await call("GET", "/api/auth/auth-status", { token })).body.data).toEqual({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })
  })

  it("deletes the account with its sessions once the current password is given again", async () => {
    const { email, token, refreshToken } = await signedUpUser()
    const missing = await call("DELETE", "/api/auth/account", { token })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toEqual({ code: "VALIDATION_FAILED", message: "Validation failed", details: ["password: Current password is required"] })
    const wrong = await call("DELETE", "/api/auth/account", { token, body: { password: "Nope-1234!" } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toEqual({ code: "INVALID_CREDENTIALS", message: "Current password is incorrect" })
    expect((await call("DELETE", "/api/auth/account", { token, body: { password: STRONG, extra: true } })).status).toBe(400)
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(200)

    expect((await call("DELETE", "/api/auth/account", { token, body: { password: STRONG } })).body).toEqual({ success: true, data: { deleted: true } })
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
    expect((await call("POST", "/api/auth/refresh", { body: { refreshToken } })).status).toBe(401)
    expect((await login(email)).body.error.code).toBe("INVALID_CREDENTIALS")
    expect((await register(email)).status).toBe(201)
  })

  it("deletes an account without a password only within 5 minutes of a sign-in", async () => {
    const { signIn } = await import("./account-service")
    const created = new Date(now)
    const user = await subject.database.db
      .insertInto("users")
      .values({ email: "google-only@example.com", name: "Goo", google_uid: "google-delete", email_verified_at: created, created_at: created, updated_at: created })
      .returningAll()
      .executeTakeFirstOrThrow()
    const stale = await signIn(subject.app, user)
    now += 5 * 60_000 + 1000
    const refused = await call("DELETE", "/api/auth/account", { token: stale.token })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toEqual({
      code: "REAUTHENTICATION_REQUIRED",
      message: "For your security, please sign in again, then delete your account within 5 minutes."
    })
    // A password is no way round it: the account has none.
    expect((await call("DELETE", "/api/auth/account", { token: stale.token, body: { password: STRONG } })).status).toBe(403)
    // Nor is an extension session freshly opened from the stale sign-in.
    const extension = (await call("POST", "/api/auth/extension-session", { token: stale.token })).body.data
    expect((await call("DELETE", "/api/auth/account", { token: extension.token })).body.error.code).toBe("REAUTHENTICATION_REQUIRED")
    expect((await call("GET", "/api/auth/profile", { token: stale.token })).status).toBe(200)

    const fresh = await signIn(subject.app, user)
    now += 4 * 60_000
    expect((await call("DELETE", "/api/auth/account", { token: fresh.token })).body).toEqual({ success: true, data: { deleted: true } })
    expect(await subject.database.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined()
  })

  it("adds e-mail sign-in to an account that has only federated sign-in", async () => {
    const now_ = new Date(now)
    const created = await subject.database.db
      .insertInto("users")
      .values({ email: "federated@example.com", name: "Fed", google_uid: "google-123", email_verified_at: now_, created_at: now_, updated_at: now_ })
      .returning("id")
      .executeTakeFirstOrThrow()
    const { signIn } = await import("./account-service")
    const user = await subject.database.db.selectFrom("users").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow()
    const { token } = await signIn(subject.app, user)
    expect((await call("GET", "/api/auth/auth-status", { token })).body.data).toEqual({ hasEmailAuth: false, hasGoogleAuth: true, providers: ["google"] })
    expect((await call("POST", "/api/auth/link-email", { token, body: { email: "other@example.com", password: STRONG } })).status).toBe(400)
    expect((await call("POST", "/api/auth/link-email", { token, body: { email: "federated@example.com", password: "short" } })).body.error.code).toMatch(/^PASSWORD_/)
    const linked = await call("POST", "/api/auth/link-email", { token, body: { email: "federated@example.com", password: STRONG } })
    expect(linked.status).toBe(200)
    expect((await call("GET", "/api/auth/auth-status", { token })).body.data.providers).toEqual(["email", "google"])
    expect((await login("federated@example.com")).status).toBe(200)
    expect((await call("POST", "/api/auth/link-email", { token, body: { email: "federated@example.com", password: STRONGER } })).status).toBe(409)
  })
})

describe("password change and reset", () => {
  it("changes the password, keeps the current session and ends the others", async () => {
    const { email, token } = await signedUpUser()
    const other = (await login(email)).body.data
    const wrongCurrent = await call("POST", "/api/auth/change-password", { token, body: { currentPassword: "Nope-1234!", newPassword: STRONGER } })
    expect(wrongCurrent.status).toBe(400)
    expect(wrongCurrent.body.error.code).toBe("INVALID_CREDENTIALS")
    expect((await call("POST", "/api/auth/change-password", { token, body: { currentPassword: STRONG, newPassword: STRONG } })).status).toBe(400)
    expect((await call("POST", "/api/auth/change-password", { token, body: { currentPassword: STRONG } })).status).toBe(400)

    const changed = await call("POST", "/api/auth/change-password", { token, body: { currentPassword: STRONG, newPassword: STRONGER } })
    expect(changed.body).toEqual({ success: true, data: { changed: true } })
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(200)
    expect((await call("GET", "/api/auth/profile", { token: other.token })).status).toBe(401)
    expect((await login(email, STRONG)).status).toBe(401)
    expect((await login(email, STRONGER)).status).toBe(200)

    const back = await call("POST", "/api/auth/change-password", { token, body: { currentPassword: STRONGER, newPassword: STRONG } })
    expect(back.status).toBe(400)
    expect(back.body.error.code).toBe("PASSWORD_RECENTLY_USED")
  })

  it("counts wrong current passwords like sign-in failures, also under a parallel burst", async () => {
    const { email, token } = await signedUpUser()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("POST", "/api/auth/change-password", { token, body: { currentPassword: "Nope-1234!", newPassword: STRONGER } }))
    )
    const incorrect = answers.filter((answer) => answer.status === 400 && answer.body.error.message === "Current password is incorrect")
    expect(incorrect.length).toBeGreaterThan(0)
    expect(incorrect.length).toBeLessThanOrEqual(LOGIN_RATE_LIMIT_ATTEMPTS)
    expect(answers.filter((answer) => ![423, 429].includes(answer.status))).toEqual(incorrect)
    // The same count guards sign-in to the account.
    expect([423, 429]).toContain((await login(email)).status)
  })

  it("resets by e-mail link: same answer for unknown addresses, one use, sessions ended", async () => {
    const { email, token } = await signedUpUser()
    const known = await call("POST", "/api/auth/forgot-password", { body: { email } })
    const unknown = await call("POST", "/api/auth/forgot-password", { body: { email: "no-account@example.com" } })
    expect(known.body).toEqual(unknown.body)
    expect((await readOutbox(subject.dataDir)).some((message) => message.to.includes("no-account@example.com"))).toBe(false)

    const mail = (await mailTo(email)).find((message) => message.subject === "Reset your Image Query AI password")!
    const link = new URL(mail.link!)
    expect(link.searchParams.get("mode")).toBe("resetPassword")
    const oobCode = link.searchParams.get("oobCode")!

    const weak = await call("POST", "/api/auth/reset-password", { body: { oobCode, newPassword: "abc" } })
    expect(weak.body.error.code).toMatch(/^PASSWORD_/)
    const reset = await call("POST", "/api/auth/reset-password", { body: { oobCode, newPassword: STRONGER } })
    expect(reset.body).toEqual({ success: true, data: { reset: true } })
    expect((await call("GET", "/api/auth/profile", { token })).status).toBe(401)
    expect((await login(email, STRONGER)).status).toBe(200)

    const reused = await call("POST", "/api/auth/reset-password", { body: { oobCode, newPassword: "Another-Pass-99!" } })
    expect(reused.body.error).toEqual({ code: "INVALID_OR_EXPIRED_CODE", message: "Invalid password reset link. Please request a new password reset." })
    expect((await call("POST", "/api/auth/reset-password", { body: { newPassword: STRONGER } })).status).toBe(400)
  })
})

describe("the admin account from ADMIN_EMAIL", () => {
  it("exists, is verified and signs in as admin", async () => {
    const response = await login("root@example.com", "Stone-Harvest-2026!")
    expect(response.status).toBe(200)
    expect(response.body.data.user).toMatchObject({ role: "admin", emailVerified: true })
  })
})

describe("a mail server that is down", () => {
  it("still creates the account and answers as usual; the user can ask for the e-mail again", async () => {
    const failing = await startTestApp({ SMTP_URL: "smtp://127.0.0.1:9" })
    try {
      const response = await failing.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: { email: "offline@example.com", password: STRONG, name: "Off Line", termsAccepted: true, privacyPolicyAccepted: true }
      })
      expect(response.statusCode).toBe(201)
      const forgot = await failing.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email: "offline@example.com" } })
      expect(forgot.statusCode).toBe(200)
    } finally {
      await failing.close()
    }
  })
})
