import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { fail, ok } from "~core/api-answer"
import { REFRESH_AFTER_USER_SET_MS } from "~site-session/token-monitor"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { useSession } from "./session-store"
import { startSessionSync } from "./session-sync"
import { NOW, json, sessionTestKit, storeSession, storedItems, user } from "./session-test-kit"

vi.mock("~ui/toast", () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const kit = sessionTestKit()

describe("the session changing elsewhere", () => {
  const storageEvent = (key: string | null, newValue: string | null) =>
    new StorageEvent("storage", { key, newValue, storageArea: localStorage })

  let stopSync: () => void
  beforeEach(() => {
    stopSync = startSessionSync()
    vi.useFakeTimers({ now: NOW })
    // The profile fetch after restore finds the same user: no sync of its own.
    kit.server.routes.set("GET /api/auth/profile", () => json(ok({ user })))
    storeSession()
    useSession.getState().restore()
    kit.sent = []
  })
  afterEach(() => stopSync())

  it("logs out when another tab removes the user, and stops monitoring", async () => {
    localStorage.removeItem(KEYS.user)
    window.dispatchEvent(storageEvent(KEYS.user, null))
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(kit.server.seen).toEqual([])
  })

  it("logs out when another tab clears the storage", () => {
    localStorage.clear()
    window.dispatchEvent(storageEvent(null, null))
    expect(useSession.getState().status).toBe("loggedOut")
  })

  it("shows a user changed by another tab", () => {
    const renamed = { ...user, name: "Countess" }
    localStorage.setItem(KEYS.user, JSON.stringify(renamed))
    window.dispatchEvent(storageEvent(KEYS.user, JSON.stringify(renamed)))
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: renamed })
  })

  it("follows a sign-in in another tab", () => {
    localStorage.clear()
    window.dispatchEvent(storageEvent(null, null))
    storeSession("t9", "r9")
    window.dispatchEvent(storageEvent(KEYS.user, JSON.stringify(user)))
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
  })

  it("ignores other keys and other storage areas", () => {
    localStorage.removeItem(KEYS.user)
    window.dispatchEvent(storageEvent("theme", "dark"))
    window.dispatchEvent(new StorageEvent("storage", { key: KEYS.user, newValue: null, storageArea: sessionStorage }))
    expect(useSession.getState().status).toBe("loggedIn")
  })

  it("attaches the listener once however often restore runs", () => {
    const add = vi.spyOn(window, "addEventListener")
    useSession.getState().restore()
    useSession.getState().restore()
    startSessionSync()
    expect(add.mock.calls.filter(([type]) => type === "storage")).toHaveLength(0)
  })

  it("logs out when the server refuses the refresh, and tells the extension", async () => {
    kit.server.routes.set("POST /api/auth/refresh", () => json(fail("SESSION_EXPIRED", "Session expired."), 401))
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS)
    expect(kit.server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
    expect(storedItems()).toEqual([null, null, null])
    expect(kit.sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_LOGOUT"])
    // Monitoring stopped.
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(kit.server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
  })

  it("syncs the extension after a refresh with the new access token, never the new refresh token", async () => {
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS)
    expect(kit.sent).toEqual([
      expect.objectContaining({ type: "WEBSITE_AUTH_SYNC", payload: { user, tokens: expect.objectContaining({ authToken: "t2", refreshToken: null }) } })
    ])
    expect(JSON.stringify(kit.sent)).not.toContain("r2")
  })

  it("setUser stores the user and syncs it", () => {
    const renamed = { ...user, name: "Countess" }
    useSession.getState().setUser(renamed)
    expect(useSession.getState().user).toEqual(renamed)
    expect(JSON.parse(localStorage.getItem(KEYS.user)!)).toEqual(renamed)
    expect(kit.sent).toEqual([expect.objectContaining({ type: "WEBSITE_AUTH_SYNC", payload: expect.objectContaining({ user: renamed }) })])
  })

  it("setUser does nothing while signed out", async () => {
    await useSession.getState().logout()
    useSession.getState().setUser(user)
    expect(useSession.getState().user).toBeNull()
    expect(localStorage.getItem(KEYS.user)).toBeNull()
  })
})
