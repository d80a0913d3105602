import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { OverlayTracker, type OverlayNodes, type PageChange } from "./overlay-tracker"

/** The animation frames asked for, run by the test. */
let frames: FrameRequestCallback[] = []
function runFrames() {
  const due = frames
  frames = []
  for (const run of due) run(0)
}

/** A DOMRect-like box that the test moves (happy-dom lays nothing out). */
function boxed(element: Element, box: { left: number; top: number; width: number; height: number }) {
  vi.spyOn(element, "getBoundingClientRect").mockImplementation(() => ({ ...box, x: box.left, y: box.top, right: box.left + box.width, bottom: box.top + box.height, toJSON: () => box }) as DOMRect)
  return box
}

function sized(element: HTMLElement, width: number, height: number) {
  Object.defineProperty(element, "offsetWidth", { configurable: true, get: () => width })
  Object.defineProperty(element, "offsetHeight", { configurable: true, get: () => height })
  vi.spyOn(element as Element & { checkVisibility(): boolean }, "checkVisibility").mockReturnValue(true)
}

function overlayNodes(): OverlayNodes {
  const frame = document.createElement("div")
  const box = document.createElement("div")
  const picture = document.createElement("div")
  frame.append(box)
  box.append(picture)
  return { frame, box, picture }
}

let host: HTMLElement
let image: HTMLImageElement
let imageBox: { left: number; top: number; width: number; height: number }
let changes: PageChange[]
let tracker: OverlayTracker

beforeEach(() => {
  frames = []
  changes = []
  vi.spyOn(window, "requestAnimationFrame").mockImplementation((run) => frames.push(run))
  vi.spyOn(window, "cancelAnimationFrame").mockImplementation(() => {})
  document.body.innerHTML = '<div id="scroller"><img id="picture" src="https://example.com/sign.png" alt="Sign"></div>'
  image = document.getElementById("picture") as HTMLImageElement
  imageBox = boxed(image, { left: 100, top: 50, width: 400, height: 200 })
  sized(image, 400, 200)
  host = document.createElement("div")
  document.documentElement.append(host)
  boxed(host, { left: 0, top: 0, width: 0, height: 0 })
  tracker = new OverlayTracker({ host, view: window, onChange: (change) => changes.push(change) })
})

afterEach(() => {
  tracker.stop()
  host.remove()
  vi.restoreAllMocks()
})

