import { afterEach, describe, expect, it } from "vitest"

import { AREA_OVERLAY_HINT as HINT } from "./area-capture"
import { cancelAreaOnPage, selectAreaOnPage, selectWholeViewOnPage } from "./area-overlay"

/** The overlay's host: its contents are in a closed shadow root, events reach the host. */
const host = () => document.documentElement.lastElementChild as HTMLElement

/**
 * An event as the user's own input makes it. The test DOM cannot make trusted events, so the flag is set on the
 * event; a real browser refuses exactly this (isTrusted is unforgeable there), which is what keeps pages out.
 */
function trusted<T extends Event>(event: T): T {
  Object.defineProperty(event, "isTrusted", { value: true })
  return event
}

function pointer(type: string, clientX: number, clientY: number, { byUser = true } = {}) {
  const event = new PointerEvent(type, { clientX, clientY, button: 0, pointerId: 1, bubbles: true, cancelable: true })
  host().dispatchEvent(byUser ? trusted(event) : event)
}

function key(name: string, { byUser = true } = {}) {
  const event = new KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true })
  window.dispatchEvent(byUser ? trusted(event) : event)
}

function drag(from: [number, number], to: [number, number], options = { byUser: true }) {
  pointer("pointerdown", ...from, options)
  pointer("pointermove", (from[0] + to[0]) / 2, (from[1] + to[1]) / 2, options)
  pointer("pointermove", ...to, options)
  pointer("pointerup", ...to, options)
}

afterEach(() => {
  cancelAreaOnPage()
})

describe("the area overlay", () => {
  it("covers the page above everything, in a closed shadow root", () => {
    void selectAreaOnPage(HINT, 8)
    expect(host().style.zIndex).toBe("2147483647")
    expect(host().style.position).toBe("fixed")
    expect(host().shadowRoot).toBeNull()
  })

  it("answers the area dragged, the same when dragged up and left", async () => {
    const down = selectAreaOnPage(HINT, 8)
    drag([100, 50], [420, 230])
    expect((await down)?.area).toEqual({ x: 100, y: 50, width: 320, height: 180 })

    const up = selectAreaOnPage(HINT, 8)
    drag([420, 230], [100, 50])
    const selected = await up
    expect(selected?.area).toEqual({ x: 100, y: 50, width: 320, height: 180 })
    expect(selected?.viewport).toEqual({ width: window.innerWidth, height: window.innerHeight })
    expect(selected?.devicePixelRatio).toBe(window.devicePixelRatio)
  })

  it("is gone from the page once it has answered", async () => {
    const before = document.documentElement.childElementCount
    const selection = selectAreaOnPage(HINT, 8)
    expect(document.documentElement.childElementCount).toBe(before + 1)
    drag([10, 10], [200, 200])
    await selection
    expect(document.documentElement.childElementCount).toBe(before)
  })

  it("refuses a tiny drag and waits for another; Escape answers null", async () => {
    let answered: unknown = "pending"
    const selection = selectAreaOnPage(HINT, 8).then((value) => (answered = value))
    drag([100, 100], [105, 300])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(answered).toBe("pending")
    key("Escape")
    await selection
    expect(answered).toBeNull()
  })

  it("takes the whole visible page from the keyboard: Enter on the page, or the side panel's button", async () => {
    const whole = { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight }
    const byEnter = selectAreaOnPage(HINT, 8)
    key("Enter")
    expect((await byEnter)?.area).toEqual(whole)

    const fromPanel = selectAreaOnPage(HINT, 8)
    expect(selectWholeViewOnPage()).toBe(true)
    expect((await fromPanel)?.area).toEqual(whole)
    expect(selectWholeViewOnPage()).toBe(false)
  })

  it("ignores what the page's scripts dispatch: no selection made, finished, taken whole or cancelled", async () => {
    let answered: unknown = "pending"
    const selection = selectAreaOnPage(HINT, 8).then((value) => (answered = value))
    drag([100, 50], [420, 230], { byUser: false })
    key("Enter", { byUser: false })
    key("Escape", { byUser: false })
    document.dispatchEvent(new Event("visibilitychange"))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(answered).toBe("pending")
    // A page that starts a drag cannot have the user's own release finish it either.
    pointer("pointerdown", 10, 10, { byUser: false })
    pointer("pointerup", 300, 300)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(answered).toBe("pending")
    drag([100, 50], [420, 230])
    await selection
    expect(answered).toMatchObject({ area: { x: 100, y: 50, width: 320, height: 180 } })
  })

  it("keeps the drag inside the viewport", async () => {
    const selection = selectAreaOnPage(HINT, 8)
    drag([50, 40], [window.innerWidth + 300, -20])
    expect((await selection)?.area).toEqual({ x: 50, y: 0, width: window.innerWidth - 50, height: 40 })
  })

  it("is cancelled from the extension, and by a new overlay", async () => {
    const first = selectAreaOnPage(HINT, 8)
    const second = selectAreaOnPage(HINT, 8)
    expect(await first).toBeNull()
    expect(cancelAreaOnPage()).toBe(true)
    expect(await second).toBeNull()
    expect(cancelAreaOnPage()).toBe(false)
  })
})
