import { afterEach, describe, expect, it } from "vitest"

import { HIDE_SMALL_BELOW_PX } from "~core/images/image-size"

import { HOST_TAG } from "./button-host"
import {
  BUTTON_INSET_PX,
  COMPACT_BUTTON_SIZE,
  COMPANION_GAP_PX,
  imageAddressOf,
  isLargeEnoughForButton,
  MIN_RENDERED_SIZE,
  NOTE_GAP_PX,
  placeButton,
  placeCompanion,
  placeNote
} from "./button-placement"
import { ImageButton } from "./image-button"
import { createImageWatcher } from "./image-watcher"
import { type Scheduler } from "./page-timing"
import { OWN_NODE_ATTRIBUTE } from "./own-nodes"

/** Runs the watcher's work right after the current task, so a test sees it without waiting for idle time. */
const microtaskScheduler: Scheduler = (run) => {
  let cancelled = false
  queueMicrotask(() => {
    if (!cancelled) run()
  })
  return () => {
    cancelled = true
  }
}

const viewport = { width: 1000, height: 800 }
const FULL_WIDTH = 130
const box = (left: number, top: number, width: number, height: number) => ({ left, top, right: left + width, bottom: top + height })

describe("where the button goes", () => {
  it("sits in the image's top-right corner, inset", () => {
    expect(placeButton(box(100, 50, 400, 300), viewport, FULL_WIDTH)).toEqual({
      x: 100 + 400 - BUTTON_INSET_PX - FULL_WIDTH,
      y: 50 + BUTTON_INSET_PX,
      compact: false
    })
  })

  it("stays on the visible part of an image partly scrolled out of the viewport", () => {
    // Scrolled up by 120 px and running past the right edge.
    expect(placeButton(box(700, -120, 500, 400), viewport, FULL_WIDTH)).toEqual({
      x: 1000 - BUTTON_INSET_PX - FULL_WIDTH,
      y: BUTTON_INSET_PX,
      compact: false
    })
  })

  it("drops the label when the image is too narrow for it, and the button when not even the icon fits", () => {
    const justIcon = COMPACT_BUTTON_SIZE.width + 2 * BUTTON_INSET_PX
    expect(placeButton(box(0, 0, FULL_WIDTH + 2 * BUTTON_INSET_PX, 100), viewport, FULL_WIDTH)?.compact).toBe(false)
    expect(placeButton(box(0, 0, FULL_WIDTH + 2 * BUTTON_INSET_PX - 1, 100), viewport, FULL_WIDTH)).toEqual({
      x: FULL_WIDTH + 2 * BUTTON_INSET_PX - 1 - BUTTON_INSET_PX - COMPACT_BUTTON_SIZE.width,
      y: BUTTON_INSET_PX,
      compact: true
    })
    expect(placeButton(box(0, 0, justIcon, justIcon), viewport, FULL_WIDTH)?.compact).toBe(true)
    expect(placeButton(box(0, 0, justIcon - 1, 300), viewport, FULL_WIDTH)).toBeNull()
    expect(placeButton(box(0, 0, 300, justIcon - 1), viewport, FULL_WIDTH)).toBeNull()
  })

  it("puts Translate image just left of the button when the image's visible part has room for it", () => {
    const image = box(100, 50, 400, 300)
    const button = placeButton(image, viewport, FULL_WIDTH)!
    expect(placeCompanion(image, button)).toBe(button.x - COMPANION_GAP_PX - COMPACT_BUTTON_SIZE.width)
    // Exactly room for the inset, the icon, the gap and the labelled button; one pixel less and only the button shows.
    const tight = FULL_WIDTH + COMPACT_BUTTON_SIZE.width + COMPANION_GAP_PX + 2 * BUTTON_INSET_PX
    expect(placeCompanion(box(0, 0, tight, 100), placeButton(box(0, 0, tight, 100), viewport, FULL_WIDTH)!)).toBe(BUTTON_INSET_PX)
    const narrower = box(0, 0, tight - 1, 100)
    expect(placeCompanion(narrower, placeButton(narrower, viewport, FULL_WIDTH)!)).toBeNull()
    // Scrolled half out of view on the left: it stays on the visible part.
    const cut = box(-300, 0, 500, 300)
    expect(placeCompanion(cut, placeButton(cut, viewport, FULL_WIDTH)!)).toBe(200 - BUTTON_INSET_PX - FULL_WIDTH - COMPANION_GAP_PX - COMPACT_BUTTON_SIZE.width)
  })

  it("offers nothing for an image out of view", () => {
    expect(placeButton(box(0, -500, 400, 400), viewport, FULL_WIDTH)).toBeNull()
    expect(placeButton(box(0, 900, 400, 400), viewport, FULL_WIDTH)).toBeNull()
    expect(placeButton(box(1100, 0, 400, 400), viewport, FULL_WIDTH)).toBeNull()
  })
})

describe("where a refused click's note goes", () => {
  const note = { width: 280, height: 60 }

  it("under the button, its right edge in line with the button's", () => {
    expect(placeNote(box(600, 50, 130, 32), note, viewport)).toEqual({ x: 730 - 280, y: 82 + NOTE_GAP_PX })
  })

  it("inside the viewport on both sides, and above the button when there is no room under it", () => {
    expect(placeNote(box(20, 50, 32, 32), note, viewport).x).toBe(NOTE_GAP_PX)
    expect(placeNote(box(900, 50, 130, 32), note, viewport).x).toBe(1000 - NOTE_GAP_PX - 280)
    expect(placeNote(box(600, 740, 130, 32), note, viewport).y).toBe(740 - NOTE_GAP_PX - 60)
  })
})

