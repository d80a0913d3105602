import { describe, expect, it } from "vitest"

import { answerText } from "./model-calls"

describe("provider answers", () => {
  it("reads the first choice's text, as a string or as parts", () => {
    expect(answerText({ choices: [{ message: { content: " A cat. " } }] })).toBe("A cat.")
    expect(answerText({ choices: [{ message: { content: [{ type: "text", text: "A " }, { type: "text", text: "dog" }] } }] })).toBe("A dog")
    for (const garbage of [null, "text", 42, {}, { choices: [] }, { choices: [null] }, { choices: [{ message: {} }] }, { choices: [{ message: { content: 7 } }] }]) {
      expect(answerText(garbage)).toBeNull()
    }
  })
})
