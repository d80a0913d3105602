/** A Google account's creation counts as a sign-up of its day, in its own transaction; its later sign-ins do not. */
import { describe, expect, it } from "vitest"

import { utcDayKey } from "~core/time"

import { acceptTerms, googleIdToken, newGoogleUser, post, setUpGoogleApp, subject } from "../../auth/google/google-test-kit"


setUpGoogleApp()

const signUpsToday = async () => {
  const row = await subject.database.db.selectFrom("daily_metrics").select("count").where("day", "=", utcDayKey(subject.app.clock())).where("metric", "=", "signUps").executeTakeFirst()
  return row?.count ?? 0
}

describe("sign-ups through Google", () => {
  it("counts the account made on accepting the terms, once", async () => {
    const before = await signUpsToday()
    const idToken = await googleIdToken(newGoogleUser())
    // Asked to accept the terms first: nothing made yet, nothing counted.
    expect((await post("/api/auth/google", { idToken })).status).toBe(403)
    expect(await signUpsToday()).toBe(before)
    expect((await acceptTerms(idToken)).status).toBe(201)
    expect(await signUpsToday()).toBe(before + 1)
    // Signing in again is not a sign-up.
    expect((await post("/api/auth/google", { idToken })).status).toBe(200)
    expect(await signUpsToday()).toBe(before + 1)
  })
})
