/** A disabled Google account: its Google sign-in (and terms acceptance) answers 403 ACCOUNT_DISABLED; enabled, it signs in again. */
import { describe, expect, it } from "vitest"

import { ACCOUNT_DISABLED_MESSAGE } from "~core/admin/admin-users"

import { acceptTerms, googleIdToken, newGoogleUser, post, setUpGoogleApp, subject } from "../../auth/google/google-test-kit"
import { signedInUser } from "../../test-kit"

setUpGoogleApp()

describe("a disabled Google account", () => {
  it("is refused at Google sign-in with ACCOUNT_DISABLED, and signs in again once enabled", async () => {
    const admin = await signedInUser(subject.app)
    await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
    const google = newGoogleUser()
    const accepted = await acceptTerms(await googleIdToken(google))
    expect(accepted.status).toBe(201)
    const id = accepted.body.data.user.id as string
    const patch = (disabled: boolean) =>
      subject.app.inject({ method: "PATCH", url: `/api/admin/users/${id}`, headers: { authorization: `Bearer ${admin.token}` }, payload: { disabled } })

    expect((await patch(true)).statusCode).toBe(200)
    for (const refused of [await post("/api/auth/google", { idToken: await googleIdToken(google) }), await acceptTerms(await googleIdToken(google))]) {
      expect(refused.status).toBe(403)
      expect(refused.body.error).toEqual({ code: "ACCOUNT_DISABLED", message: ACCOUNT_DISABLED_MESSAGE })
    }
    expect((await patch(false)).statusCode).toBe(200)
    expect((await post("/api/auth/google", { idToken: await googleIdToken(google) })).status).toBe(200)
  })
})
