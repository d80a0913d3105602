import { readFileSync } from "node:fs"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { PLAIN_HTTP_REFUSED_ERROR } from "./api-origin"
import { isAllowedSiteSender, isLoopbackOrigin, LOOPBACK_SITE_ORIGINS, siteMatchPatterns, siteOriginsFor, SITE_ORIGINS } from "./site-origins"

const manifest = (
  JSON.parse(readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8")) as {
    manifest: { externally_connectable?: { matches?: string[]; ids?: string[] } }
  }
).manifest

describe("siteOriginsFor", () => {
  const production = { siteOrigins: undefined, apiUrl: undefined, development: false }

  it("trusts the origin of the API address in a production build without PLASMO_PUBLIC_SITE_ORIGINS", () => {
    expect(siteOriginsFor({ ...production, apiUrl: "https://api.imagequery.ai/" })).toEqual(["https://api.imagequery.ai"])
    expect(siteOriginsFor({ ...production, siteOrigins: " ", apiUrl: "https://imagequery.ai" })).toEqual(["https://imagequery.ai"])
  })

  it("trusts no loopback origin in a production build unless PLASMO_PUBLIC_SITE_ORIGINS names it, whatever the API address", () => {
    // The default API address is the local server of npm start: a store build must not trust that port on every computer.
    expect(siteOriginsFor(production)).toEqual([])
    for (const apiUrl of ["http://localhost:8787", "http://127.0.0.1:9000", "http://[::1]:8787"]) expect(siteOriginsFor({ ...production, apiUrl })).toEqual([])
    expect(siteOriginsFor({ ...production, siteOrigins: "http://localhost:8787" })).toEqual(["http://localhost:8787"])
    expect(siteOriginsFor({ ...production, siteOrigins: "https://imagequery.ai,http://127.0.0.1:8787", apiUrl: "http://localhost:8787" })).toEqual(["https://imagequery.ai", "http://127.0.0.1:8787"])
  })

  it("trusts exactly the listed origins in a production build", () => {
    expect(siteOriginsFor({ ...production, siteOrigins: "https://imagequery.ai, https://www.imagequery.ai/,", apiUrl: "https://api.imagequery.ai" })).toEqual([
      "https://imagequery.ai",
      "https://www.imagequery.ai"
    ])
    expect(siteOriginsFor({ ...production, siteOrigins: "http://127.0.0.1:8787" })).toEqual(["http://127.0.0.1:8787"])
  })

  it("adds the local site's loopback origins in a development build only, and takes a loopback API's origin there", () => {
    expect(siteOriginsFor({ ...production, development: true })).toEqual(["http://localhost:8787", "http://127.0.0.1:8787"])
    expect(siteOriginsFor({ ...production, apiUrl: "http://localhost:5173", development: true })).toEqual(["http://localhost:5173", ...LOOPBACK_SITE_ORIGINS])
    expect(siteOriginsFor({ siteOrigins: "https://imagequery.ai", apiUrl: undefined, development: true })).toEqual(["https://imagequery.ai", ...LOOPBACK_SITE_ORIGINS])
  })

  it("stops the build on an entry that is not an https origin, or an http one of this computer", () => {
    expect(() => siteOriginsFor({ ...production, siteOrigins: "https://imagequery.ai,http://imagequery.ai" })).toThrow(
      `PLASMO_PUBLIC_SITE_ORIGINS: http://imagequery.ai: ${PLAIN_HTTP_REFUSED_ERROR}`
    )
    expect(() => siteOriginsFor({ ...production, siteOrigins: "https://imagequery.ai/app" })).toThrow("PLASMO_PUBLIC_SITE_ORIGINS: https://imagequery.ai/app")
    expect(() => siteOriginsFor({ ...production, siteOrigins: "*" })).toThrow("PLASMO_PUBLIC_SITE_ORIGINS: *")
    expect(() => siteOriginsFor({ ...production, apiUrl: "http://api.example.com" })).toThrow("PLASMO_PUBLIC_SITE_ORIGINS (unset: the origin of PLASMO_PUBLIC_API_URL)")
  })

  it("is what this build trusts (vitest is no development build; it names the local site, as npm test's build does)", () => {
    expect(SITE_ORIGINS).toEqual(siteOriginsFor({ siteOrigins: process.env.PLASMO_PUBLIC_SITE_ORIGINS, apiUrl: process.env.PLASMO_PUBLIC_API_URL, development: false }))
    expect(SITE_ORIGINS).toEqual(["http://localhost:8787"])
  })
})

