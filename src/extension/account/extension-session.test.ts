import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { ApiRequestError } from "~http/http-client"

import { getApiOrigin } from "../site-link/api-origin"
import {
  changeApiOrigin,
  createExtensionApiClient,
  EXTENSION_SESSION_KEY,
  readExtensionSession,
  saveExtensionSession,
  type ExtensionSession
} from "./extension-session"
import { createFakeChrome } from "../browser/fake-chrome.test-support"

const API = "https://api.test"
const NOW = Date.UTC(2026, 10, 22, 9, 0, 0)
const session: ExtensionSession = {
  user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" },
  token: "ext-a",
  refreshToken: "ext-refresh-a",
  expiresAt: NOW + 60 * 60_000
}

let refreshAnswer: { status: number; body: unknown }
let calls: { url: string; authorization: string | null; body: unknown }[]
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status })

const fakeFetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
  const request = input instanceof Request ? input : new Request(input, init)
  const url = request.url
  const authorization = request.headers.get("authorization")
  const text = await request.text()
  calls.push({ url, authorization, body: text ? JSON.parse(text) : null })
  if (url === `${API}/api/auth/refresh`) return json(refreshAnswer.status, refreshAnswer.body)
  if (url === `${API}/api/analyze/usage`) {
    return authorization === "Bearer ext-b" ? json(200, { success: true, data: { used: 0 } }) : json(401, { success: false, error: { code: "UNAUTHORIZED", message: "Please sign in" } })
  }
  if (url === `${API}/api/echo`) return json(200, { success: true, data: { authorization } })
  return json(404, {})
}) as unknown as typeof fetch

/** The extension's client at a given time. */
const clientAt = (now: number) => createExtensionApiClient({ fetch: fakeFetch, clock: () => now })

beforeEach(async () => {
  const fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  await fake.storage.local.set({ apiOrigin: API })
  calls = []
  refreshAnswer = { status: 200, body: { success: true, data: { token: "ext-b", refreshToken: "ext-refresh-b", expiresAt: Math.floor(NOW / 1000) + 3600 } } }
})
afterEach(() => vi.unstubAllGlobals())

describe("the extension's session before a call", () => {
  it("refuses a call unsent when signed out", async () => {
    await expect(clientAt(NOW).get("/api/echo")).rejects.toMatchObject({ code: "SIGNED_OUT" })
    expect(calls).toEqual([])
  })

  it("sends a token valid for five minutes or more as it is", async () => {
    await saveExtensionSession(session)
    await expect(clientAt(session.expiresAt - 5 * 60_000).get("/api/echo")).resolves.toEqual({ authorization: "Bearer ext-a" })
    expect(calls.map((call) => call.url)).toEqual([`${API}/api/echo`])
    await expect(readExtensionSession()).resolves.toEqual(session)
  })

  it("refreshes a token that expires within five minutes and stores both new tokens", async () => {
    await saveExtensionSession(session)
    await expect(clientAt(session.expiresAt - 4 * 60_000).get("/api/echo")).resolves.toEqual({ authorization: "Bearer ext-b" })
    expect(calls[0]).toEqual({ url: `${API}/api/auth/refresh`, authorization: null, body: { refreshToken: "ext-refresh-a" } })
    await expect(readExtensionSession()).resolves.toEqual({ ...session, token: "ext-b", refreshToken: "ext-refresh-b", expiresAt: NOW + 3600_000 })
  })

  it("clears the session when the refresh is refused", async () => {
    refreshAnswer = { status: 401, body: { success: false, error: { code: "SESSION_EXPIRED", message: "expired" } } }
    await saveExtensionSession({ ...session, expiresAt: NOW - 1 })
    await expect(clientAt(NOW).get("/api/echo")).rejects.toMatchObject({ code: "SIGNED_OUT" })
    await expect(readExtensionSession()).resolves.toBeNull()
  })

  it("keeps the session when the service cannot be reached", async () => {
    await saveExtensionSession({ ...session, expiresAt: NOW - 1 })
    refreshAnswer = { status: 503, body: {} }
    await expect(clientAt(NOW).get("/api/echo")).rejects.toBeInstanceOf(ApiRequestError)
    await expect(readExtensionSession()).resolves.not.toBeNull()
  })

  it("clears only the session it refreshed: one stored meanwhile by another page stays", async () => {
    refreshAnswer = { status: 401, body: { success: false, error: { code: "SESSION_EXPIRED", message: "expired" } } }
    await saveExtensionSession({ ...session, expiresAt: NOW - 1 })
    const newer = { ...session, token: "ext-new", refreshToken: "ext-refresh-new" }
    vi.mocked(fakeFetch).mockImplementationOnce(async () => {
      await saveExtensionSession(newer)
      return json(401, { success: false, error: { code: "SESSION_EXPIRED", message: "expired" } })
    })
    await expect(clientAt(NOW).get("/api/echo")).rejects.toBeInstanceOf(ApiRequestError)
    await expect(readExtensionSession()).resolves.toEqual(newer)
  })
})

