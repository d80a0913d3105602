// @vitest-environment node
import { describe, expect, it } from "vitest"

import { isAnalysableImageUrl, MAX_PICKED_IMAGE_URL_LENGTH } from "./image-url"

describe("image URLs the extension accepts", () => {
  it.each([
    "https://example.com/a.png",
    "http://127.0.0.1:8080/photo.jpg?size=large#x",
    "blob:https://example.com/2f1c7a3e-9d1b-4c55-a2a0-5b1f8a3c1e77",
    "data:image/png;base64,iVBORw0KGgo=",
    "data:image/svg+xml,%3Csvg%3E%3C/svg%3E"
  ])("accepts %s", (url) => {
    expect(isAnalysableImageUrl(url)).toBe(true)
  })

  it.each([
    ["javascript", "javascript:alert(1)"],
    ["file", "file:///etc/passwd"],
    ["extension", "chrome-extension://abc/icon.png"],
    ["non-image data", "data:text/html,<script>alert(1)</script>"],
    ["relative", "/a.png"],
    ["empty", ""],
    ["not a string", 42],
    ["null", null]
  ])("refuses a %s URL", (_name, url) => {
    expect(isAnalysableImageUrl(url)).toBe(false)
  })

  it("bounds the length, data: URLs included", () => {
    const prefix = "data:image/png;base64,"
    expect(isAnalysableImageUrl(prefix + "A".repeat(MAX_PICKED_IMAGE_URL_LENGTH - prefix.length))).toBe(true)
    expect(isAnalysableImageUrl(prefix + "A".repeat(MAX_PICKED_IMAGE_URL_LENGTH - prefix.length + 1))).toBe(false)
    expect(isAnalysableImageUrl(`https://example.com/${"a".repeat(MAX_PICKED_IMAGE_URL_LENGTH)}`)).toBe(false)
  })
})
