import { afterAll, beforeAll, expect, it } from "vitest"

import { signedInUser, startTestApp, type TestApp } from "../test-kit"
import { loggableUrl } from "./logging"

const lines: string[] = []
let subject: TestApp

beforeAll(async () => {
  subject = await startTestApp({ LOG_LEVEL: "trace" }, { logStream: { write: (line: string) => void lines.push(line) } })
})
afterAll(async () => subject?.close())

it("keeps query values out of logged URLs", () => {
  expect(loggableUrl("/?mode=verifyEmail&oobCode=abc&apiKey=k&lang=en")).toBe("/?mode=~&oobCode=~&apiKey=~&lang=~")
  expect(loggableUrl("/api/auth/check-verification?email=a%40b.c")).toBe("/api/auth/check-verification?email=~")
  expect(loggableUrl("/pricing")).toBe("/pricing")
})

it("never writes a bearer token, a one-time code or a link to the log, even at trace level", async () => {
  const user = await signedInUser(subject.app)
  const oobCode = "OOB-SECRET-4f1c2d9a"
  await subject.app.inject({ method: "GET", url: "/api/analyze/usage", headers: { authorization: `Bearer ${user.token}` } })
  await subject.app.inject({ method: "GET", url: `/?mode=verifyEmail&oobCode=${oobCode}&apiKey=key&lang=en` })
  await subject.app.inject({ method: "GET", url: `/api/auth/check-verification?email=someone%40example.com&oobCode=${oobCode}` })
  await subject.app.inject({ method: "POST", url: "/api/auth/verify-email", payload: { oobCode } })
  // What a handler could log by mistake: the request's headers, a body, a link.
  subject.app.log.info({ req: { headers: { authorization: `Bearer ${user.token}`, cookie: `session=${user.token}` } } }, "headers")
  subject.app.log.info({ body: { refreshToken: user.token, password: "Quartz-Lantern-2026!", code: oobCode } }, "body")
  subject.app.log.info({ to: "someone@example.com", link: `https://app.example.com/?mode=resetPassword&oobCode=${oobCode}` }, "mail")

  const log = lines.join("")
  expect(log).toContain("/?mode=~&oobCode=~&apiKey=~&lang=~")
  expect(log).toContain('"statusCode":200')
  expect(log).toContain("[redacted]")
  for (const secret of [user.token, oobCode, "Quartz-Lantern-2026!", "someone%40example.com"]) expect(log).not.toContain(secret)
})
