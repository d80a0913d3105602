import { describe, expect, it } from "vitest"

import { usageText } from "./usage-text"

describe("usageText", () => {
  it("shows the count, the limit and the day the quota resets", () => {
    expect(usageText({ used: 3, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" })).toBe("3 of 10 AI requests used this month, resets 1 December")
    expect(usageText({ used: 0, limit: 10, resetsAt: "bad" })).toBe("0 of 10 AI requests used this month")
  })

  it("says Unlimited for a plan without a limit", () => {
    expect(usageText({ used: 42, limit: null, resetsAt: "2026-12-01T00:00:00.000Z" })).toBe("Unlimited AI requests")
  })
})
