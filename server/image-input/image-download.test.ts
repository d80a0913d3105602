import { describe, expect, it } from "vitest"

import { checkImageUrl } from "./image-download"

describe("image URL checks", () => {
  it("refuses localhost names without a DNS look-up and accepts a public literal address", async () => {
    await expect(checkImageUrl("https://localhost/a.png", { allowLoopback: false })).rejects.toMatchObject({ code: "URL_NOT_ALLOWED" })
    await expect(checkImageUrl("https://8.8.8.8/a.png", { allowLoopback: false })).resolves.toMatchObject({ address: "8.8.8.8", family: 4 })
    await expect(checkImageUrl("https://[2606:4700:4700::1111]/a.png", { allowLoopback: false })).resolves.toMatchObject({ family: 6 })
  })
})