describe("which picture an image shows", () => {
  it("changes with its src or srcset, which a page may swap as the button is pressed", () => {
    const image = document.createElement("img")
    image.src = "https://example.com/photo.png"
    const pointed = imageAddressOf(image)
    expect(imageAddressOf(image)).toBe(pointed)
    image.src = "http://intranet.test/secret.png"
    expect(imageAddressOf(image)).not.toBe(pointed)
    image.src = "https://example.com/photo.png"
    image.srcset = "http://intranet.test/secret.png 2x"
    expect(imageAddressOf(image)).not.toBe(pointed)
  })
})

describe("which images get the button", () => {
  const big = { width: 1200, height: 800 }

  it("follows the core rule for small images on the intrinsic size", () => {
    expect(isLargeEnoughForButton({ width: HIDE_SMALL_BELOW_PX, height: HIDE_SMALL_BELOW_PX }, big)).toBe(true)
    expect(isLargeEnoughForButton({ width: HIDE_SMALL_BELOW_PX - 1, height: 2000 }, big)).toBe(false)
    expect(isLargeEnoughForButton({ width: 2000, height: HIDE_SMALL_BELOW_PX - 1 }, big)).toBe(false)
  })

  it("waits for the image to load", () => {
    expect(isLargeEnoughForButton({ width: 0, height: 0 }, big)).toBe(false)
  })

  it("needs room for the button on the page", () => {
    expect(isLargeEnoughForButton(big, MIN_RENDERED_SIZE)).toBe(true)
    expect(isLargeEnoughForButton(big, { width: MIN_RENDERED_SIZE.width - 1, height: 600 })).toBe(false)
    expect(isLargeEnoughForButton(big, { width: 600, height: MIN_RENDERED_SIZE.height - 1 })).toBe(false)
  })
})

/** happy-dom neither loads images nor lays out: the sizes are given. */
function addImage(natural: number, rendered: number, src: string): HTMLImageElement {
  const image = document.createElement("img")
  image.src = src
  Object.defineProperty(image, "naturalWidth", { value: natural })
  Object.defineProperty(image, "naturalHeight", { value: natural })
  image.getBoundingClientRect = () => ({ ...box(10, 10, rendered, rendered), x: 10, y: 10, width: rendered, height: rendered, toJSON: () => ({}) }) as DOMRect
  document.body.append(image)
  return image
}

const hover = (element: Element, init: PointerEventInit = {}) => element.dispatchEvent(new PointerEvent("pointerover", { bubbles: true, composed: true, pointerType: "mouse", ...init }))

describe("the button's host", () => {
  let button: ImageButton | undefined
  afterEach(() => {
    button?.stop()
    document.body.replaceChildren()
  })

  it("is created on the first hover of a large image, once, in a closed shadow root the image watcher ignores", async () => {
    button = new ImageButton({ onActivate: () => {} }).start()
    const watcher = createImageWatcher({ schedule: microtaskScheduler, probeBackgrounds: false }).start()
    const small = addImage(200, 200, "https://example.com/small.png")
    hover(small)
    expect(document.querySelector(HOST_TAG)).toBeNull()

    hover(addImage(800, 400, "https://example.com/one.png"))
    hover(addImage(900, 300, "https://example.com/two.png"))
    const hosts = document.querySelectorAll(HOST_TAG)
    expect(hosts).toHaveLength(1)
    expect(hosts[0]!.parentElement).toBe(document.documentElement)
    expect(hosts[0]!.hasAttribute(OWN_NODE_ATTRIBUTE)).toBe(true)
    expect(hosts[0]!.shadowRoot).toBeNull()
    // Let the watcher's MutationObserver see the host's insertion.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(watcher.images().map(({ url }) => url).sort()).toEqual([
      "https://example.com/one.png",
      "https://example.com/small.png",
      "https://example.com/two.png"
    ])
    watcher.stop()
  })

  it("does not come up over an image the pointer reaches with the mouse button held down", () => {
    button = new ImageButton({ onActivate: () => {} }).start()
    const image = addImage(800, 400, "https://example.com/one.png")
    hover(image, { buttons: 1 })
    expect(document.querySelector(HOST_TAG)).toBeNull()
    hover(image)
    expect(document.querySelector(HOST_TAG)).not.toBeNull()
  })

  it("moves back to the end of the document when it appears after the page put something behind it", () => {
    button = new ImageButton({ onActivate: () => {} }).start()
    hover(addImage(800, 400, "https://example.com/one.png"))
    const host = document.querySelector(HOST_TAG)!
    const overlay = document.createElement("div")
    document.documentElement.append(overlay)
    expect(document.documentElement.lastElementChild).toBe(overlay)
    hover(addImage(900, 300, "https://example.com/two.png"))
    expect(document.documentElement.lastElementChild).toBe(host)
    overlay.remove()
  })

  it("is removed when the content script stops", () => {
    button = new ImageButton({ onActivate: () => {} }).start()
    hover(addImage(800, 400, "https://example.com/one.png"))
    expect(document.querySelector(HOST_TAG)).not.toBeNull()
    button.stop()
    expect(document.querySelector(HOST_TAG)).toBeNull()
  })
})
