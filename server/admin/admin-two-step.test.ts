/**
 * ADMIN_MFA: with `required` (production's default) an admin without a second factor is refused every admin route with
 * 403 MFA_ENROLLMENT_REQUIRED, and let in once two-step sign-in is on (and shut out again once it is off); with
 * `optional` the admin is let in without one. A user who is no admin is refused as ever (FORBIDDEN). Runs on the
 * embedded database and, in the api-postgres project, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { signedInUser, startTestApp, turnOnTwoStep, type TestApp } from "../test-kit"

/** Admin routes of each admin feature (the dashboard, accounts, audit log, analytics, billing, blog) and the feedback inbox's. */
const ADMIN_ROUTES = ["/api/admin/overview", "/api/admin/users", "/api/admin/audit", "/api/admin/analytics", "/api/admin/billing", "/api/admin/posts", "/api/feedback"]

async function adminOf(subject: TestApp) {
  const user = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", user.id).execute()
  return user
}

const get = async (subject: TestApp, url: string, token: string) => {
  const response = await subject.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } })
  return { status: response.statusCode, body: response.json() }
}

describe("ADMIN_MFA=required", () => {
  let subject: TestApp
  beforeAll(async () => {
    subject = await startTestApp({ ADMIN_MFA: "required" })
  })
  afterAll(async () => subject?.close())

  it("refuses an admin without a second factor every admin route, in plain words, and lets them in once it is on", async () => {
    const admin = await adminOf(subject)
    for (const url of ADMIN_ROUTES) {
      const refused = await get(subject, url, admin.token)
      expect([url, refused.status, refused.body.error?.code], url).toEqual([url, 403, "MFA_ENROLLMENT_REQUIRED"])
      expect(refused.body.error.message).toBe("Turn on two-step sign-in on your dashboard to use the admin panel.")
    }
    // A change is refused too, before anything is read or written.
    const change = await subject.app.inject({ method: "PUT", url: `/api/admin/users/${admin.id}/request-limit`, headers: { authorization: `Bearer ${admin.token}` }, payload: { limit: 5 } })
    expect([change.statusCode, change.json().error.code]).toEqual([403, "MFA_ENROLLMENT_REQUIRED"])
    expect((await subject.database.db.selectFrom("users").select("request_limit").where("id", "=", admin.id).executeTakeFirstOrThrow()).request_limit).toBeNull()

    await turnOnTwoStep(subject.app, admin.token)
    for (const url of ADMIN_ROUTES) expect([url, (await get(subject, url, admin.token)).status]).toEqual([url, 200])
  })

  it("answers a user who is no admin FORBIDDEN, as before, with or without a second factor", async () => {
    const user = await signedInUser(subject.app)
    expect((await get(subject, "/api/admin/overview", user.token)).body.error.code).toBe("FORBIDDEN")
    await turnOnTwoStep(subject.app, user.token)
    expect((await get(subject, "/api/admin/overview", user.token)).body.error.code).toBe("FORBIDDEN")
  })

  it("closes the admin routes again when the admin's second factor goes", async () => {
    const admin = await adminOf(subject)
    await turnOnTwoStep(subject.app, admin.token)
    expect((await get(subject, "/api/admin/overview", admin.token)).status).toBe(200)
    // As turning it off on the dashboard leaves it (server/auth/mfa/mfa-store.ts removeSecondFactor).
    await subject.database.db.deleteFrom("totp_factors").where("user_id", "=", admin.id).execute()
    expect((await get(subject, "/api/admin/overview", admin.token)).body.error.code).toBe("MFA_ENROLLMENT_REQUIRED")
  })
})

describe("ADMIN_MFA=optional", () => {
  let subject: TestApp
  beforeAll(async () => {
    subject = await startTestApp({ ADMIN_MFA: "optional" })
  })
  afterAll(async () => subject?.close())

  it("lets an admin without a second factor use every admin route", async () => {
    const admin = await adminOf(subject)
    for (const url of ADMIN_ROUTES) expect([url, (await get(subject, url, admin.token)).status]).toEqual([url, 200])
  })
})
