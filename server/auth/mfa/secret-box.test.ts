/** Sealed secrets: opened only with the server's keys and for their purpose, changed bytes refused, ENCRYPTION_KEY added without losing what the token secret sealed. */
import { describe, expect, it } from "vitest"

import { open, seal, sealingKeys } from "./secret-box"

const TOKEN_SECRET = "token-secret-of-at-least-32-characters!"
const ENCRYPTION_KEY = "encryption-key-of-at-least-32-characters"

describe("the secret box", () => {
  it("opens what it sealed, for the same purpose only, and refuses a changed value or another key", () => {
    const keys = sealingKeys({}, TOKEN_SECRET)
    const sealed = seal("JBSWY3DPEHPK3PXP", keys, "totp:user-1")
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP")
    expect(open(sealed, keys, "totp:user-1")).toBe("JBSWY3DPEHPK3PXP")
    expect(() => open(sealed, keys, "totp:user-2")).toThrow()
    expect(() => open(sealed, sealingKeys({}, "another-token-secret-of-32-characters"), "totp:user-1")).toThrow()
    const parts = sealed.split(".")
    parts[3] = Buffer.from(Buffer.from(parts[3]!, "base64url").map((byte, index) => (index === 0 ? byte ^ 1 : byte))).toString("base64url")
    expect(() => open(parts.join("."), keys, "totp:user-1")).toThrow()
  })

  it("seals with ENCRYPTION_KEY once set, still opens what the token secret sealed, and then needs no token secret", () => {
    const before = seal("old secret", sealingKeys({}, TOKEN_SECRET), "totp:user-1")
    const keys = sealingKeys({ encryptionKey: ENCRYPTION_KEY }, TOKEN_SECRET)
    expect(open(before, keys, "totp:user-1")).toBe("old secret")
    const after = seal("new secret", keys, "totp:user-1")
    // The token secret rotated: what ENCRYPTION_KEY sealed still opens, what the old token secret sealed does not.
    const rotated = sealingKeys({ encryptionKey: ENCRYPTION_KEY }, "a-new-token-secret-of-32-characters!!")
    expect(open(after, rotated, "totp:user-1")).toBe("new secret")
    expect(() => open(before, rotated, "totp:user-1")).toThrow()
  })
})
