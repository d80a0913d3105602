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

  it("names the organisation's pool a member draws from", () => {
    const pool = { organizationId: "org-1", name: "Acme", limit: 100, used: 12 }
    expect(usageText({ used: 12, limit: 100, resetsAt: "2026-12-01T00:00:00.000Z", pool })).toBe("Acme's pool: 12 of 100 AI requests used this month, resets 1 December")
    expect(usageText({ used: 12, limit: null, resetsAt: "2026-12-01T00:00:00.000Z", pool: { ...pool, limit: null } })).toBe("Acme's pool: Unlimited AI requests")
  })
})
