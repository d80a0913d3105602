/**
 * The order and pace of reading a page's images on this computer (Find in images, and Translate images on this
 * page): one image at a time per loop, each in the panel's idle time once the page has been left alone for a moment,
 * the images nearest the page's view first, waiting while the panel is hidden, until every image of the list is read
 * or the reading is stopped. Loops that share `isDone` (what is read or being read) read side by side, each image
 * once. What reading is, where images are and when the panel is shown come in as `ReadLoopParts`, so the loop is
 * tested alone.
 */
import type { ImageReading } from "./image-search"

export interface ReadTarget {
  url: string
  tabId?: number
  frameId?: number
  pageUrl?: string
}

export type ReadOutcome<Reading = ImageReading> = { status: "read"; reading: Reading } | { status: "failed"; message: string }

export interface ReadLoopParts<Reading = ImageReading> {
  /** The images the list shows now (it changes while reading: the page changes, the filters change). */
  targets(): readonly ReadTarget[]
  /** Already read, or being read by an earlier loop. */
  isDone(url: string): boolean
  /** Each image's distance from the page's view; unknown images come after every known one. */
  distances(unread: readonly ReadTarget[]): Promise<ReadonlyMap<string, number>>
  read(target: ReadTarget): Promise<Reading>
  onStart(url: string): void
  onRead(url: string, outcome: ReadOutcome<Reading>): void
  /** Resolves once the panel is shown (at once when it is), or when `signal` aborts. */
  whenShown(signal: AbortSignal): Promise<void>
  /** Resolves once the user has left the page alone for a moment (no scrolling, no input), or when `signal` aborts. */
  pageQuiet(signal: AbortSignal): Promise<void>
  /** Resolves in the panel's next idle period, or when `signal` aborts. */
  idle(signal: AbortSignal): Promise<void>
  /** The distances are asked again after this long (the user scrolls the page meanwhile). */
  orderRefreshMs: number
  now?: () => number
}

function nearest(unread: readonly ReadTarget[], distances: ReadonlyMap<string, number>): ReadTarget {
  let best = unread[0]!
  let bestDistance = distances.get(best.url) ?? Infinity
  for (const target of unread) {
    const distance = distances.get(target.url) ?? Infinity
    if (distance < bestDistance) {
      best = target
      bestDistance = distance
    }
  }
  return best
}

/** Reads until every target is done or `signal` aborts (the image being read when it aborts is still recorded). */
export async function readLoop<Reading = ImageReading>(parts: ReadLoopParts<Reading>, signal: AbortSignal): Promise<void> {
  const now = parts.now ?? Date.now
  let distances: ReadonlyMap<string, number> | null = null
  let askedAt = 0
  for (;;) {
    await parts.whenShown(signal)
    await parts.pageQuiet(signal)
    await parts.idle(signal)
    if (signal.aborted) return
    const unread = parts.targets().filter((target) => !parts.isDone(target.url))
    if (!unread.length) return
    if (!distances || now() - askedAt >= parts.orderRefreshMs || unread.some((target) => !distances!.has(target.url))) {
      distances = await parts.distances(unread).catch(() => new Map<string, number>())
      askedAt = now()
      if (signal.aborted) return
    }
    // Another loop may have taken some while the page was asked.
    const still = unread.filter((target) => !parts.isDone(target.url))
    if (!still.length) continue
    const next = nearest(still, distances)
    parts.onStart(next.url)
    const outcome = await parts.read(next).then(
      (reading): ReadOutcome<Reading> => ({ status: "read", reading }),
      (error: unknown): ReadOutcome<Reading> => ({ status: "failed", message: error instanceof Error && error.message ? error.message : "The image could not be read." })
    )
    parts.onRead(next.url, outcome)
  }
}

/** Waits for the document to be visible: the panel is not read from while the user has it closed or hidden. */
export function whenDocumentShown(signal: AbortSignal, page: Document = document): Promise<void> {
  if (page.visibilityState === "visible" || signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      if (page.visibilityState !== "visible" && !signal.aborted) return
      page.removeEventListener("visibilitychange", done)
      signal.removeEventListener("abort", done)
      resolve()
    }
    page.addEventListener("visibilitychange", done)
    signal.addEventListener("abort", done)
  })
}

/** The next idle period (at most `timeoutMs` away, so a busy panel still reads). */
export function idlePeriod(signal: AbortSignal, timeoutMs = 1000): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const handle = requestIdleCallback(() => finish(), { timeout: timeoutMs })
    const finish = () => {
      cancelIdleCallback(handle)
      signal.removeEventListener("abort", finish)
      resolve()
    }
    signal.addEventListener("abort", finish)
  })
}

export interface QuietPageOptions {
  /** How long the page must have been left alone. */
  quietMs: number
  /** A page that never stops (an element scrolled by a script) still gets an image read this often. */
  longestWaitMs: number
  now?: () => number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** Waits `ms`, or less when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer)
      signal.removeEventListener("abort", finish)
      resolve()
    }
    const timer = setTimeout(finish, ms)
    signal.addEventListener("abort", finish)
  })
}

/**
 * Resolves once `quietFor` (the page's milliseconds since it was last scrolled or used) reaches `quietMs`, asking
 * again when it could have; at the latest after `longestWaitMs`. A page that cannot be asked counts as quiet.
 */
export async function whenPageQuiet(quietFor: () => Promise<number>, signal: AbortSignal, options: QuietPageOptions): Promise<void> {
  const { quietMs, longestWaitMs, now = Date.now, sleep = abortableSleep } = options
  const started = now()
  for (;;) {
    if (signal.aborted) return
    const quiet = await quietFor().catch(() => Infinity)
    const waited = now() - started
    if (quiet >= quietMs || waited >= longestWaitMs) return
    await sleep(Math.min(quietMs - quiet, longestWaitMs - waited), signal)
  }
}
