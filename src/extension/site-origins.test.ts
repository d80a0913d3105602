import { readFileSync } from "node:fs"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { isAllowedSiteSender, SITE_ORIGINS } from "./site-origins"

/** The externally_connectable match pattern of an origin. */
const originMatchPattern = (origin: string) => `${origin}/*`

const manifest = (
  JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as {
    manifest: { externally_connectable?: { matches?: string[]; ids?: string[] } }
  }
).manifest

describe("SITE_ORIGINS", () => {
  it("are exactly the manifest's externally_connectable matches, and no other extension may connect", () => {
    expect(manifest.externally_connectable?.matches).toEqual(SITE_ORIGINS.map(originMatchPattern))
    expect(manifest.externally_connectable?.ids).toBeUndefined()
  })
})

describe("isAllowedSiteSender", () => {
  it("accepts the site's pages by origin and URL", () => {
    expect(isAllowedSiteSender({ origin: "http://127.0.0.1:8787", url: "http://127.0.0.1:8787/login?x=1" })).toBe(true)
    expect(isAllowedSiteSender({ origin: "http://localhost:8787", url: "http://localhost:8787/" })).toBe(true)
    expect(isAllowedSiteSender({ url: "http://localhost:8787/dashboard" })).toBe(true)
    expect(isAllowedSiteSender({ origin: "http://localhost:8787" })).toBe(true)
  })

  it("refuses other origins, ports, schemes, other extensions and senders without an origin", () => {
    expect(isAllowedSiteSender(undefined)).toBe(false)
    expect(isAllowedSiteSender({})).toBe(false)
    expect(isAllowedSiteSender({ origin: "http://127.0.0.1:9999", url: "http://127.0.0.1:9999/" })).toBe(false)
    expect(isAllowedSiteSender({ origin: "https://localhost:8787", url: "https://localhost:8787/" })).toBe(false)
    expect(isAllowedSiteSender({ origin: "http://evil.example", url: "http://evil.example/" })).toBe(false)
    expect(isAllowedSiteSender({ url: "http://localhost:8787.evil.example/" })).toBe(false)
    expect(isAllowedSiteSender({ id: "abcdefghijklmnopabcdefghijklmnop", origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop", url: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html" })).toBe(false)
    expect(isAllowedSiteSender({ origin: "null", url: "about:blank" })).toBe(false)
  })

  it("refuses a mismatch between sender.origin and sender.url", () => {
    expect(isAllowedSiteSender({ origin: "http://evil.example", url: "http://localhost:8787/" })).toBe(false)
    expect(isAllowedSiteSender({ origin: "http://localhost:8787", url: "http://evil.example/" })).toBe(false)
    expect(isAllowedSiteSender({ origin: "http://localhost:8787", url: "not a url" })).toBe(false)
  })
})
