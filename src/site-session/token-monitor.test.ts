import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { PROVIDER_REFRESH_INTERVAL_MS, REFRESH_AFTER_USER_SET_MS, TOKEN_FIRST_CHECK_DELAY_MS, TOKEN_MONITOR_INTERVAL_MS } from "~site-session/token-monitor"

import { createTokenMonitor, type TokenMonitor, type VisibilitySource } from "./token-monitor"

const START = Date.UTC(2030, 0, 1)

const base64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")
/** A token whose exp lies `seconds` after the current (fake) time. */
const tokenExpiringIn = (seconds: number) => `${base64url({ alg: "HS256" })}.${base64url({ exp: Date.now() / 1000 + seconds })}.sig`

function fakeVisibility() {
  let visible = true
  const listeners = new Set<() => void>()
  const source: VisibilitySource = {
    isVisible: () => visible,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
  const change = (nowVisible: boolean) => {
    visible = nowVisible
    for (const listener of listeners) listener()
  }
  return { source, change, listeners }
}

let token: string | null
let refresh: ReturnType<typeof vi.fn<() => Promise<unknown>>>
let visibility: ReturnType<typeof fakeVisibility>
let monitor: TokenMonitor

function startMonitor() {
  monitor = createTokenMonitor({ getToken: () => token, refresh, visibility: visibility.source })
  monitor.start()
  return monitor
}

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  refresh = vi.fn(async () => "new-token")
  visibility = fakeVisibility()
  token = tokenExpiringIn(3600)
})

afterEach(() => {
  monitor?.stop()
  vi.useRealTimers()
})

