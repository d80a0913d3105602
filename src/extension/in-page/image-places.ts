/**
 * Where the page's images are, for Find in images in the side panel: which ones the user sees (read first), and
 * *Show on page* (scroll to an image, outline it for a moment). Part of the page index (page-index.entry.ts), so it
 * stays small and dependency-free.
 */
import { OWN_NODE_ATTRIBUTE } from "./own-nodes"

/** How long *Show on page* outlines the image. */
export const OUTLINE_MS = 2500
/** The outline's value of OWN_NODE_ATTRIBUTE: tests and the page can find it. */
export const OUTLINE_MARK = "outline"
/** The distance of an image with no box (hidden): after every image that has one. */
const NOT_SHOWN = Number.MAX_SAFE_INTEGER

interface PageBox {
  element: Element
  /** In page coordinates (the viewport's box plus the scroll), or null when the image takes no room. */
  box: { top: number; bottom: number; left: number; right: number } | null
}

/**
 * Where each image was last measured, and the page's size and view then: reading 5,000 boxes costs some 30 ms of the
 * page's main thread, so they are measured once and again only when the page's size or view changes (content
 * reflowed, window resized) or an image is new. In between, scrolling only moves the view over them.
 */
let measured: { layout: string; boxes: Map<string, PageBox> } | null = null

function measure(element: Element): PageBox {
  const box = element.getBoundingClientRect()
  if (box.width === 0 && box.height === 0) return { element, box: null }
  return { element, box: { top: box.top + scrollY, bottom: box.bottom + scrollY, left: box.left + scrollX, right: box.right + scrollX } }
}

/**
 * Each image's distance from the view in CSS pixels: 0 when any of it is in view, else how far the page must scroll
 * to reach it; NOT_SHOWN for an image that takes no room. Reads no layout unless the page changed since last time.
 */
export function viewportDistances(elements: ReadonlyMap<string, Element>): { url: string; distance: number }[] {
  const root = document.documentElement
  const layout = `${root.scrollWidth}x${root.scrollHeight}@${innerWidth}x${innerHeight}`
  if (measured?.layout !== layout) measured = { layout, boxes: new Map() }
  const { boxes } = measured
  const view = { top: scrollY, bottom: scrollY + innerHeight, left: scrollX, right: scrollX + innerWidth }
  const distances: { url: string; distance: number }[] = []
  for (const [url, element] of elements) {
    let placed = boxes.get(url)
    if (placed?.element !== element) boxes.set(url, (placed = measure(element)))
    const { box } = placed
    const distance = box
      ? Math.max(0, box.top - view.bottom, view.top - box.bottom, box.left - view.right, view.left - box.right)
      : NOT_SHOWN
    distances.push({ url, distance: Math.round(distance) })
  }
  return distances
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
