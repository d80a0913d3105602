/** Password change and reset, the admin account from ADMIN_EMAIL, and a mail server that is down. */
import { describe, expect, it } from "vitest"

import { LOGIN_RATE_LIMIT_ATTEMPTS } from "~core/password-policy/defaults"

import { readOutbox, startTestApp } from "../test-kit"
import { authTestKit, STRONG, STRONGER } from "./auth-test-kit"

const kit = authTestKit()
const { call, login, signedUpUser, mailTo } = kit

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
    expect((await readOutbox(kit.subject.dataDir)).some((message) => message.to.includes("no-account@example.com"))).toBe(false)

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
