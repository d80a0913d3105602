import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { EXTENSION_ID, extensionIdFromSha256Hex } from "./extension-id"

const packageJson = JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { manifest: { key?: string } }

describe("EXTENSION_ID", () => {
  it("is the id Chrome derives from the manifest key in package.json", () => {
    const key = packageJson.manifest.key
    expect(typeof key).toBe("string")
    const der = Buffer.from(key!, "base64")
    // An RSA SubjectPublicKeyInfo (rsaEncryption OID), not a private key.
    expect(der.includes(Buffer.from("2a864886f70d010101", "hex"))).toBe(true)
    expect(key).not.toMatch(/PRIVATE/)
    expect(extensionIdFromSha256Hex(createHash("sha256").update(der).digest("hex"))).toBe(EXTENSION_ID)
  })

  it("maps hex digits 0-f to the letters a-p", () => {
    expect(extensionIdFromSha256Hex("0123456789abcdef0123456789ABCDEF00")).toBe("abcdefghijklmnopabcdefghijklmnop")
    expect(EXTENSION_ID).toMatch(/^[a-p]{32}$/)
  })
})
