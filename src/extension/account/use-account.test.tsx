import { act, cleanup, renderHook, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { saveExtensionSession, clearExtensionSession, type ExtensionSession } from "./extension-session"
import { createFakeChrome } from "../browser/fake-chrome.test-support"
import { useAccount } from "./use-account"

const API = "https://api.test"
const session: ExtensionSession = {
  user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" },
  token: "ext-a",
  refreshToken: "ext-refresh-a",
  expiresAt: Date.now() + 60 * 60_000
}

let usageAnswer: () => Response

beforeEach(async () => {
  const fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  await fake.storage.local.set({ apiOrigin: API })
  usageAnswer = () => Response.json({ success: true, data: { used: 3, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } })
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      if (request.url === `${API}/api/analyze/usage` && request.headers.get("authorization") === "Bearer ext-a") return usageAnswer()
      return Response.json({ success: false, error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 })
    })
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe("useAccount", () => {
  it("is checking, then signed out without a session", async () => {
    const { result } = renderHook(() => useAccount())
    expect(result.current.account).toEqual({ kind: "checking" })
    await waitFor(() => expect(result.current.account).toEqual({ kind: "signedOut" }))
  })

  it("shows the user and the month's usage, and follows sign-in and sign-out in any extension page", async () => {
    const { result } = renderHook(() => useAccount())
    await waitFor(() => expect(result.current.account.kind).toBe("signedOut"))
    await act(() => saveExtensionSession(session))
    await waitFor(() => expect(result.current.account).toEqual({ kind: "signedIn", user: session.user, usage: "3 of 10 AI requests used this month, resets 1 December" }))
    await act(() => clearExtensionSession())
    await waitFor(() => expect(result.current.account).toEqual({ kind: "signedOut" }))
  })

  it("keeps the user shown without usage when the service cannot answer", async () => {
    usageAnswer = () => new Response("Bad gateway", { status: 502 })
    await saveExtensionSession(session)
    const { result } = renderHook(() => useAccount())
    await waitFor(() => expect(result.current.account).toEqual({ kind: "signedIn", user: session.user, usage: null }))
  })

  it("reloads on demand, after an analysis used a request", async () => {
    await saveExtensionSession(session)
    const { result } = renderHook(() => useAccount())
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: expect.stringContaining("3 of 10") }))
    usageAnswer = () => Response.json({ success: true, data: { used: 4, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } })
    act(() => result.current.reloadAccount())
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: expect.stringContaining("4 of 10") }))
  })

  it("reloads when the panel is focused again: a plan bought on the site meanwhile shows at once", async () => {
    await saveExtensionSession(session)
    const { result } = renderHook(() => useAccount())
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: expect.stringContaining("3 of 10") }))
    usageAnswer = () => Response.json({ success: true, data: { used: 3, limit: null, resetsAt: "2026-12-01T00:00:00.000Z" } })
    act(() => {
      window.dispatchEvent(new Event("focus"))
    })
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: "Unlimited AI requests" }))
  })

  it("asks the service once when focus and visibility arrive together, and once more for a change made during a load", async () => {
    await saveExtensionSession(session)
    const { result } = renderHook(() => useAccount())
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: expect.stringContaining("3 of 10") }))
    const usageCalls = () => vi.mocked(fetch).mock.calls.filter(([input, init]) => new Request(input, init).url === `${API}/api/analyze/usage`).length
    const before = usageCalls()
    act(() => {
      window.dispatchEvent(new Event("focus"))
      document.dispatchEvent(new Event("visibilitychange"))
    })
    await waitFor(() => expect(usageCalls()).toBe(before + 1))
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: expect.stringContaining("3 of 10") }))
    usageAnswer = () => Response.json({ success: true, data: { used: 5, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } })
    act(() => {
      window.dispatchEvent(new Event("focus"))
      result.current.reloadAccount()
    })
    await waitFor(() => expect(usageCalls()).toBe(before + 3))
    await waitFor(() => expect(result.current.account).toMatchObject({ usage: expect.stringContaining("5 of 10") }))
  })
})
