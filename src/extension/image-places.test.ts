import { afterEach, describe, expect, it, vi } from "vitest"

import { OWN_NODE_ATTRIBUTE } from "./own-nodes"
import { OUTLINE_MARK, OUTLINE_MS, showImage, viewportOrder } from "./image-places"

/** An element laid out at `top`…`top + height` (happy-dom lays nothing out). */
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

  it("orders images by their distance from the view: in view first (top to bottom), then nearest, hidden last", () => {
    const elements = new Map([
      ["far-below", placed(3000)],
      ["hidden", placed(0, 0, 0, 0)],
      ["in-view-lower", placed(500)],
      ["just-above", placed(-150)],
      ["in-view-top", placed(-50)],
      ["aside", placed(100, 100, 1500)]
    ])
    expect(viewportOrder(elements, 800, 1200)).toEqual([
      { url: "in-view-top", distance: 0 },
      { url: "in-view-lower", distance: 0 },
      { url: "just-above", distance: 50 },
      { url: "aside", distance: 300 },
      { url: "far-below", distance: 2200 },
      { url: "hidden", distance: Number.MAX_SAFE_INTEGER }
    ])
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