describe("isLoopbackOrigin", () => {
  it("is this computer by the API address's rule", () => {
    for (const origin of ["http://localhost:8787", "http://127.0.0.1", "http://127.3.4.5:1", "http://[::1]:8787", "https://localhost"]) expect(isLoopbackOrigin(origin)).toBe(true)
    for (const origin of ["https://imagequery.ai", "http://127.0.0.1.nip.io", "http://10.0.0.1:8787", "http://localhost.example"]) expect(isLoopbackOrigin(origin)).toBe(false)
  })
})

describe("package.json's externally_connectable", () => {
  it("lists what a development build trusts by default (plasmo dev writes it as it is), and no other extension may connect", () => {
    expect(manifest.externally_connectable?.matches).toEqual(siteMatchPatterns(siteOriginsFor({ siteOrigins: undefined, apiUrl: undefined, development: true })))
    expect(manifest.externally_connectable?.ids).toBeUndefined()
  })
})

describe("isAllowedSiteSender", () => {
  /** The top frame of its tab, as Chrome (and Firefox, for the site bridge's messages) describes it. */
  const top = { frameId: 0 }

  it("accepts the top frame of the site's pages by origin and URL", () => {
    expect(isAllowedSiteSender({ ...top, origin: "http://127.0.0.1:8787", url: "http://127.0.0.1:8787/login?x=1" }, LOOPBACK_SITE_ORIGINS)).toBe(true)
    expect(isAllowedSiteSender({ ...top, origin: "http://localhost:8787", url: "http://localhost:8787/" })).toBe(true)
    expect(isAllowedSiteSender({ ...top, url: "http://localhost:8787/dashboard" })).toBe(true)
    expect(isAllowedSiteSender({ ...top, origin: "http://localhost:8787" })).toBe(true)
    expect(isAllowedSiteSender({ ...top, origin: "http://localhost:8787", documentLifecycle: "active" })).toBe(true)
  })

  it("refuses a page of the site in a frame, wherever it is framed, and a document that is not the one shown", () => {
    const site = { origin: "http://localhost:8787", url: "http://localhost:8787/dashboard" }
    expect(isAllowedSiteSender({ ...site, frameId: 5 })).toBe(false)
    // A sender without a frame is no page in a tab.
    expect(isAllowedSiteSender(site)).toBe(false)
    for (const documentLifecycle of ["prerender", "cached", "pending_deletion"]) expect(isAllowedSiteSender({ ...site, ...top, documentLifecycle })).toBe(false)
  })

  it("refuses other origins, ports, schemes, other extensions and senders without an origin", () => {
    // A production build trusts no loopback origin but those named (here http://localhost:8787).
    expect(isAllowedSiteSender({ ...top, origin: "http://127.0.0.1:8787", url: "http://127.0.0.1:8787/login" })).toBe(false)
    expect(isAllowedSiteSender(undefined)).toBe(false)
    expect(isAllowedSiteSender({ ...top })).toBe(false)
    expect(isAllowedSiteSender({ ...top, origin: "http://127.0.0.1:9999", url: "http://127.0.0.1:9999/" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, origin: "https://localhost:8787", url: "https://localhost:8787/" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, origin: "http://evil.example", url: "http://evil.example/" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, url: "http://localhost:8787.evil.example/" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, id: "abcdefghijklmnopabcdefghijklmnop", origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop", url: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, origin: "null", url: "about:blank" })).toBe(false)
  })

  it("refuses a mismatch between sender.origin and sender.url", () => {
    expect(isAllowedSiteSender({ ...top, origin: "http://evil.example", url: "http://localhost:8787/" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, origin: "http://localhost:8787", url: "http://evil.example/" })).toBe(false)
    expect(isAllowedSiteSender({ ...top, origin: "http://localhost:8787", url: "not a url" })).toBe(false)
  })
})
