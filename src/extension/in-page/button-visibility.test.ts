import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { canCheckVisibility, cornersOf, CORNER_INSET_PX, LOOK_INTERVAL_MS, pageCovers, paintsAsIs, tracksVisibility, VisibilityWatch, type OwnElements } from "./button-visibility"

const HOST_STYLE = "position: fixed !important;"
/** What getComputedStyle answers for a page that leaves our button alone (happy-dom computes no styles). */
const PLAIN_STYLE = { opacity: "1", filter: "none", transform: "none", clipPath: "none", maskImage: "none", mixBlendMode: "normal", content: "none", position: "static", zIndex: "auto", display: "block" }

/** Our host with a bar and a button in its shadow root, and a stand-in for the hit testing happy-dom lacks. */
function ownElements() {
  const host = document.createElement("image-query-ai-button")
  host.setAttribute("style", HOST_STYLE)
  document.documentElement.append(host)
  const shadow = host.attachShadow({ mode: "open" })
  const bar = document.createElement("div")
  const button = document.createElement("button")
  bar.append(button)
  shadow.append(bar)
  button.getBoundingClientRect = () => new DOMRect(100, 10, 130, 32)
  const hits = { first: button as Element }
  Object.assign(shadow, { elementsFromPoint: () => [hits.first] })
  const own: OwnElements = { host, shadow, hostStyle: HOST_STYLE }
  return { own, host, bar, button, hits }
}

/** An IntersectionObserver whose reports the test gives. */
class ReportingObserver {
  static last: ReportingObserver | null = null
  observed: Element[] = []
  constructor(readonly report: (entries: { isIntersecting: boolean; isVisible: boolean }[]) => void) {
    ReportingObserver.last = this
  }
  observe(element: Element) {
    this.observed.push(element)
  }
  unobserve(element: Element) {
    this.observed = this.observed.filter((observed) => observed !== element)
  }
  takeRecords() {
    return []
  }
  disconnect() {}
}

/** Chrome's entries have isVisible (IntersectionObserver v2); Firefox's do not. */
class VisibilityEntry {
  get isVisible() {
    return false
  }
}

describe("the checks' pieces", () => {
  it("looks inside the button's rounded corners", () => {
    expect(cornersOf({ left: 100, top: 10, right: 230, bottom: 42 })).toEqual([
      { x: 100 + CORNER_INSET_PX, y: 10 + CORNER_INSET_PX },
      { x: 230 - CORNER_INSET_PX, y: 10 + CORNER_INSET_PX },
      { x: 100 + CORNER_INSET_PX, y: 42 - CORNER_INSET_PX },
      { x: 230 - CORNER_INSET_PX, y: 42 - CORNER_INSET_PX }
    ])
    // Inside the quarter circle of radius 16 at each corner.
    expect(Math.hypot(16 - CORNER_INSET_PX, 16 - CORNER_INSET_PX)).toBeLessThan(16)
  })

  it("takes any fading, filter, transform, clip, mask or blending of <html> as hiding", () => {
    expect(paintsAsIs(PLAIN_STYLE)).toBe(true)
    for (const [property, value] of [
      ["opacity", "0.01"],
      ["filter", "opacity(0)"],
      ["transform", "matrix(1, 0, 0, 1, 0, 0)"],
      ["clipPath", "inset(10px)"],
      ["maskImage", "linear-gradient(black, transparent)"],
      ["mixBlendMode", "multiply"]
    ]) {
      expect(paintsAsIs({ ...PLAIN_STYLE, [property!]: value }), property).toBe(false)
    }
  })

  it("knows which browsers track visibility, and offers the button in frames only where they do", () => {
    const top = { IntersectionObserverEntry: class {} } as unknown as Window & { top: Window }
    top.top = top
    expect(tracksVisibility(top)).toBe(false)
    expect(canCheckVisibility(top)).toBe(true)
    const frame = { top, IntersectionObserverEntry: class {} } as unknown as Window
    expect(canCheckVisibility(frame)).toBe(false)
    const chromeFrame = { top, IntersectionObserverEntry: VisibilityEntry } as unknown as Window
    expect(tracksVisibility(chromeFrame)).toBe(true)
    expect(canCheckVisibility(chromeFrame)).toBe(true)
  })
})