describe("the stored session", () => {
  it("ignores a malformed stored value", async () => {
    await chrome.storage.local.set({ [EXTENSION_SESSION_KEY]: JSON.stringify({ token: 1 }) })
    await expect(readExtensionSession()).resolves.toBeNull()
  })

  it("is kept as JSON text, as earlier versions stored it", async () => {
    await saveExtensionSession(session)
    expect((await chrome.storage.local.get(EXTENSION_SESSION_KEY))[EXTENSION_SESSION_KEY]).toBe(JSON.stringify(session))
    await expect(readExtensionSession()).resolves.toEqual(session)
  })
})

describe("calls with the extension's session", () => {
  it("throws when signed out", async () => {
    await expect(clientAt(NOW).get("/api/analyze/usage")).rejects.toThrow("Not signed in")
  })

  it("sends the extension's token, and on a 401 refreshes once and retries", async () => {
    await saveExtensionSession(session)
    await expect(clientAt(NOW).get("/api/analyze/usage")).resolves.toEqual({ used: 0 })
    expect(calls.map((call) => [call.url, call.authorization])).toEqual([
      [`${API}/api/analyze/usage`, "Bearer ext-a"],
      [`${API}/api/auth/refresh`, null],
      [`${API}/api/analyze/usage`, "Bearer ext-b"]
    ])
  })
})

describe("changing the service address", () => {
  const NEW_API = "https://other.test"

  it("ends the session against the old address first, then stores the new address", async () => {
    await saveExtensionSession(session)
    const seen: { url: string; authorization: string | null; apiOrigin: string; session: unknown }[] = []
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      // What storage held while the old server was being told.
      seen.push({ url: request.url, authorization: request.headers.get("authorization"), apiOrigin: await getApiOrigin(), session: await readExtensionSession() })
      return json(200, { success: true, data: { loggedOut: true } })
    }) as typeof fetch
    await changeApiOrigin(NEW_API, fetchImpl)
    expect(seen).toEqual([{ url: `${API}/api/auth/logout`, authorization: "Bearer ext-a", apiOrigin: API, session: null }])
    await expect(readExtensionSession()).resolves.toBeNull()
    await expect(getApiOrigin()).resolves.toBe(NEW_API)
  })

  it("drops the session and switches even when the old server cannot be reached", async () => {
    await saveExtensionSession(session)
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const unreachable = (async () => {
      throw new TypeError("Failed to fetch")
    }) as typeof fetch
    await changeApiOrigin(NEW_API, unreachable)
    expect(warn).toHaveBeenCalledOnce()
    warn.mockRestore()
    await expect(readExtensionSession()).resolves.toBeNull()
    await expect(getApiOrigin()).resolves.toBe(NEW_API)
  })

  it("keeps the session when the address stays the same", async () => {
    await saveExtensionSession(session)
    await changeApiOrigin(API, fakeFetch)
    expect(calls).toEqual([])
    await expect(readExtensionSession()).resolves.toEqual(session)
  })
})