describe("keeping an overlay on its image", () => {
  it("places the overlay over the image at once", () => {
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    expect(nodes.frame.style.display).toBe("block")
    expect(nodes.frame.style.overflow).toBe("visible")
    expect(nodes.box.style.width).toBe("400px")
    expect(nodes.box.style.height).toBe("200px")
    expect(nodes.box.style.transform).toBe("translate(100px, 50px)")
    expect(nodes.picture.style.width).toBe("400px")
  })

  it("asks for one frame per burst of scrolling, and moves the overlay with a box that moved (a sticky image)", () => {
    image.style.position = "sticky"
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    runFrames()
    imageBox.top = 0
    window.dispatchEvent(new Event("scroll"))
    window.dispatchEvent(new Event("scroll"))
    expect(frames).toHaveLength(1)
    // Nothing is written before the frame.
    expect(nodes.box.style.transform).toBe("translate(100px, 50px)")
    runFrames()
    expect(nodes.box.style.transform).toBe("translate(100px, 0px)")
  })

  it("does not even look when the document scrolls and no image is fixed or sticky: the host moves with the document", async () => {
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    runFrames()
    // The viewport's scroll is fired at the document, and bubbles to the window.
    const listening = vi.spyOn(window, "addEventListener")
    document.dispatchEvent(new Event("scroll", { bubbles: true }))
    expect(frames).toHaveLength(0)
    // Inside a fixed element, the image stays in view as the document scrolls: its overlay follows.
    document.getElementById("scroller")!.style.position = "fixed"
    // The style's change is seen (a mutation, delivered after this task) and measured again in a frame.
    await Promise.resolve()
    runFrames()
    document.dispatchEvent(new Event("scroll", { bubbles: true }))
    expect(frames).toHaveLength(1)
    expect(listening.mock.calls.filter(([type]) => type === "scroll")).toHaveLength(1)
    // Not fixed any more: the window's scrolls are not heard at all (a listener would cost the page a call per frame).
    runFrames()
    const unlistening = vi.spyOn(window, "removeEventListener")
    document.getElementById("scroller")!.style.position = ""
    await Promise.resolve()
    runFrames()
    expect(unlistening.mock.calls.filter(([type]) => type === "scroll")).toHaveLength(1)
    document.dispatchEvent(new Event("scroll", { bubbles: true }))
    expect(frames).toHaveLength(0)
  })

  it("hears no scroll of the page, nor of a container the image is not in, while the image follows the document", () => {
    const elsewhere = document.body.appendChild(document.createElement("div"))
    elsewhere.style.overflow = "auto"
    const listening = vi.spyOn(window, "addEventListener")
    tracker.track(image, overlayNodes())
    runFrames()
    expect(listening.mock.calls.filter(([type]) => type === "scroll")).toEqual([])
    elsewhere.dispatchEvent(new Event("scroll"))
    window.dispatchEvent(new Event("scroll"))
    expect(frames).toHaveLength(0)
  })

  it("follows a scrolling container's scroll, heard on the container, and is clipped by it", () => {
    const scroller = document.getElementById("scroller")!
    scroller.style.overflow = "auto"
    boxed(scroller, { left: 80, top: 40, width: 300, height: 150 })
    Object.defineProperty(scroller, "clientWidth", { configurable: true, get: () => 300 })
    Object.defineProperty(scroller, "clientHeight", { configurable: true, get: () => 150 })
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    expect(nodes.frame.style.overflow).toBe("hidden")
    expect([nodes.frame.style.left, nodes.frame.style.top, nodes.frame.style.width, nodes.frame.style.height]).toEqual(["80px", "40px", "300px", "150px"])
    expect(nodes.box.style.transform).toBe("translate(20px, 10px)")
    imageBox.top = -30
    scroller.dispatchEvent(new Event("scroll"))
    runFrames()
    expect(nodes.box.style.transform).toBe("translate(20px, -70px)")
    // Scrolled out of its container: clipped away entirely, still there for a screen reader.
    imageBox.top = -400
    scroller.dispatchEvent(new Event("scroll"))
    runFrames()
    expect(nodes.box.style.transform).toBe("translate(20px, -440px)")
    expect(nodes.frame.style.display).toBe("block")
  })

  it("asks for nothing while nothing moves, and writes nothing when a scroll did not move the image", () => {
    image.style.position = "sticky"
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    runFrames()
    expect(frames).toHaveLength(0)
    const written = vi.spyOn(nodes.box.style, "setProperty")
    window.dispatchEvent(new Event("scroll"))
    runFrames()
    expect(written).not.toHaveBeenCalled()
    expect(frames).toHaveLength(0)
  })

  it("hides the overlay of an image that is not shown, and shows it again when it is", async () => {
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    vi.mocked((image as Element & { checkVisibility(): boolean }).checkVisibility).mockReturnValue(false)
    image.style.visibility = "hidden"
    await Promise.resolve()
    runFrames()
    expect(nodes.frame.style.display).toBe("none")
    vi.mocked((image as Element & { checkVisibility(): boolean }).checkVisibility).mockReturnValue(true)
    image.style.visibility = ""
    await Promise.resolve()
    runFrames()
    expect(nodes.frame.style.display).toBe("block")
  })

  it("does nothing while paused and places everything at once on resuming", () => {
    const nodes = overlayNodes()
    tracker.track(image, nodes)
    runFrames()
    tracker.pause()
    imageBox.left = 0
    window.dispatchEvent(new Event("scroll"))
    expect(frames).toHaveLength(0)
    tracker.resume()
    expect(nodes.box.style.transform).toBe("translate(0px, 50px)")
  })

  it("tells when a tracked image leaves the document or changes its address", async () => {
    tracker.track(image, overlayNodes())
    runFrames()
    image.setAttribute("src", "https://example.com/other.png")
    await Promise.resolve()
    runFrames()
    expect(changes.at(-1)).toMatchObject({ touched: [image], gone: [], readdressed: true })
    image.remove()
    await Promise.resolve()
    runFrames()
    expect(changes.at(-1)).toMatchObject({ gone: [image] })
    // Once.
    document.body.append(document.createElement("p"))
    await Promise.resolve()
    runFrames()
    expect(changes.at(-1)).toEqual({ gone: [], touched: [], added: true, readdressed: false })
  })

  it("stops listening when stopped", () => {
    tracker.track(image, overlayNodes())
    runFrames()
    tracker.stop()
    window.dispatchEvent(new Event("scroll"))
    window.dispatchEvent(new Event("resize"))
    expect(frames).toHaveLength(0)
  })
})
