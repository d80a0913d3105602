import { afterEach, describe, expect, it, vi } from "vitest"

import { OWN_NODE_ATTRIBUTE } from "./own-nodes"
import { OUTLINE_MARK, OUTLINE_MS, showImage, viewportDistances } from "./image-places"

/** The window's size and scroll (happy-dom lays nothing out and does not scroll). */
function view({ width, height, scrollY }: { width: number; height: number; scrollY: number }) {
  for (const [name, value] of Object.entries({ innerWidth: width, innerHeight: height, scrollY, scrollX: 0 })) {
    Object.defineProperty(window, name, { value, configurable: true })
  }
}

/** An element laid out at `top`…`top + height` of the view (happy-dom lays nothing out). */
function placed(top: number, height = 100, left = 0, width = 100): Element {
  const element = document.createElement("img")
  element.getBoundingClientRect = () => ({ top, bottom: top + height, left, right: left + width, width, height, x: left, y: top, toJSON: () => ({}) })
  return element
}

describe("where the page's images are", () => {
  afterEach(() => {
    vi.useRealTimers()
    document.body.replaceChildren()
  })

  it("tells each image's distance from the view: 0 in view, else how far to scroll, hidden ones farthest", () => {
    view({ width: 1200, height: 800, scrollY: 0 })
    const elements = new Map([
      ["far-below", placed(3000)],
      ["hidden", placed(0, 0, 0, 0)],
      ["in-view", placed(500)],
      ["aside", placed(100, 100, 1500)]
    ])
    expect(viewportDistances(elements)).toEqual([
      { url: "far-below", distance: 2200 },
      { url: "hidden", distance: Number.MAX_SAFE_INTEGER },
      { url: "in-view", distance: 0 },
      { url: "aside", distance: 300 }
    ])
  })

  it("measures the images once while the page keeps its size: scrolling only moves the view over them", () => {
    view({ width: 1200, height: 800, scrollY: 0 })
    const below = placed(2000)
    let reads = 0
    const measureBelow = below.getBoundingClientRect.bind(below)
    below.getBoundingClientRect = () => (reads++, measureBelow())
    const elements = new Map([["below", below]])
    expect(viewportDistances(elements)).toEqual([{ url: "below", distance: 1200 }])
    view({ width: 1200, height: 800, scrollY: 1500 })
    expect(viewportDistances(elements)).toEqual([{ url: "below", distance: 0 }])
    view({ width: 1200, height: 800, scrollY: 3000 })
    expect(viewportDistances(elements)).toEqual([{ url: "below", distance: 900 }])
    expect(reads).toBe(1)
    // Another window size: measured again.
    view({ width: 900, height: 800, scrollY: 3000 })
    viewportDistances(elements)
    expect(reads).toBe(2)
  })

  it("scrolls the image into the middle of the view and outlines it over its box for a moment", () => {
    vi.useFakeTimers()
    const image = placed(40, 200, 30, 300)
    const scrolled: ScrollIntoViewOptions[] = []
    image.scrollIntoView = (options) => void scrolled.push(options as ScrollIntoViewOptions)
    document.body.append(image)
    showImage(image)
    expect(scrolled).toEqual([expect.objectContaining({ block: "center" })])
    const outline = document.querySelector<HTMLElement>(`[${OWN_NODE_ATTRIBUTE}="${OUTLINE_MARK}"]`)!
    expect([outline.style.left, outline.style.top, outline.style.width, outline.style.height]).toEqual(["24px", "34px", "312px", "212px"])
    // A second Show replaces the outline rather than adding one.
    showImage(image)
    expect(document.querySelectorAll(`[${OWN_NODE_ATTRIBUTE}]`)).toHaveLength(1)
    vi.advanceTimersByTime(OUTLINE_MS)
    expect(document.querySelector(`[${OWN_NODE_ATTRIBUTE}]`)).toBeNull()
  })
})
