import { cleanup, renderHook, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import type { Membership } from "~core/organizations"

import { loadAccount, refreshStoredProfile } from "./account"
import { clearExtensionSession, readExtensionSession, saveExtensionSession, type ExtensionSession } from "./extension-session"
import { createFakeChrome, type FakeChrome } from "../browser/fake-chrome.test-support"
import { brandLogoItem, brandOf, fetchBrandLogo, keepBrandLogo, logoAddressOn, MAX_BRAND_LOGO_BYTES, membershipOfUser } from "./organization-brand"
import { sentLedgerItem } from "./sent-ledger"

const API = "https://api.test"
const LOGO_URL = `${API}/api/organizations/org-1/logo/first.png`
const NEW_LOGO_URL = `${API}/api/organizations/org-1/logo/second.png`
/** A PNG's signature and a few bytes: enough for what the extension checks (it never decodes the picture). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const PNG_DATA_URL = `data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`

const acme: Membership = { id: "org-1", name: "Acme", role: "member", brand: { name: "Acme", logoUrl: LOGO_URL, accentColor: "#0a7d5a" } }
const ada = { id: "u1", name: "Ada", email: "ada@example.com", role: "user" as const, provider: "email" as const, emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z" }
const session = (organization: Membership | null): ExtensionSession => ({ user: { ...ada, organization }, token: "ext-a", refreshToken: "ext-refresh-a", expiresAt: Date.now() + 3_600_000 })

let fake: FakeChrome
/** What GET /api/auth/profile answers; the logo's address answers `logoAnswer`. */
let profile: () => Response
let logoAnswer: () => Response
const fetched: string[] = []

function stubFetch() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      fetched.push(request.url)
      if (request.url === `${API}/api/auth/profile`) return profile()
      if (request.url === `${API}/api/analyze/usage`) return Response.json({ success: true, data: { used: 1, limit: null, resetsAt: "2026-12-01T00:00:00.000Z" } })
      if (request.url.startsWith(`${API}/api/organizations/`)) return logoAnswer()
      return new Response("Not found", { status: 404 })
    })
  )
}

