/**
 * When the user last scrolled or used this frame's page, for Find in images: the side panel's reading waits until
 * the page has been left alone for a moment, so that the CPU its engines take never competes with the page while
 * the user scrolls it (bench/find-in-images.ts measures the page's main thread). Part of the page index, which is
 * injected on demand; the listeners are passive, start with the first question and only note the time.
 */

/** What counts as using the page: scrolling (the page's or any element's: capture sees both) and input. */
const ACTIVITY_EVENTS = ["scroll", "wheel", "touchstart", "pointerdown", "keydown"] as const
/** The answer for a page not used since it was first asked: quiet for as long as anyone waits. */
export const QUIET_SINCE_EVER_MS = 1e9

let lastActivity: number | null = null
let watching = false

/** Starts noting the page's activity (once per frame). */
export function watchPageActivity(target: Pick<Window, "addEventListener"> = window): void {
  if (watching) return
  watching = true
  const note = () => (lastActivity = performance.now())
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
