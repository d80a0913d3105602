/**
 * When the page-side code does its work: in the page's idle time, and at most once per interval. Kept apart from
 * the image index so each can be read (and tested) alone; both run in every frame, so they stay dependency-free.
 */

/** Schedules `run`; returns a cancel function. */
export type Scheduler = (run: () => void) => () => void

export const idleScheduler: Scheduler = (run) => {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(run, { timeout: 200 })
    return () => cancelIdleCallback(handle)
  }
  const handle = setTimeout(run, 50)
  return () => clearTimeout(handle)
}

/**
 * Calls `send` with the latest value at most once per `intervalMs`: the first call goes out at
 * once, later ones within the interval are merged into one call at its end.
 */
export function throttleLatest<T>(send: (value: T) => void, intervalMs: number): { (value: T): void; cancel(): void } {
  let lastSent = -Infinity
  let timer: ReturnType<typeof setTimeout> | null = null
  let pending: { value: T } | null = null
  const fire = () => {
    timer = null
    if (!pending) return
    const { value } = pending
    pending = null
    lastSent = Date.now()
    send(value)
  }
  const throttled = (value: T) => {
    pending = { value }
    if (timer) return
    const wait = lastSent + intervalMs - Date.now()
    if (wait <= 0) fire()
    else timer = setTimeout(fire, wait)
  }
  throttled.cancel = () => {
    if (timer) clearTimeout(timer)
    timer = null
    pending = null
  }
  return throttled
}
