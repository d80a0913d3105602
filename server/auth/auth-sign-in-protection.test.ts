/** Sign-in protection: failures counted down, lockouts, per-IP limits under bursts. */
import { describe, expect, it } from "vitest"

import { LOGIN_RATE_LIMIT_ATTEMPTS } from "~core/password-policy/defaults"

import { authTestKit, STRONG } from "./auth-test-kit"

const kit = authTestKit()
const { call, login, signedUpUser, newEmail } = kit

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

    kit.now += 2000
    expect((await wrong()).body.error).toMatchObject({ remainingAttempts: 2, nextAttemptDelay: 4 })
    kit.now += 4000
    expect((await wrong()).body.error).toMatchObject({ remainingAttempts: 1, nextAttemptDelay: 8 })
    kit.now += 8000
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

    kit.now += 900_000
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
    kit.now += 2000
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
