/**
 * Where the page's images are, for Find in images in the side panel: which ones the user sees (read first), and
 * *Show on page* (scroll to an image, outline it for a moment). Part of the page index (page-index.ts), so it stays
 * small and dependency-free.
 */
import { OWN_NODE_ATTRIBUTE } from "./own-nodes"

/** How long *Show on page* outlines the image. */
export const OUTLINE_MS = 2500
/** The outline's value of OWN_NODE_ATTRIBUTE: tests and the page can find it. */
export const OUTLINE_MARK = "outline"
/** Images with no box (hidden) come after every image that has one. */
const NOT_SHOWN = Number.MAX_SAFE_INTEGER

/**
 * Each image's distance from the viewport in CSS pixels (0 when any of it is in view), nearest first, ties in page
 * order from the top. One pass of reads, no writes: layout is computed at most once.
 */
export function viewportOrder(elements: ReadonlyMap<string, Element>, viewHeight = innerHeight, viewWidth = innerWidth): { url: string; distance: number }[] {
  const placed: { url: string; distance: number; top: number }[] = []
  for (const [url, element] of elements) {
    const box = element.getBoundingClientRect()
    if (box.width === 0 && box.height === 0) {
      placed.push({ url, distance: NOT_SHOWN, top: 0 })
      continue
    }
    const below = Math.max(0, box.top - viewHeight)
    const above = Math.max(0, -box.bottom)
    const aside = Math.max(0, box.left - viewWidth, -box.right)
    placed.push({ url, distance: Math.round(Math.max(below, above, aside)), top: box.top })
  }
  placed.sort((a, b) => a.distance - b.distance || a.top - b.top)
  return placed.map(({ url, distance }) => ({ url, distance }))
}

let outline: { element: HTMLElement; frame: number; timer: ReturnType<typeof setTimeout> } | null = null

function removeOutline() {
  if (!outline) return
  cancelAnimationFrame(outline.frame)
  clearTimeout(outline.timer)
  outline.element.remove()
  outline = null
}

/**
 * Scrolls the page (smoothly unless the user asks for reduced motion) so the image is in the middle of the view,
 * and draws an outline around it for OUTLINE_MS. The outline is our own element over the image (the page's own
 * styles are left alone) and follows it every frame while the page scrolls.
 */
export function showImage(target: Element): void {
  removeOutline()
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches
  target.scrollIntoView({ block: "center", inline: "nearest", behavior: reduced ? "instant" : "smooth" })
  const element = document.createElement("div")
  element.setAttribute(OWN_NODE_ATTRIBUTE, OUTLINE_MARK)
  element.setAttribute("aria-hidden", "true")
  element.style.cssText =
    "position:fixed;z-index:2147483647;pointer-events:none;box-sizing:border-box;border:4px solid #2563eb;border-radius:6px;box-shadow:0 0 0 3px #fff,0 0 16px 4px rgba(37,99,235,.6);margin:0;padding:0"
  const place = () => {
    const box = target.getBoundingClientRect()
    element.style.left = `${box.left - 6}px`
    element.style.top = `${box.top - 6}px`
    element.style.width = `${box.width + 12}px`
    element.style.height = `${box.height + 12}px`
    if (outline) outline.frame = requestAnimationFrame(place)
  }
  document.documentElement.append(element)
  outline = { element, frame: 0, timer: setTimeout(removeOutline, OUTLINE_MS) }
  place()
}
