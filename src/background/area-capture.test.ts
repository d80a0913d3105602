// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { areaCaptureItem, CAPTURE_FAILED_MESSAGE, CAPTURE_NOT_ALLOWED_MESSAGE } from "~extension/capture/area-capture"
import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"

import { AREA_OVERLAY_HINT, captureArea, captureAreaFromGesture, isCapturablePageUrl } from "./area-capture"

let tab: Partial<chrome.tabs.Tab>
let executeScript: ReturnType<typeof vi.fn>
let open: ReturnType<typeof vi.fn>
let update: ReturnType<typeof vi.fn>

beforeEach(() => {
  tab = { id: 4, windowId: 9, active: true, url: "https://example.com/page" }
  executeScript = vi.fn(() => Promise.resolve([{ frameId: 0, result: null }]))
  open = vi.fn(() => Promise.resolve())
  update = vi.fn(() => Promise.resolve())
  vi.stubGlobal("chrome", {
    ...createFakeChrome(),
    tabs: { get: vi.fn(() => Promise.resolve(tab)), update, captureVisibleTab: vi.fn(() => Promise.reject(new Error("not in this test"))) },
    scripting: { executeScript },
    sidePanel: { open }
  })
})
afterEach(() => vi.unstubAllGlobals())

describe("pages that can be captured", () => {
  it("refuses the browser's own pages, other extensions' pages and the Web Store", () => {
    for (const url of ["chrome://version", "chrome-extension://abc/page.html", "about:blank", "view-source:https://a.test/", "https://chromewebstore.google.com/detail/x", "https://chrome.google.com/webstore/detail/x", "edge://settings"]) {
      expect(isCapturablePageUrl(url), url).toBe(false)
    }
    for (const url of ["https://example.com/", "http://127.0.0.1:3000/a", "file:///tmp/a.html", undefined]) expect(isCapturablePageUrl(url), url).toBe(true)
  })
})

describe("capturing an area", () => {
  it("refuses a browser page in words without touching it", async () => {
    tab.url = "chrome://extensions/"
    await captureArea(4)
    expect(await areaCaptureItem.get()).toMatchObject({ state: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE })
    expect(executeScript).not.toHaveBeenCalled()
  })

  it("refuses in words a page Chrome will not script (file: without access, the PDF viewer)", async () => {
    executeScript.mockRejectedValueOnce(new Error("Cannot access contents of the page"))
    await captureArea(4)
    expect(await areaCaptureItem.get()).toMatchObject({ state: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE })
  })

  it("shows the overlay in the tab's top frame, and ends as cancelled when it answers no area", async () => {
    const states: string[] = []
    areaCaptureItem.watch((capture) => states.push(capture?.state ?? "none"))
    await captureArea(4)
    expect(executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 4, frameIds: [0] }, args: [AREA_OVERLAY_HINT, 8] }))
    expect(states).toEqual(["selecting", "cancelled"])
  })

  it("takes a tiny area from the page as cancelled", async () => {
    executeScript.mockResolvedValueOnce([{ frameId: 0, result: { area: { x: 0, y: 0, width: 3, height: 3 }, viewport: { width: 800, height: 600 }, devicePixelRatio: 1 } }])
    await captureArea(4)
    expect(await areaCaptureItem.get()).toMatchObject({ state: "cancelled" })
  })

  it("waits and tries again when Chrome's two-captures-a-second quota refuses the screenshot, three times at most", async () => {
    const area = { area: { x: 0, y: 0, width: 50, height: 50 }, viewport: { width: 800, height: 600 }, devicePixelRatio: 1 }
    executeScript.mockResolvedValue([{ frameId: 0, result: area }])
    const quota = new Error("This request exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota.")
    const captureVisibleTab = vi.fn(() => Promise.reject(quota))
    chrome.tabs.captureVisibleTab = captureVisibleTab as unknown as typeof chrome.tabs.captureVisibleTab
    await captureArea(4)
    expect(captureVisibleTab).toHaveBeenCalledTimes(3)
    expect(await areaCaptureItem.get()).toMatchObject({ state: "refused", message: CAPTURE_FAILED_MESSAGE })

    // Any other failure is not the quota: no second try.
    captureVisibleTab.mockClear().mockRejectedValueOnce(quota).mockRejectedValueOnce(new Error("Tab is being dragged"))
    await captureArea(4)
    expect(captureVisibleTab).toHaveBeenCalledTimes(2)
  })

  it("brings the tab to the front first: the screenshot is of the window's active tab", async () => {
    tab.active = false
    await captureArea(4)
    expect(update).toHaveBeenCalledWith(4, { active: true })
  })

  it("lets a later capture win: the earlier one no longer writes its outcome", async () => {
    let answerFirst: (value: unknown) => void = () => {}
    executeScript.mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
    const first = captureArea(4)
    await vi.waitFor(() => expect(executeScript).toHaveBeenCalledTimes(1))
    executeScript.mockImplementationOnce(() => new Promise(() => {}))
    void captureArea(4)
    await vi.waitFor(() => expect(executeScript).toHaveBeenCalledTimes(2))
    answerFirst([{ frameId: 0, result: null }])
    await first
    expect(await areaCaptureItem.get()).toMatchObject({ state: "selecting" })
  })

  it("opens the side panel inside the command's or menu's gesture, before anything is awaited", () => {
    void captureAreaFromGesture(tab as chrome.tabs.Tab)
    expect(open).toHaveBeenCalledWith({ windowId: 9 })
  })
})
