import { describe, expect, it } from "vitest"

import { describeFace } from "./result-format"

const box = { x: 0, y: 0, width: 10, height: 10 }

describe("result wording", () => {
  it("adds how sure the gender and expression estimates are when scores are asked for", () => {
    const face = { box, score: 0.71, age: 31, gender: "female" as const, genderScore: 0.74, expression: "happy", expressionScore: 0.612 }
    expect(describeFace(face, { scores: true })).toBe("confidence 71%, about 31 years, female (74%), happy (61%)")
    expect(describeFace(face)).toBe("confidence 71%, about 31 years, female, happy")
    expect(describeFace({ box, score: 0.8, gender: "male" }, { scores: true })).toBe("confidence 80%, male")
  })
})
