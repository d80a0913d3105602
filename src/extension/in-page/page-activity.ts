/**
 * When the user last scrolled or used this frame's page, for Find in images: the side panel's reading waits until
 * the page has been left alone for a moment, so that the CPU its engines take never competes with the page while
 * the user scrolls it (bench/find-in-images.ts measures the page's main thread). Part of the page index, which is
 * injected on demand; the listeners are passive, start with the first question, only note the time, and go when the
 * questions stop.
 */

/** What counts as using the page: scrolling (the page's or any element's: capture sees both) and input. */
const ACTIVITY_EVENTS = ["scroll", "wheel", "touchstart", "pointerdown", "keydown"] as const
/** The answer for a page not used since it was first asked: quiet for as long as anyone waits. */
export const QUIET_SINCE_EVER_MS = 1e9

/**
 * With no question for this long, the listeners go: every scroll and key press of the page would otherwise call into
 * the extension for nothing, long after the reading ended (bench/page-translation.ts measures the page while it
 * scrolls). The next question starts them again; the scroll position, compared at each question, covers the gap.
 */
export const WATCH_IDLE_MS = 10_000

let lastActivity: number | null = null
let watching: Pick<Window, "addEventListener" | "removeEventListener"> | null = null
let idleTimer: ReturnType<typeof setTimeout> | undefined

const note = () => (lastActivity = performance.now())

function unwatch() {
  for (const type of ACTIVITY_EVENTS) watching?.removeEventListener(type, note, { capture: true })
  watching = null
}

/** Notes the page's activity (once per frame) until WATCH_IDLE_MS pass without a question. */
export function watchPageActivity(target: Pick<Window, "addEventListener" | "removeEventListener"> = window): void {
  clearTimeout(idleTimer)
  idleTimer = setTimeout(unwatch, WATCH_IDLE_MS)
  if (watching) return
  watching = target
  for (const type of ACTIVITY_EVENTS) target.addEventListener(type, note, { capture: true, passive: true })
}

/** Where the page was scrolled to when last asked. */
let lastPosition: { x: number; y: number } | null = null

/**
 * Milliseconds since the user last scrolled or used the page (QUIET_SINCE_EVER_MS when not since it was watched).
 * A page that moved since the last question counts as used now: scroll events come only with the page's frames,
 * which a browser busy elsewhere may hold back while the page is scrolled all the same.
 */
export function pageQuietMs(view: Pick<Window, "scrollX" | "scrollY"> = window): number {
  watchPageActivity()
  const position = { x: view.scrollX, y: view.scrollY }
  if (lastPosition && (lastPosition.x !== position.x || lastPosition.y !== position.y)) lastActivity = performance.now()
  lastPosition = position
  return lastActivity === null ? QUIET_SINCE_EVER_MS : Math.round(performance.now() - lastActivity)
}
