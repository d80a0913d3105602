import { describe, expect, it, vi } from "vitest"

import { pageQuietMs, QUIET_SINCE_EVER_MS, WATCH_IDLE_MS } from "./page-activity"

describe("the page's activity, for Find in images", () => {
  it("is quiet until the user scrolls or uses the page, then counts from the last time they did", () => {
    vi.useFakeTimers({ toFake: ["performance"] })
    // The first question starts the watching.
    expect(pageQuietMs()).toBe(QUIET_SINCE_EVER_MS)

    // An element's scroll does not bubble: the listener on the window hears it in the capture phase.
    const scroller = document.body.appendChild(document.createElement("div"))
    scroller.dispatchEvent(new Event("scroll", { bubbles: false }))
    vi.advanceTimersByTime(400)
    expect(pageQuietMs()).toBe(400)
    document.body.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true }))
    vi.advanceTimersByTime(250)
    expect(pageQuietMs()).toBe(250)
    // Moving the pointer over the page is not using it.
    document.body.dispatchEvent(new MouseEvent("mousemove", { bubbles: true }))
    vi.advanceTimersByTime(250)
    expect(pageQuietMs()).toBe(500)

    // Scrolled with no scroll event heard (the browser held the page's frames back): used now.
    vi.advanceTimersByTime(250)
    expect(pageQuietMs({ scrollX: 0, scrollY: 0 })).toBe(750)
    expect(pageQuietMs({ scrollX: 0, scrollY: 600 })).toBe(0)
    vi.advanceTimersByTime(300)
    expect(pageQuietMs({ scrollX: 0, scrollY: 600 })).toBe(300)
    vi.useRealTimers()
  })

  it("stops listening once the questions stop, and listens again with the next one", () => {
    vi.useFakeTimers({ toFake: ["performance", "setTimeout", "clearTimeout"] })
    const removed = vi.spyOn(window, "removeEventListener")
    const view = { scrollX: 0, scrollY: 600 }
    pageQuietMs(view)
    vi.advanceTimersByTime(WATCH_IDLE_MS - 1)
    expect(removed).not.toHaveBeenCalled()
    pageQuietMs(view)
    vi.advanceTimersByTime(WATCH_IDLE_MS)
    expect(removed.mock.calls.map(([type]) => type).sort()).toEqual(["keydown", "pointerdown", "scroll", "touchstart", "wheel"])
    // Not heard while nobody asks; the next question counts from the last activity it knew of.
    document.body.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true }))
    const quiet = pageQuietMs(view)
    expect(quiet).toBeGreaterThan(WATCH_IDLE_MS)
    // Heard again from that question on.
    vi.advanceTimersByTime(200)
    document.body.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true }))
    vi.advanceTimersByTime(100)
    expect(pageQuietMs(view)).toBe(100)
    vi.useRealTimers()
    removed.mockRestore()
  })
})
