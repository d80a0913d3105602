/**
 * Token monitoring: refreshes the site's access token before it expires.
 *
 * - A check runs 5 s after start (TOKEN_FIRST_CHECK_DELAY_MS) and then every 120 s (TOKEN_MONITOR_INTERVAL_MS):
 *   0 s or less left → refresh at once; 600 s or less left (TOKEN_SCHEDULE_WINDOW_SECONDS) → one refresh
 *   scheduled at (left − 120 s) (TOKEN_REFRESH_LEAD_SECONDS), never several; more left → nothing.
 *   A token without a readable `exp` is left alone: the API client refreshes it on its first 401.
 * - Separately a refresh runs every 10 minutes (PROVIDER_REFRESH_INTERVAL_MS), whenever the document becomes
 *   visible, and 5 s after `userSet()` (REFRESH_AFTER_USER_SET_MS).
 *
 * `providerRefresh`, when given, runs on the same 10-minute interval: the identity provider's own token (Firebase's
 * ID token of a Google session) is renewed beside the site's.
 *
 * `refresh` is expected to be the API client's `refreshSession()`, so every refresh shares its single flight
 * and its Web Lock, and the client stores the new tokens only on success. The monitor only starts refreshes:
 * their failures are logged and otherwise ignored (the next timer tries again).
 *
 * Timers are the global setTimeout/setInterval, looked up at call time, so `vi.useFakeTimers()` drives them.
 * The visibility source defaults to `document` (visibilitychange + visibilityState); pass another one outside a page.
 */
import { SECOND_MS } from "~core/time"

import { secondsUntilExpiry } from "./jwt"

export const TOKEN_MONITOR_INTERVAL_MS = 120 * SECOND_MS

export const TOKEN_FIRST_CHECK_DELAY_MS = 5 * SECOND_MS

export const TOKEN_SCHEDULE_WINDOW_SECONDS = 600

export const TOKEN_REFRESH_LEAD_SECONDS = 120

export const PROVIDER_REFRESH_INTERVAL_MS = 600 * SECOND_MS

export const REFRESH_AFTER_USER_SET_MS = 5 * SECOND_MS

/** Where "the tab became visible" comes from. */
export interface VisibilitySource {
  isVisible(): boolean
  /** Calls `listener` on every visibility change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void
}

/** The page's document, or a source that never fires where there is none. */
export function documentVisibility(): VisibilitySource {
  const doc = typeof document === "undefined" ? undefined : document
  return {
    isVisible: () => doc?.visibilityState === "visible",
    subscribe(listener) {
      if (!doc) return () => {}
      doc.addEventListener("visibilitychange", listener)
      return () => doc.removeEventListener("visibilitychange", listener)
    }
  }
}

export interface TokenMonitorOptions {
  /** The stored access token, read at every check. */
  getToken: () => string | null
  /** Starts a refresh; the API client's refreshSession(). */
  refresh: () => Promise<unknown>
  /** Renews the identity provider's token every PROVIDER_REFRESH_INTERVAL_MS; failures go to onRefreshError too. */
  providerRefresh?: () => Promise<unknown>
  /** Milliseconds since the epoch. Date.now by default (faked by vi.useFakeTimers). */
  clock?: () => number
  visibility?: VisibilitySource
  /** Called with a refresh's failure; a console warning by default. */
  onRefreshError?: (error: unknown) => void
}

export interface TokenMonitor {
  /** Starts the timers and the visibility listener; does nothing when already running. */
  start(): void
  /** Clears every timer (including a scheduled or user-set refresh) and the visibility listener. */
  stop(): void
  /** The user was set (sign-in, restore): refresh once 5 s later; a second call replaces the pending one. */
  userSet(): void
  /** One expiry check now (also what the timers run). */
  check(): void
  readonly running: boolean
}

type Timeout = ReturnType<typeof setTimeout>
type Interval = ReturnType<typeof setInterval>

export function createTokenMonitor(options: TokenMonitorOptions): TokenMonitor {
  const { getToken, refresh, clock = () => Date.now() } = options
  const visibility = options.visibility ?? documentVisibility()
  const onRefreshError = options.onRefreshError ?? ((error: unknown) => console.warn("Token refresh failed", error))

  let running = false
  let firstCheck: Timeout | null = null
  let checkInterval: Interval | null = null
  let providerInterval: Interval | null = null
  let userSetTimer: Timeout | null = null
  /** The one scheduled refresh, with the token it was scheduled for. */
  let scheduled: { token: string; timer: Timeout } | null = null
  let unsubscribeVisibility: (() => void) | null = null

  function runRefresh(run: () => Promise<unknown> = refresh): void {
    let pending: Promise<unknown>
    try {
      pending = run()
    } catch (error) {
      onRefreshError(error)
      return
    }
    pending.catch(onRefreshError)
  }

  function clearScheduled(): void {
    if (scheduled) clearTimeout(scheduled.timer)
    scheduled = null
  }

  function check(): void {
    if (!running) return
    const token = getToken()
    if (!token) return
    const remaining = secondsUntilExpiry(token, clock())
    if (remaining === null) return
    if (remaining <= 0) {
      clearScheduled()
      runRefresh()
      return
    }
    if (remaining > TOKEN_SCHEDULE_WINDOW_SECONDS) return
    // Already scheduled for this very token: keep that one, do not stack another.
    if (scheduled?.token === token) return
    clearScheduled()
    const delayMs = Math.max(0, (remaining - TOKEN_REFRESH_LEAD_SECONDS) * 1000)
    const timer = setTimeout(() => {
      scheduled = null
      // Someone (a 401, another tab, the 10-minute refresh) already replaced that token: nothing left to do.
      if (getToken() !== token) return
      runRefresh()
    }, delayMs)
    scheduled = { token, timer }
  }

  function onVisibilityChange(): void {
    if (running && visibility.isVisible()) runRefresh()
  }

  function onProviderInterval(): void {
    runRefresh()
    if (options.providerRefresh) runRefresh(options.providerRefresh)
  }

  return {
    start() {
      if (running) return
      running = true
      firstCheck = setTimeout(() => {
        firstCheck = null
        check()
      }, TOKEN_FIRST_CHECK_DELAY_MS)
      checkInterval = setInterval(check, TOKEN_MONITOR_INTERVAL_MS)
      providerInterval = setInterval(onProviderInterval, PROVIDER_REFRESH_INTERVAL_MS)
      unsubscribeVisibility = visibility.subscribe(onVisibilityChange)
    },
    stop() {
      running = false
      if (firstCheck) clearTimeout(firstCheck)
      if (checkInterval) clearInterval(checkInterval)
      if (providerInterval) clearInterval(providerInterval)
      if (userSetTimer) clearTimeout(userSetTimer)
      clearScheduled()
      unsubscribeVisibility?.()
      firstCheck = checkInterval = providerInterval = userSetTimer = null
      unsubscribeVisibility = null
    },
    userSet() {
      if (!running) return
      if (userSetTimer) clearTimeout(userSetTimer)
      userSetTimer = setTimeout(() => {
        userSetTimer = null
        runRefresh()
      }, REFRESH_AFTER_USER_SET_MS)
    },
    check,
    get running() {
      return running
    }
  }
}
