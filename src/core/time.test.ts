import { describe, expect, it } from "vitest"

import { monthKey, nextMonthStart } from "./time"

describe("months and limits", () => {
  it("counts per UTC calendar month and resets at the next one", () => {
    expect(monthKey(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe("2026-12")
    expect(monthKey(Date.UTC(2027, 0, 1))).toBe("2027-01")
    expect(new Date(nextMonthStart(Date.UTC(2026, 11, 15))).toISOString()).toBe("2027-01-01T00:00:00.000Z")
    expect(new Date(nextMonthStart(Date.UTC(2028, 1, 29, 12))).toISOString()).toBe("2028-03-01T00:00:00.000Z")
  })
})