describe("the expiry checks", () => {
  it("checks once 5 s after start, then every 120 s", () => {
    const getToken = vi.fn(() => token)
    monitor = createTokenMonitor({ getToken, refresh, visibility: visibility.source })
    monitor.start()
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS - 1)
    expect(getToken).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(getToken).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(TOKEN_MONITOR_INTERVAL_MS - TOKEN_FIRST_CHECK_DELAY_MS - 1)
    expect(getToken).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(getToken).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(TOKEN_MONITOR_INTERVAL_MS)
    expect(getToken).toHaveBeenCalledTimes(3)
    expect(refresh).not.toHaveBeenCalled()
  })

  it.each([
    ["0 s", 0],
    ["less than 0 s", -30]
  ])("refreshes at once when %s remain at a check", (_label, secondsAtCheck) => {
    startMonitor()
    token = tokenExpiringIn(secondsAtCheck + 5)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it("with 600 s left schedules one refresh at (remaining − 120 s) and does not stack another", () => {
    startMonitor()
    token = tokenExpiringIn(5 + 600)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    expect(refresh).not.toHaveBeenCalled()
    // The 120 s check sees the same token: the refresh stays at 5 s + 480 s.
    vi.advanceTimersByTime(480_000 - 1)
    expect(refresh).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(refresh).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(PROVIDER_REFRESH_INTERVAL_MS - 485_000 - 1)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it("with more than 600 s left schedules nothing", () => {
    startMonitor()
    token = tokenExpiringIn(5 + 601)
    // First check, check interval, 10-minute interval.
    expect(vi.getTimerCount()).toBe(3)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    expect(vi.getTimerCount()).toBe(2)
  })

  it("with 600 s or less left a timer is added at the check", () => {
    startMonitor()
    token = tokenExpiringIn(5 + 600)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    expect(vi.getTimerCount()).toBe(3)
  })

  it("with 120 s or less left the scheduled refresh runs right away", () => {
    startMonitor()
    token = tokenExpiringIn(5 + 60)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    // A zero-delay timer runs on the next tick.
    vi.advanceTimersByTime(1)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it("drops a scheduled refresh whose token was replaced meanwhile", () => {
    startMonitor()
    token = tokenExpiringIn(5 + 300)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    token = tokenExpiringIn(3600)
    vi.advanceTimersByTime(180_000)
    expect(refresh).not.toHaveBeenCalled()
  })

  it("leaves a token without a readable exp alone, and does nothing without a token", () => {
    startMonitor()
    token = "opaque"
    vi.advanceTimersByTime(TOKEN_MONITOR_INTERVAL_MS)
    token = null
    vi.advanceTimersByTime(TOKEN_MONITOR_INTERVAL_MS)
    expect(refresh).not.toHaveBeenCalled()
  })
})

describe("the other refreshes", () => {
  it("refreshes every 10 minutes", () => {
    startMonitor()
    vi.advanceTimersByTime(PROVIDER_REFRESH_INTERVAL_MS - 1)
    expect(refresh).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(refresh).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(PROVIDER_REFRESH_INTERVAL_MS)
    expect(refresh).toHaveBeenCalledTimes(2)
  })

  it("renews the identity provider's token on the same 10-minute interval, and only there", async () => {
    const onRefreshError = vi.fn()
    const providerRefresh = vi.fn(async () => "provider-token")
    monitor = createTokenMonitor({ getToken: () => token, refresh, providerRefresh, visibility: visibility.source, onRefreshError })
    monitor.start()
    monitor.userSet()
    visibility.change(true)
    await vi.advanceTimersByTimeAsync(PROVIDER_REFRESH_INTERVAL_MS - 1)
    expect(providerRefresh).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(providerRefresh).toHaveBeenCalledTimes(1)
    const failure = new Error("provider offline")
    providerRefresh.mockRejectedValueOnce(failure)
    await vi.advanceTimersByTimeAsync(PROVIDER_REFRESH_INTERVAL_MS)
    expect(providerRefresh).toHaveBeenCalledTimes(2)
    expect(onRefreshError).toHaveBeenCalledWith(failure)
    monitor.stop()
    await vi.advanceTimersByTimeAsync(PROVIDER_REFRESH_INTERVAL_MS)
    expect(providerRefresh).toHaveBeenCalledTimes(2)
  })

  it("refreshes when the document becomes visible, not when it is hidden", () => {
    startMonitor()
    visibility.change(false)
    expect(refresh).not.toHaveBeenCalled()
    visibility.change(true)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it("listens to the document's visibilitychange by default", () => {
    monitor = createTokenMonitor({ getToken: () => token, refresh })
    monitor.start()
    document.dispatchEvent(new Event("visibilitychange"))
    expect(refresh).toHaveBeenCalledTimes(1)
    monitor.stop()
    document.dispatchEvent(new Event("visibilitychange"))
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it("refreshes 5 s after the user is set; a second call replaces the pending one", () => {
    startMonitor()
    monitor.userSet()
    vi.advanceTimersByTime(REFRESH_AFTER_USER_SET_MS - 1000)
    monitor.userSet()
    vi.advanceTimersByTime(REFRESH_AFTER_USER_SET_MS - 1)
    expect(refresh).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(refresh).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(REFRESH_AFTER_USER_SET_MS * 2)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  it("ignores userSet when not running", () => {
    monitor = createTokenMonitor({ getToken: () => token, refresh, visibility: visibility.source })
    monitor.userSet()
    expect(vi.getTimerCount()).toBe(0)
  })

  it("swallows a failed refresh and reports it", async () => {
    const onRefreshError = vi.fn()
    const failure = new Error("offline")
    refresh.mockRejectedValue(failure)
    monitor = createTokenMonitor({ getToken: () => token, refresh, visibility: visibility.source, onRefreshError })
    monitor.start()
    await vi.advanceTimersByTimeAsync(PROVIDER_REFRESH_INTERVAL_MS)
    expect(onRefreshError).toHaveBeenCalledWith(failure)
    refresh.mockImplementation(() => {
      throw failure
    })
    visibility.change(true)
    expect(onRefreshError).toHaveBeenCalledTimes(2)
  })

  it("logs a failed refresh as a warning by default", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    refresh.mockRejectedValue(new Error("offline"))
    startMonitor()
    visibility.change(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(warn).toHaveBeenCalledTimes(1)
    warn.mockRestore()
  })
})

describe("start and stop", () => {
  it("start twice keeps one set of timers", () => {
    startMonitor()
    monitor.start()
    expect(vi.getTimerCount()).toBe(3)
    expect(visibility.listeners.size).toBe(1)
  })

  it("stop clears every timer and the visibility listener", () => {
    startMonitor()
    token = tokenExpiringIn(5 + 600)
    vi.advanceTimersByTime(TOKEN_FIRST_CHECK_DELAY_MS)
    monitor.userSet()
    // Check interval, 10-minute interval, user-set refresh, scheduled refresh.
    expect(vi.getTimerCount()).toBe(4)
    monitor.stop()
    expect(monitor.running).toBe(false)
    expect(vi.getTimerCount()).toBe(0)
    expect(visibility.listeners.size).toBe(0)
    vi.advanceTimersByTime(60 * 60_000)
    visibility.change(true)
    monitor.check()
    expect(refresh).not.toHaveBeenCalled()
  })

  it("can start again after stop", () => {
    startMonitor()
    monitor.stop()
    monitor.start()
    expect(monitor.running).toBe(true)
    vi.advanceTimersByTime(PROVIDER_REFRESH_INTERVAL_MS)
    expect(refresh).toHaveBeenCalledTimes(1)
  })
})
