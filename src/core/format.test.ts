import { describe, expect, it } from "vitest"

import { countOf, longDate, percent } from "./format"

describe("counts and shares in words", () => {
  it("counts in the singular for one and the plural otherwise", () => {
    expect(countOf(1, "object", "objects")).toBe("1 object")
    expect(countOf(0, "object", "objects")).toBe("0 objects")
    expect(countOf(4, "face", "faces")).toBe("4 faces")
  })

  it("writes scores and fractions as whole percentages", () => {
    expect(percent(0.923)).toBe("92%")
    expect(percent(0.335)).toBe("34%")
    expect(percent(1)).toBe("100%")
  })

  it("writes dates in long form, as the UTC day whatever the computer's time zone", () => {
    expect(longDate("2026-12-23T23:30:00.000Z")).toBe("23 December 2026")
    expect(longDate(new Date(Date.UTC(2027, 0, 1, 0, 15)))).toBe("1 January 2027")
    expect(longDate(Date.UTC(2026, 1, 28))).toBe("28 February 2026")
  })
})
