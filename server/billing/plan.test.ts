import { describe, expect, it } from "vitest"

import { monthlyLimitOf, planOf } from "./plan"

describe("the plan of an account, read in one place", () => {
  it("takes limits from the plans", () => {
    expect(monthlyLimitOf({ plan_id: "free", subscription_status: "active", request_limit: 500 })).toBe(10)
    expect(monthlyLimitOf({ plan_id: "pro", subscription_status: "active", request_limit: 5 })).toBeNull()
    expect(monthlyLimitOf({ plan_id: "enterprise", subscription_status: "active", request_limit: 250 })).toBe(250)
    expect(monthlyLimitOf({ plan_id: "enterprise", subscription_status: "active", request_limit: null })).toBeNull()
  })

  it("gives Free while a subscription is unpaid, paused or ended, and the plan while it is retried or on trial", () => {
    for (const status of ["unpaid", "paused", "canceled"]) {
      expect(planOf({ plan_id: "pro", subscription_status: status })).toBe("free")
      expect(monthlyLimitOf({ plan_id: "enterprise", subscription_status: status, request_limit: null })).toBe(10)
    }
    for (const status of ["active", "past_due", "trialing"]) expect(planOf({ plan_id: "pro", subscription_status: status })).toBe("pro")
  })
})
