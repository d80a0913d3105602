import { describe, expect, it } from "vitest"

import { mailboxOf } from "./mailbox"

describe("mailboxOf: the mailbox an address delivers to", () => {
  it.each([
    ["  Ada@Example.com ", "ada@example.com"],
    ["ada+2@example.com", "ada@example.com"],
    ["ada+work+more@example.com", "ada@example.com"],
    ["Ada+Trial@Example.COM", "ada@example.com"],
    ["a.da@gmail.com", "ada@gmail.com"],
    ["A.D.A+x@GMail.com", "ada@gmail.com"],
    ["a.da@googlemail.com", "ada@gmail.com"],
    ["ada@googlemail.com", "ada@gmail.com"]
  ])("%j is the mailbox %j", (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox)
  })

  it("keeps the dots of providers that do not ignore them, and of sub-domains of Gmail's", () => {
    expect(mailboxOf("a.da@example.com")).toBe("a.da@example.com")
    expect(mailboxOf("a.da@mail.gmail.com")).toBe("a.da@mail.gmail.com")
    expect(mailboxOf("a.da+x@outlook.com")).toBe("a.da@outlook.com")
  })

  it("leaves what is not a local part and a domain trimmed and lower-cased, and never an empty local part", () => {
    expect(mailboxOf(" Not-An-Address ")).toBe("not-an-address")
    expect(mailboxOf("@example.com")).toBe("@example.com")
    expect(mailboxOf("ada@")).toBe("ada@")
    expect(mailboxOf("+tag@example.com")).toBe("+tag@example.com")
    expect(mailboxOf("...@gmail.com")).toBe("...@gmail.com")
    // The last @ separates the domain (a quoted local part may hold one).
    expect(mailboxOf('"a@b"+x@example.com')).toBe('"a@b"@example.com')
  })

  it("gives one mailbox for every spelling of it", () => {
    const spellings = ["ada.lovelace@gmail.com", "AdaLovelace@googlemail.com", "ada.love.lace+pro@gmail.com", " adalovelace+1@GMAIL.COM"]
    expect(new Set(spellings.map(mailboxOf))).toEqual(new Set(["adalovelace@gmail.com"]))
  })
})
