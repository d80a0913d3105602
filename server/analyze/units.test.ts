import { describe, expect, it } from "vitest"

import { answerText } from "./provider"
import { monthKey, nextMonthStart } from "./quota"
import { classifyAddress, checkImageUrl } from "./ssrf"

describe("address classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["10.1.2.3", "restricted"],
    ["172.16.0.1", "restricted"],
    ["172.31.255.255", "restricted"],
    ["192.168.10.1", "restricted"],
    ["169.254.169.254", "restricted"],
    ["100.64.0.1", "restricted"],
    ["100.127.255.255", "restricted"],
    ["0.0.0.0", "restricted"],
    ["0.1.2.3", "restricted"],
    ["224.0.0.251", "restricted"],
    ["255.255.255.255", "restricted"],
    ["::", "restricted"],
    ["::ffff:10.0.0.1", "restricted"],
    ["::ffff:a9fe:a9fe", "restricted"],
    ["::10.0.0.1", "restricted"],
    ["64:ff9b::a9fe:a9fe", "restricted"],
    ["2002:0a00:0001::1", "restricted"],
    ["fe80::1", "restricted"],
    ["fe80::1%eth0", "restricted"],
    ["febf::1", "restricted"],
    ["fc00::1", "restricted"],
    ["fd12:3456::1", "restricted"],
    ["ff02::1", "restricted"],
    ["2001:db8::1", "restricted"],
    ["not-an-ip", "restricted"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["2606:4700:4700::1111", "public"],
    ["2002:0808:0808::1", "public"]
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind)
  })

  it("refuses localhost names without a DNS look-up and accepts a public literal address", async () => {
    await expect(checkImageUrl("https://localhost/a.png", { allowLoopback: false })).rejects.toMatchObject({ code: "URL_NOT_ALLOWED" })
    await expect(checkImageUrl("https://8.8.8.8/a.png", { allowLoopback: false })).resolves.toMatchObject({ address: "8.8.8.8", family: 4 })
    await expect(checkImageUrl("https://[2606:4700:4700::1111]/a.png", { allowLoopback: false })).resolves.toMatchObject({ family: 6 })
  })
})

describe("months and limits", () => {
  it("counts per UTC calendar month and resets at the next one", () => {
    expect(monthKey(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe("2026-12")
    expect(monthKey(Date.UTC(2027, 0, 1))).toBe("2027-01")
    expect(new Date(nextMonthStart(Date.UTC(2026, 11, 15))).toISOString()).toBe("2027-01-01T00:00:00.000Z")
    expect(new Date(nextMonthStart(Date.UTC(2028, 1, 29, 12))).toISOString()).toBe("2028-03-01T00:00:00.000Z")
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
