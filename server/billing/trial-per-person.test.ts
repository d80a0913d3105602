/**
 * One free trial per person, in test mode: a sub-address (`ada+2@`) or Gmail's dots (and googlemail.com) are the same
 * mailbox, so another account at it gets no second trial, also when they all ask at once. The mailbox is the address's
 * only: other providers' dots make another person.
 */
import { describe, expect, it } from "vitest"

import { billingTestApp, call, newUser, subscription } from "./test-support"

const billing = billingTestApp()

const startTrial = (app: Awaited<ReturnType<typeof billing.start>>, token: string) => call(app, "POST", "/api/billing/trial", token, { planId: "pro" })

describe("one trial per person (test mode)", () => {
  it("a sub-address of an address that had the trial gets none, and is told why", async () => {
    const app = await billing.start()
    const first = await newUser(app, "ada@example.com")
    expect((await startTrial(app, first.token)).statusCode).toBe(201)

    const second = await newUser(app, "ada+2@example.com")
    const refused = await startTrial(app, second.token)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ success: false, error: { code: "TRIAL_ALREADY_USED", message: expect.stringMatching(/once per person/) } })
    // The account is told, and shown, that its trial is used: the dashboard offers no trial button that would fail again.
    expect(await subscription(app, second.token)).toMatchObject({ plan: "free", trialAvailable: false })
    expect(await subscription(app, first.token)).toMatchObject({ plan: "pro", status: "trialing" })
  })

  it("the first account's address written otherwise (a sub-address first) is refused too", async () => {
    const app = await billing.start()
    const tagged = await newUser(app, "grace+trial@example.com")
    expect((await startTrial(app, tagged.token)).statusCode).toBe(201)
    const plain = await newUser(app, "grace@example.com")
    expect((await startTrial(app, plain.token)).json().error.code).toBe("TRIAL_ALREADY_USED")
  })

  it("Gmail ignores dots and googlemail.com is gmail.com: each spelling is the same person", async () => {
    const app = await billing.start()
    const first = await newUser(app, "a.da.lovelace@gmail.com")
    expect((await startTrial(app, first.token)).statusCode).toBe(201)
    for (const email of ["adalovelace@gmail.com", "ada.lovelace@googlemail.com", "a.d.a.lovelace+x@gmail.com"]) {
      const other = await newUser(app, email)
      expect((await startTrial(app, other.token)).json().error?.code, email).toBe("TRIAL_ALREADY_USED")
    }
  })

  it("dots elsewhere, and other addresses, are other people", async () => {
    const app = await billing.start()
    for (const email of ["a.da@example.com", "ada@example.com", "ada@gmail.com.example.org"]) {
      const user = await newUser(app, email)
      expect((await startTrial(app, user.token)).statusCode, email).toBe(201)
    }
  })

  it("20 accounts of one mailbox asking at once get one trial between them", async () => {
    const app = await billing.start()
    const users = await Promise.all(Array.from({ length: 20 }, (_, index) => newUser(app, index % 2 ? `ada.byron+${index}@gmail.com` : `adabyron+${index}@googlemail.com`)))
    const answers = await Promise.all(users.map((user) => startTrial(app, user.token)))
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1)
    expect(answers.filter((answer) => answer.json().error?.code === "TRIAL_ALREADY_USED")).toHaveLength(19)
    const trials = await app.database.db.selectFrom("subscriptions").select("user_id").where("status", "=", "trialing").execute()
    expect(trials).toHaveLength(1)
  })
})