beforeEach(async () => {
  fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  await fake.storage.local.set({ apiOrigin: API })
  fetched.length = 0
  profile = () => Response.json({ success: true, data: { user: { ...ada, organization: acme } } })
  logoAnswer = () => new Response(PNG, { headers: { "content-type": "image/png" } })
  stubFetch()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe("the organisation's brand", () => {
  it("is the membership's name and colour, with white or black text, and the kept logo only when it is of the current address", () => {
    expect(brandOf(acme, { url: LOGO_URL, dataUrl: PNG_DATA_URL })).toEqual({ name: "Acme", accentColor: "#0a7d5a", textColor: "#ffffff", logo: PNG_DATA_URL })
    expect(brandOf({ ...acme, brand: { ...acme.brand, accentColor: "#ffd400" } }, null)).toMatchObject({ textColor: "#000000", logo: null })
    expect(brandOf({ ...acme, brand: { ...acme.brand, logoUrl: NEW_LOGO_URL } }, { url: LOGO_URL, dataUrl: PNG_DATA_URL })?.logo).toBeNull()
    // A colour that is not #rrggbb never reaches a style.
    expect(brandOf({ ...acme, brand: { ...acme.brand, accentColor: "red; background: url(x)" } }, null)).toMatchObject({ accentColor: null, textColor: null })
    expect(brandOf(null, { url: LOGO_URL, dataUrl: PNG_DATA_URL })).toBeNull()
  })

  it("reads a membership from the stored user, and none from a malformed one", () => {
    expect(membershipOfUser({ organization: acme })).toEqual(acme)
    expect(membershipOfUser({ organization: null })).toBeNull()
    expect(membershipOfUser({ organization: { id: "org-1" } as unknown as Membership })).toBeNull()
    expect(membershipOfUser(undefined)).toBeNull()
  })
})

describe("the profile kept with the extension's session", () => {
  it("takes the membership and brand the profile answers, and drops it when the profile has none", async () => {
    await saveExtensionSession(session(null))
    await refreshStoredProfile()
    expect((await readExtensionSession())?.user.organization).toEqual(acme)
    expect((await readExtensionSession())?.token).toBe("ext-a")
    profile = () => Response.json({ success: true, data: { user: { ...ada, organization: null } } })
    await refreshStoredProfile()
    expect((await readExtensionSession())?.user.organization).toBeNull()
  })

  it("keeps what is stored when the service cannot be reached, or answers for another account", async () => {
    await saveExtensionSession(session(acme))
    profile = () => {
      throw new TypeError("Failed to fetch")
    }
    await refreshStoredProfile()
    expect((await readExtensionSession())?.user.organization).toEqual(acme)
    profile = () => Response.json({ success: true, data: { user: { ...ada, id: "u2", email: "bob@example.com", organization: null } } })
    await refreshStoredProfile()
    expect((await readExtensionSession())?.user.organization).toEqual(acme)
  })

  it("is re-read with the account, and the logo fetched and recorded in Sent from this device", async () => {
    await saveExtensionSession(session(null))
    const account = await loadAccount()
    expect(account).toMatchObject({ kind: "signedIn", user: { organization: acme } })
    await waitFor(async () => expect(await brandLogoItem.get()).toEqual({ url: LOGO_URL, dataUrl: PNG_DATA_URL }))
    const kinds = (await sentLedgerItem.get()).map((entry) => entry.kind)
    expect(kinds).toEqual(expect.arrayContaining(["profile", "organizationLogo", "usage"]))
  })
})

describe("the logo kept for offline use", () => {
  it("is fetched once per address and survives a restart (storage read again) with the service unreachable", async () => {
    await saveExtensionSession(session(acme))
    await keepBrandLogo(acme)
    await keepBrandLogo(acme)
    expect(fetched.filter((url) => url === LOGO_URL)).toHaveLength(1)

    // A restart: fresh modules read the same storage; the service is gone.
    vi.resetModules()
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))))
    const { useBrand } = await import("./use-brand")
    const { result } = renderHook(() => useBrand())
    await waitFor(() => expect(result.current).toEqual({ name: "Acme", accentColor: "#0a7d5a", textColor: "#ffffff", logo: PNG_DATA_URL }))
    expect(fake.storage.local.items.get("organizationLogo")).toEqual({ url: LOGO_URL, dataUrl: PNG_DATA_URL })
  })

  it("is dropped when the membership goes, and when the logo changes address (the new one fetched)", async () => {
    await saveExtensionSession(session(acme))
    await keepBrandLogo(acme)
    expect(await brandLogoItem.get()).not.toBeNull()

    const moved = { ...acme, brand: { ...acme.brand, logoUrl: NEW_LOGO_URL } }
    await saveExtensionSession(session(moved))
    logoAnswer = () => new Response("Gone", { status: 503 })
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    await keepBrandLogo(moved)
    expect(warn).toHaveBeenCalledWith("Could not keep the organisation's logo", expect.any(Error))
    expect(await brandLogoItem.get()).toBeNull()
    logoAnswer = () => new Response(PNG, { headers: { "content-type": "image/png" } })
    await keepBrandLogo(moved)
    expect(await brandLogoItem.get()).toEqual({ url: NEW_LOGO_URL, dataUrl: PNG_DATA_URL })

    profile = () => Response.json({ success: true, data: { user: { ...ada, organization: null } } })
    await loadAccount()
    await waitFor(async () => expect(await brandLogoItem.get()).toBeNull())
    expect(fake.storage.local.items.has("organizationLogo")).toBe(false)
  })

  it("is dropped on signing out", async () => {
    await saveExtensionSession(session(acme))
    await keepBrandLogo(acme)
    await clearExtensionSession()
    expect(await loadAccount()).toEqual({ kind: "signedOut" })
    await waitFor(async () => expect(await brandLogoItem.get()).toBeNull())
  })

  it("is not kept when the account left while it downloaded", async () => {
    await saveExtensionSession(session(acme))
    let release!: () => void
    logoAnswer = () => new Response(new ReadableStream({ start: (controller) => void (release = () => (controller.enqueue(PNG), controller.close())) }), { headers: { "content-type": "image/png" } })
    const keeping = keepBrandLogo(acme)
    await waitFor(() => expect(release).toBeDefined())
    await saveExtensionSession(session(null))
    release()
    await keeping
    expect(await brandLogoItem.get()).toBeNull()
  })

  it("is fetched from the service the extension talks to, whatever host the server names, and only at a logo's path", async () => {
    const localhost = { ...acme, brand: { ...acme.brand, logoUrl: "http://localhost:8787/api/organizations/org-1/logo/first.png" } }
    await saveExtensionSession(session(localhost))
    await keepBrandLogo(localhost)
    expect(fetched).toEqual([LOGO_URL])
    expect(await brandLogoItem.get()).toEqual({ url: localhost.brand.logoUrl, dataUrl: PNG_DATA_URL })

    const elsewhere = { ...acme, brand: { ...acme.brand, logoUrl: "https://cdn.example.com/logo.png" } }
    await saveExtensionSession(session(elsewhere))
    await keepBrandLogo(elsewhere)
    expect(fetched).toEqual([LOGO_URL])
    expect(await brandLogoItem.get()).toBeNull()
    expect(logoAddressOn("javascript:alert(1)//api/organizations/a/logo/b", API)).toBeNull()
  })

  it("must be a PNG, by its type and its bytes, of at most 300 KB", async () => {
    const answer = (body: BodyInit, type = "image/png", headers: Record<string, string> = {}) => (async () => new Response(body, { headers: { "content-type": type, ...headers } })) as typeof fetch
    await expect(fetchBrandLogo(LOGO_URL, answer(PNG))).resolves.toBe(PNG_DATA_URL)
    await expect(fetchBrandLogo(LOGO_URL, answer(PNG, "image/svg+xml"))).rejects.toThrow(/not a PNG/)
    await expect(fetchBrandLogo(LOGO_URL, answer("<svg/>"))).rejects.toThrow(/not a PNG/)
    const big = new Uint8Array(MAX_BRAND_LOGO_BYTES + 1)
    big.set(PNG)
    await expect(fetchBrandLogo(LOGO_URL, answer(big))).rejects.toThrow(/over/)
    // A body longer than it says, or saying nothing of its length, is cut off at the cap all the same.
    const stream = () => new ReadableStream({ start: (controller) => (controller.enqueue(big), controller.close()) })
    await expect(fetchBrandLogo(LOGO_URL, answer(stream()))).rejects.toThrow(/over/)
    await expect(fetchBrandLogo(LOGO_URL, answer(PNG, "image/png", { "content-length": String(MAX_BRAND_LOGO_BYTES + 1) }))).rejects.toThrow(/over/)
    await expect(fetchBrandLogo(LOGO_URL, (async () => new Response("Not found", { status: 404 })) as typeof fetch)).rejects.toThrow(/404/)
    const exact = new Uint8Array(MAX_BRAND_LOGO_BYTES)
    exact.set(PNG)
    await expect(fetchBrandLogo(LOGO_URL, answer(exact))).resolves.toMatch(/^data:image\/png;base64,/)
  })
})