describe("what the page may do to the button", () => {
  let elements: ReturnType<typeof ownElements>
  const plainStyleOf = (element: Element, _pseudo?: string | null) => ({ ...PLAIN_STYLE, display: element.localName === "script" ? "none" : "block" })
  const styleOf = vi.fn(plainStyleOf)

  beforeEach(() => {
    elements = ownElements()
    styleOf.mockImplementation(plainStyleOf)
    vi.spyOn(window, "getComputedStyle").mockImplementation(styleOf as unknown as typeof window.getComputedStyle)
  })
  afterEach(() => {
    elements.host.remove()
    document.documentElement.querySelectorAll(":scope > .after").forEach((element) => element.remove())
  })

  const covers = () => pageCovers(elements.own, [{ button: elements.button, points: cornersOf(elements.button.getBoundingClientRect()) }])

  it("nothing: the button is hit first everywhere, last in <html>, styled as we wrote it", () => {
    expect(covers()).toBe(false)
  })

  it("takes hits over it (elementsFromPoint finds a page element first)", () => {
    elements.hits.first = document.body
    expect(covers()).toBe(true)
  })

  it("puts something rendered after our host (a script is not rendered)", () => {
    const script = document.createElement("script")
    script.className = "after"
    document.documentElement.append(script)
    expect(covers()).toBe(false)
    const overlay = document.createElement("div")
    overlay.className = "after"
    document.documentElement.append(overlay)
    expect(covers()).toBe(true)
  })

  it("rewrites our host's style, or moves it into the page's markup", () => {
    elements.host.style.opacity = "0.01"
    expect(covers()).toBe(true)
    elements.host.setAttribute("style", HOST_STYLE)
    document.body.append(elements.host)
    expect(covers()).toBe(true)
  })

  it("draws <html>::after at our z-index", () => {
    styleOf.mockImplementation((element: Element, pseudo?: string | null) =>
      pseudo === "::after" ? { ...PLAIN_STYLE, content: '""', position: "fixed", zIndex: "2147483647" } : plainStyleOf(element)
    )
    expect(covers()).toBe(true)
  })

  it("opens a top-layer element inside a closed shadow root, found where the browser lets a content script open it", () => {
    const banner = document.createElement("prize-banner")
    const closed = banner.attachShadow({ mode: "closed" })
    // happy-dom has no popovers: the closed root answers the top-layer query as Chromium's would for an open popover.
    closed.querySelector = ((selector: string) => (selector.includes(":popover-open") ? document.createElement("div") : null)) as typeof closed.querySelector
    document.body.append(banner)
    expect(covers()).toBe(false)
    // Firefox's content scripts read closed roots through openOrClosedShadowRoot (Chrome's through chrome.dom).
    Object.defineProperty(banner, "openOrClosedShadowRoot", { value: closed })
    expect(covers()).toBe(true)
    banner.remove()
  })
})

describe("the watch while the button is shown", () => {
  let elements: ReturnType<typeof ownElements>
  let watch: VisibilityWatch

  beforeEach(() => {
    elements = ownElements()
    vi.spyOn(window, "getComputedStyle").mockImplementation((() => PLAIN_STYLE) as unknown as typeof window.getComputedStyle)
  })
  afterEach(() => {
    watch.unwatch()
    elements.host.remove()
    ReportingObserver.last = null
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  const startWatch = () => {
    watch = new VisibilityWatch(elements.own, { bar: elements.bar, buttons: [elements.button] })
    watch.watch()
  }
  const keyPress = () => watch.allows(elements.button, null)

  describe("with trackVisibility (Chrome)", () => {
    beforeEach(() => {
      vi.stubGlobal("IntersectionObserver", ReportingObserver)
      vi.stubGlobal("IntersectionObserverEntry", VisibilityEntry)
      startWatch()
    })

    it("watches the bar, and allows a click only once the button was reported visible", () => {
      expect(ReportingObserver.last!.observed).toEqual([elements.bar])
      expect(keyPress()).toBe(false)
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: true }])
      expect(keyPress()).toBe(true)
      // The click's point must be on the button.
      expect(watch.allows(elements.button, { x: 150, y: 20 })).toBe(true)
      elements.hits.first = document.body
      expect(watch.allows(elements.button, { x: 50, y: 20 })).toBe(false)
    })

    it("refuses for the rest of the showing once the button was reported covered, even when uncovered again", () => {
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: true }])
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: false }])
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: true }])
      expect(keyPress()).toBe(false)
      // Shown afresh (pointed at again): a new watch.
      watch.watch()
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: true }])
      expect(keyPress()).toBe(true)
    })

    it("does not take a button scrolled out of view or hidden for a covered one", () => {
      ReportingObserver.last!.report([{ isIntersecting: false, isVisible: false }])
      expect(keyPress()).toBe(false)
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: true }])
      expect(keyPress()).toBe(true)
    })

    it("still looks at the page at the click: a decoy drawn since the last report refuses it", () => {
      ReportingObserver.last!.report([{ isIntersecting: true, isVisible: true }])
      elements.hits.first = document.body
      expect(keyPress()).toBe(false)
    })
  })

  describe("without trackVisibility (Firefox)", () => {
    beforeEach(() => {
      vi.useFakeTimers()
      vi.stubGlobal("IntersectionObserverEntry", class {})
    })

    it("looks when the button appears and every 250 ms: a cover seen once refuses the click after it went away", () => {
      startWatch()
      expect(keyPress()).toBe(true)
      elements.hits.first = document.body
      vi.advanceTimersByTime(LOOK_INTERVAL_MS)
      elements.hits.first = elements.button
      expect(keyPress()).toBe(false)
    })

    it("refuses a click when the button appeared under a cover, taken away before the click", () => {
      elements.hits.first = document.body
      startWatch()
      elements.hits.first = elements.button
      expect(keyPress()).toBe(false)
    })

    it("stops looking when the button hides", () => {
      startWatch()
      watch.unwatch()
      elements.hits.first = document.body
      vi.advanceTimersByTime(5 * LOOK_INTERVAL_MS)
      elements.hits.first = elements.button
      expect(keyPress()).toBe(true)
    })
  })
})
