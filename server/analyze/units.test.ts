import { describe, expect, it } from "vitest"

import { answerText } from "./provider"
import { checkImageUrl } from "./ssrf"

describe("image URL checks", () => {
  it("refuses localhost names without a DNS look-up and accepts a public literal address", async () => {
    await expect(checkImageUrl("https://localhost/a.png", { allowLoopback: false })).rejects.toMatchObject({ code: "URL_NOT_ALLOWED" })
    await expect(checkImageUrl("https://8.8.8.8/a.png", { allowLoopback: false })).resolves.toMatchObject({ address: "8.8.8.8", family: 4 })
    await expect(checkImageUrl("https://[2606:4700:4700::1111]/a.png", { allowLoopback: false })).resolves.toMatchObject({ family: 6 })
  })
})

describe("provider answers", () => {
  it("reads the first choice's text, as a string or as parts", () => {
    expect(answerText({ choices: [{ message: { content: " A cat. " } }] })).toBe("A cat.")
    expect(answerText({ choices: [{ message: { content: [{ type: "text", text: "A " }, { type: "text", text: "dog" }] } }] })).toBe("A dog")
    for (const garbage of [null, "text", 42, {}, { choices: [] }, { choices: [null] }, { choices: [{ message: {} }] }, { choices: [{ message: { content: 7 } }] }]) {
      expect(answerText(garbage)).toBeNull()
    }
  })
})
