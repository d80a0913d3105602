import { describe, expect, it } from "vitest"

import { countOf, percent } from "./format"

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

})
