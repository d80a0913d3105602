import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import {
  EXTENSION_SESSION_KEY,
  extensionApiFetch,
  ExtensionSessionError,
  getExtensionSession,
  readExtensionSession,
  saveExtensionSession,
  type ExtensionSession
} from "./extension-session"
import { createFakeChrome } from "./fake-chrome.test-support"

const API = "http://api.test"
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
  const url = String(input)
  const authorization = new Headers(init.headers).get("authorization")
  calls.push({ url, authorization, body: typeof init.body === "string" ? JSON.parse(init.body) : null })
  if (url === `${API}/api/auth/refresh`) return json(refreshAnswer.status, refreshAnswer.body)
  if (url === `${API}/api/analyze/usage`) {
    return authorization === "Bearer ext-b" ? json(200, { success: true, data: { used: 0 } }) : json(401, { success: false, error: { message: "Please sign in" } })
  }
  return json(404, {})
}) as unknown as typeof fetch

beforeEach(async () => {
  const fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  await fake.storage.local.set({ apiOrigin: API })
  calls = []
  refreshAnswer = { status: 200, body: { success: true, data: { token: "ext-b", refreshToken: "ext-refresh-b", expiresAt: Math.floor(NOW / 1000) + 3600 } } }
})
afterEach(() => vi.unstubAllGlobals())

describe("getExtensionSession", () => {
  it("is null when signed out", async () => {
    await expect(getExtensionSession(fakeFetch, NOW)).resolves.toBeNull()
  })

  it("answers a token valid for five minutes or more as it is", async () => {
    await saveExtensionSession(session)
    await expect(getExtensionSession(fakeFetch, session.expiresAt - 5 * 60_000)).resolves.toEqual(session)
    expect(calls).toEqual([])
  })

  it("refreshes a token that expires within five minutes and stores both new tokens", async () => {
    await saveExtensionSession(session)
    const renewed = await getExtensionSession(fakeFetch, session.expiresAt - 4 * 60_000)
    expect(calls).toEqual([{ url: `${API}/api/auth/refresh`, authorization: null, body: { refreshToken: "ext-refresh-a" } }])
    expect(renewed).toEqual({ ...session, token: "ext-b", refreshToken: "ext-refresh-b", expiresAt: NOW + 3600_000 })
    await expect(readExtensionSession()).resolves.toEqual(renewed)
  })

  it("clears the session when the refresh is refused", async () => {
    refreshAnswer = { status: 401, body: { success: false, error: { code: "SESSION_EXPIRED", message: "expired" } } }
    await saveExtensionSession({ ...session, expiresAt: NOW - 1 })
    await expect(getExtensionSession(fakeFetch, NOW)).resolves.toBeNull()
    await expect(readExtensionSession()).resolves.toBeNull()
  })

  it("keeps the session when the service cannot be reached", async () => {
    await saveExtensionSession({ ...session, expiresAt: NOW - 1 })
    refreshAnswer = { status: 503, body: {} }
    await expect(getExtensionSession(fakeFetch, NOW)).rejects.toBeInstanceOf(ExtensionSessionError)
    await expect(readExtensionSession()).resolves.not.toBeNull()
  })

  it("ignores a malformed stored value", async () => {
    await chrome.storage.local.set({ [EXTENSION_SESSION_KEY]: JSON.stringify({ token: 1 }) })
    await expect(readExtensionSession()).resolves.toBeNull()
  })
})

describe("extensionApiFetch", () => {
  it("throws when signed out", async () => {
    await expect(extensionApiFetch("/api/analyze/usage", {}, fakeFetch)).rejects.toThrow("Not signed in")
  })

  it("sends the extension's token, and on a 401 refreshes once and retries", async () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] })
    try {
      await saveExtensionSession(session)
      const response = await extensionApiFetch("/api/analyze/usage", { headers: { accept: "application/json" } }, fakeFetch)
      expect(response.status).toBe(200)
      expect(calls.map((call) => [call.url, call.authorization])).toEqual([
        [`${API}/api/analyze/usage`, "Bearer ext-a"],
        [`${API}/api/auth/refresh`, null],
        [`${API}/api/analyze/usage`, "Bearer ext-b"]
      ])
    } finally {
      vi.useRealTimers()
    }
  })
})
