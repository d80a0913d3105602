import { act, cleanup, renderHook, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import type { OcrResult } from "~analysis/ocr"
import { createFakeChrome, fakeEvent } from "~extension/browser/fake-chrome.test-support"
import { PAGE_IMAGES_CHANGED, type PageImage } from "~extension/messaging/messages"
import { selectedImageItem } from "~extension/panel-handoff/selected-image"

import type { AnalysisOutcome, AnalysisRequest } from "./analyses"
import type { PanelImage } from "./images/tab-images"
import { analyseAndRecord } from "./record-analysis"
import { DEFAULT_PANEL_SETTINGS } from "./settings/settings"
import { useAnalysis } from "./use-analysis"
import { useChat } from "./chat/use-chat"
import { useFocusedImage, type FocusedImage } from "./images/use-focused-image"
import { usePageScan, type ScanState } from "./images/use-page-scan"
import { PENDING_SELECTION_MAX_AGE_MS, usePickedImage } from "./images/use-picked-image"
import { useTickedImages } from "./images/use-ticked-images"
import { VqaRequestError } from "./chat/vqa-client"
import { DeviceEngineError } from "./ai/device-errors"

// The hooks are about state; what an analysis does is tested with the engines and in the browser.
vi.mock("./record-analysis", () => ({ analyseAndRecord: vi.fn() }))
const analyse = vi.mocked(analyseAndRecord)

const pageImage = (url: string): PageImage => ({ url, width: 800, height: 600, renderedWidth: 400, renderedHeight: 300, alt: url, source: "img", mimeType: "image/png" })

/** chrome.* with tabs whose content scripts answer with `imagesByTab` (every frame is frame 0 here). */
function installChrome() {
  const fake = createFakeChrome()
  const imagesByTab = new Map<number, PageImage[]>([
    [1, [pageImage("https://a.test/1.png"), pageImage("https://a.test/2.png")]],
    [2, [pageImage("https://b.test/3.png")]]
  ])
  let activeTab = 1
  const tabs = {
    onActivated: fakeEvent(),
    onUpdated: fakeEvent(),
    query: vi.fn(async () => [{ id: activeTab, title: `Tab ${activeTab}`, url: `https://tab${activeTab}.test/` }]),
    get: vi.fn(async (id: number) => ({ id, title: `Tab ${id}`, url: `https://tab${id}.test/` })),
    sendMessage: vi.fn(async (tabId: number) => {
      const images = imagesByTab.get(tabId)
      if (!images) throw new Error("No content script")
      return { images }
    })
  }
  const runtime = { ...fake.runtime, onMessage: fakeEvent() }
  const scripting = { executeScript: vi.fn(async () => [{ frameId: 0, result: true }]) }
  vi.stubGlobal("chrome", { ...fake, runtime, tabs, scripting })
  return {
    fake,
    tabs,
    runtime,
    imagesByTab,
    activate: (id: number) => {
      activeTab = id
      tabs.onActivated.fire({ tabId: id, windowId: 1 })
    }
  }
}

const urlsOf = (scan: ScanState) => (scan.kind === "ready" ? scan.images.map((image) => image.url) : scan.kind)

let browser: ReturnType<typeof installChrome>

beforeEach(() => {
  browser = installChrome()
  analyse.mockReset()
})

afterEach(() => {
  // Unmount while chrome.* is still there: the hooks' clean-ups remove their listeners from it.
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe("usePageScan", () => {
  it("scans the active tab when asked, and says when a tab cannot be scanned", async () => {
    const { result } = renderHook(() => usePageScan({ onTabSwitched: () => {} }))
    expect(result.current.scan).toEqual({ kind: "loading" })
    await act(() => result.current.scanAndShow())
    expect(result.current.scan).toMatchObject({ kind: "ready", tabId: 1, pageTitle: "Tab 1", pageUrl: "https://tab1.test/" })
    expect(urlsOf(result.current.scan)).toEqual(["https://a.test/1.png", "https://a.test/2.png"])
    await act(() => result.current.scanAndShow(9))
    expect(result.current.scan).toEqual({ kind: "unavailable" })
  })

  it("rescans the shown tab once, 300 ms after the last change its page announces; other tabs' changes are ignored", async () => {
    vi.useFakeTimers()
    const { result } = renderHook(() => usePageScan({ onTabSwitched: () => {} }))
    await act(() => result.current.scanAndShow())
    browser.tabs.sendMessage.mockClear()
    browser.imagesByTab.set(1, [pageImage("https://a.test/late.png")])
    // As Chrome describes our content script in a page's frame.
    const changed = (tabId: number) =>
      browser.runtime.onMessage.fire({ type: PAGE_IMAGES_CHANGED, count: 1 }, { id: chrome.runtime.id, url: `https://tab${tabId}.test/`, frameId: 0, tab: { id: tabId } }, () => {})
    act(() => {
      changed(2)
      changed(1)
    })
    await act(() => vi.advanceTimersByTimeAsync(200))
    act(() => changed(1))
    await act(() => vi.advanceTimersByTimeAsync(299))
    expect(browser.tabs.sendMessage).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(browser.tabs.sendMessage).toHaveBeenCalledTimes(1)
    expect(urlsOf(result.current.scan)).toEqual(["https://a.test/late.png"])
  })

  it("follows the user to another tab, after telling the panel", async () => {
    const switched = vi.fn()
    const { result } = renderHook(() => usePageScan({ onTabSwitched: switched }))
    await act(() => result.current.scanAndShow())
    act(() => browser.activate(2))
    expect(switched).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(urlsOf(result.current.scan)).toEqual(["https://b.test/3.png"]))
  })

  it("scans the tab again when it finishes loading after a scan met it between two pages", async () => {
    const { result } = renderHook(() => usePageScan({ onTabSwitched: () => {} }))
    await act(() => result.current.scanAndShow())
    // A rescan while the tab navigates: no page answers for a moment.
    const images = browser.imagesByTab.get(1)!
    browser.imagesByTab.delete(1)
    await act(() => result.current.scanAndShow(1))
    expect(result.current.scan).toMatchObject({ kind: "unavailable" })
    browser.imagesByTab.set(1, images)
    act(() => browser.tabs.onUpdated.fire(1, { status: "complete" }))
    await waitFor(() => expect(urlsOf(result.current.scan)).toEqual(["https://a.test/1.png", "https://a.test/2.png"]))
  })

  it("rescans when the shown tab finishes loading, not for other tabs or other states", async () => {
    const { result } = renderHook(() => usePageScan({ onTabSwitched: () => {} }))
    await act(() => result.current.scanAndShow())
    browser.tabs.sendMessage.mockClear()
    act(() => {
      browser.tabs.onUpdated.fire(1, { status: "loading" })
      browser.tabs.onUpdated.fire(2, { status: "complete" })
    })
    expect(browser.tabs.sendMessage).not.toHaveBeenCalled()
    browser.imagesByTab.set(1, [])
    act(() => browser.tabs.onUpdated.fire(1, { status: "complete" }))
    await waitFor(() => expect(urlsOf(result.current.scan)).toEqual([]))
  })

  it("Rescan shows the spinner, then the same tab again", async () => {
    const { result } = renderHook(() => usePageScan({ onTabSwitched: () => {} }))
    await act(() => result.current.scanAndShow(2))
    act(() => result.current.rescan())
    expect(result.current.scan).toEqual({ kind: "loading" })
    await waitFor(() => expect(urlsOf(result.current.scan)).toEqual(["https://b.test/3.png"]))
  })

  it("stops listening once unmounted", () => {
    const { unmount } = renderHook(() => usePageScan({ onTabSwitched: () => {} }))
    unmount()
    expect([browser.runtime.onMessage, browser.tabs.onActivated, browser.tabs.onUpdated].map((event) => event.listeners.size)).toEqual([0, 0, 0])
  })
})

describe("usePickedImage", () => {
  const NOW = 1_700_000_000_000

  function renderPicked(settings: typeof DEFAULT_PANEL_SETTINGS | undefined) {
    const picked: FocusedImage[] = []
    const nothingPending = vi.fn()
    const scanAndShow = vi.fn(async (tabId?: number): Promise<ScanState> => {
      const images = (browser.imagesByTab.get(tabId ?? 1) ?? []).map((image) => ({ ...image, frameId: 0 }))
      return { kind: "ready", tabId: tabId ?? 1, images, pageTitle: "", pageUrl: "" }
    })
    const hook = renderHook((props: { settings: typeof settings }) =>
      usePickedImage({ settings: props.settings, scanAndShow, onPicked: (focused) => picked.push(focused), onNothingPending: nothingPending, now: () => NOW })
    , { initialProps: { settings } })
    return { ...hook, picked, nothingPending, scanAndShow }
  }

  it("opens a pick made just before the panel started, with the default analysis, once the settings are loaded", async () => {
    await selectedImageItem.set({ url: "https://a.test/2.png", tabId: 1, pageUrl: "https://tab1.test/", selectedAt: NOW - PENDING_SELECTION_MAX_AGE_MS + 1 })
    const { picked, scanAndShow, rerender, nothingPending } = renderPicked(undefined)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(scanAndShow).not.toHaveBeenCalled()
    rerender({ settings: { ...DEFAULT_PANEL_SETTINGS, defaultAnalysis: "faces" } })
    await waitFor(() => expect(picked).toHaveLength(1))
    expect(scanAndShow).toHaveBeenCalledWith(1)
    expect(picked[0]).toMatchObject({ image: { url: "https://a.test/2.png", width: 800, tabId: 1, pageUrl: "https://tab1.test/" }, autoRun: "faces", token: NOW - PENDING_SELECTION_MAX_AGE_MS + 1 })
    expect(nothingPending).not.toHaveBeenCalled()
  })

  it("leaves an old pick alone and reports that nothing is pending", async () => {
    await selectedImageItem.set({ url: "https://a.test/2.png", tabId: 1, selectedAt: NOW - PENDING_SELECTION_MAX_AGE_MS })
    const { picked, nothingPending } = renderPicked(DEFAULT_PANEL_SETTINGS)
    await waitFor(() => expect(nothingPending).toHaveBeenCalledTimes(1))
    expect(picked).toEqual([])
  })

  it("opens every later pick, each once; one the page does not list opens from its URL; None runs nothing", async () => {
    const { picked, nothingPending } = renderPicked({ ...DEFAULT_PANEL_SETTINGS, defaultAnalysis: "none" })
    await waitFor(() => expect(nothingPending).toHaveBeenCalled())
    await act(() => selectedImageItem.set({ url: "https://b.test/unlisted.png", tabId: 2, selectedAt: NOW + 1 }))
    await waitFor(() => expect(picked).toHaveLength(1))
    expect(picked[0]).toMatchObject({ image: { url: "https://b.test/unlisted.png", width: 0, height: 0, frameId: 0, tabId: 2 }, autoRun: null })
    // The same pick again (storage events can repeat) and an older one are not opened.
    await act(() => selectedImageItem.set({ url: "https://b.test/unlisted.png", tabId: 2, selectedAt: NOW + 1 }))
    await act(() => selectedImageItem.set({ url: "https://a.test/1.png", tabId: 1, selectedAt: NOW }))
    await act(() => selectedImageItem.set({ url: "https://a.test/1.png", tabId: 1, selectedAt: NOW + 2 }))
    await waitFor(() => expect(picked).toHaveLength(2))
    expect(picked[1]).toMatchObject({ image: { url: "https://a.test/1.png", width: 800 }, token: NOW + 2 })
  })
})

describe("useFocusedImage and useTickedImages", () => {
  const focusedOn = (url: string): FocusedImage => ({ image: { ...pageImage(url), frameId: 0 }, autoRun: null, token: 1 })

  it("keeps the last opened image marked after going back to the grid", () => {
    const { result } = renderHook(() => useFocusedImage())
    act(() => result.current.focus(focusedOn("https://a.test/1.png")))
    expect(result.current.focused?.image.url).toBe("https://a.test/1.png")
    act(() => result.current.focus(null))
    expect(result.current.focused).toBeNull()
    expect(result.current.lastOpened).toBe("https://a.test/1.png")
  })

  it("ticks and unticks images by URL, and clears them", () => {
    const { result } = renderHook(() => useTickedImages())
    act(() => result.current.toggle("a"))
    act(() => result.current.toggle("b"))
    act(() => result.current.toggle("a"))
    expect([...result.current.urls]).toEqual(["b"])
    expect(result.current.has("b")).toBe(true)
    act(() => result.current.clear())
    expect(result.current.urls.size).toBe(0)
  })
})

const answer = (text: string): AnalysisOutcome => ({ kind: "ask", answer: text, model: "gpt-4o-mini", question: "q", source: "service" })
const panelImage = (url: string): PanelImage => ({ ...pageImage(url), frameId: 3 })

describe("useChat", () => {
  function renderChat(images: PanelImage[]) {
    const onUsageChanged = vi.fn()
    const hook = renderHook(() => useChat({ images, tabId: 7, pageUrl: "https://page.test/", settings: DEFAULT_PANEL_SETTINGS, onUsageChanged }))
    return { ...hook, onUsageChanged }
  }

  it("asks about each ticked image in turn, at most four, each with the earlier turns about that image", async () => {
    const images = ["1", "2", "3", "4", "5"].map((name) => panelImage(`https://a.test/${name}.png`))
    analyse.mockImplementation(async (request: AnalysisRequest) => answer(`${request.question} about ${request.image.url}`))
    const { result } = renderChat(images)
    act(() => result.current.send("What is it?"))
    expect(result.current.busy).toBe(true)
    await waitFor(() => expect(result.current.busy).toBe(false))
    expect(analyse).toHaveBeenCalledTimes(4)
    expect(analyse.mock.calls[0]![0]).toMatchObject({ kind: "ask", question: "What is it?", image: { url: "https://a.test/1.png", tabId: 7, frameId: 3 }, history: [] })
    expect(analyse.mock.calls[0]![1]).toMatchObject({ pageUrl: "https://page.test/" })
    expect(result.current.messages.map((message) => message.role)).toEqual(["user", "assistant", "assistant", "assistant", "assistant"])

    act(() => result.current.send("And the colour?"))
    await waitFor(() => expect(result.current.busy).toBe(false))
    expect(analyse.mock.calls[4]![0].history).toEqual([{ question: "What is it?", answer: "What is it? about https://a.test/1.png" }])
    expect(new Set(result.current.messages.map((message) => message.id)).size).toBe(result.current.messages.length)
  })

  it("stops at the first refusal, shows it, and refreshes the usage shown", async () => {
    analyse.mockResolvedValueOnce(answer("A cat.")).mockRejectedValueOnce(new Error("You have used all 10 AI requests of your plan this month."))
    const { result, onUsageChanged } = renderChat([panelImage("a"), panelImage("b"), panelImage("c")])
    act(() => result.current.send("What is it?"))
    await waitFor(() => expect(result.current.busy).toBe(false))
    expect(analyse).toHaveBeenCalledTimes(2)
    expect(result.current.messages.at(-1)).toMatchObject({ role: "error", text: "You have used all 10 AI requests of your plan this month.", imageUrl: "b" })
    expect(onUsageChanged).toHaveBeenCalledTimes(1)
    act(() => result.current.clear())
    expect(result.current.messages).toEqual([])
  })
})

describe("useChat with the device's model", () => {
  const renderChat = (images: PanelImage[]) => renderHook(() => useChat({ images, tabId: 7, pageUrl: "https://page.test/", settings: DEFAULT_PANEL_SETTINGS, onUsageChanged: vi.fn() }))

  it("streams an answer into its message, and Stop keeps what came, marked stopped", async () => {
    analyse.mockImplementation(
      (request: AnalysisRequest) =>
        new Promise((resolve) => {
          request.onPartial?.("A small")
          request.signal?.addEventListener("abort", () => resolve({ kind: "ask", answer: "A small", model: "the browser's built-in model", question: "What is it?", source: "device", stopped: true }))
        })
    )
    const { result } = renderChat([panelImage("a"), panelImage("b")])
    act(() => result.current.send("What is it?"))
    await waitFor(() => expect(result.current.messages.at(-1)).toMatchObject({ role: "assistant", text: "A small", streaming: true }))
    act(() => result.current.stop())
    await waitFor(() => expect(result.current.busy).toBe(false))
    expect(result.current.messages.at(-1)).toMatchObject({ role: "assistant", text: "A small", streaming: false, stopped: true, source: "device" })
    // Stop ends the question: the next image is not asked.
    expect(analyse).toHaveBeenCalledTimes(1)
  })

  it("offers our service after the device's model failed, and asks it about the same image in one click", async () => {
    analyse.mockRejectedValueOnce(new DeviceEngineError("The model on this device stopped with an error.", "crashed", true)).mockResolvedValueOnce(answer("A dog."))
    const { result } = renderChat([panelImage("a")])
    act(() => result.current.send("What is it?"))
    await waitFor(() => expect(result.current.busy).toBe(false))
    const failed = result.current.messages.at(-1)!
    expect(failed).toMatchObject({ role: "error", offerService: true, question: "What is it?", imageUrl: "a" })
    act(() => result.current.askService(failed))
    await waitFor(() => expect(result.current.messages.at(-1)).toMatchObject({ role: "assistant", text: "A dog.", source: "service" }))
    expect(analyse.mock.calls[1]![0]).toMatchObject({ kind: "ask", question: "What is it?", only: "service", image: { url: "a" } })
    expect(result.current.messages.map((message) => message.role)).toEqual(["user", "assistant"])
  })
})

describe("useAnalysis", () => {
  const image = { ...panelImage("https://a.test/text.png"), tabId: 7, pageUrl: "https://page.test/" }
  const text = (value: string): AnalysisOutcome => ({ kind: "text", ocr: { text: value, confidence: 0.9, words: [], lines: [], imageWidth: 100, imageHeight: 100, durationMs: 1 } satisfies OcrResult })

  function renderAnalysis(autoRun: FocusedImage["autoRun"] = null) {
    const onUsageChanged = vi.fn()
    return renderHook(() => useAnalysis({ image, autoRun, settings: DEFAULT_PANEL_SETTINGS, onUsageChanged }))
  }

  it("runs a chosen analysis with progress, records it for the image's page and shows the result", async () => {
    let report!: AnalysisRequest["onProgress"]
    let finish!: (outcome: AnalysisOutcome) => void
    analyse.mockImplementation((request) => {
      report = request.onProgress
      return new Promise((resolve) => (finish = resolve))
    })
    const { result } = renderAnalysis()
    expect(result.current).toMatchObject({ kind: "text", state: { status: "idle" } })
    act(() => result.current.start("text"))
    expect(result.current.state).toEqual({ status: "running", progress: { stage: "Preparing the image…" } })
    expect(analyse.mock.calls[0]![0]).toMatchObject({ kind: "text", image: { url: image.url, tabId: 7, frameId: 3 } })
    expect(analyse.mock.calls[0]![1]).toMatchObject({ pageUrl: "https://page.test/" })
    act(() => report?.({ stage: "Recognising text", fraction: 0.5 }))
    expect(result.current.state).toEqual({ status: "running", progress: { stage: "Recognising text", fraction: 0.5 } })
    await act(async () => finish(text("HELLO")))
    expect(result.current.state).toEqual({ status: "done", outcome: text("HELLO") })
  })

  it("runs the analysis the image arrived with, once", async () => {
    analyse.mockResolvedValue(text("AUTO"))
    const { result, rerender } = renderAnalysis("text")
    await waitFor(() => expect(result.current.state.status).toBe("done"))
    rerender()
    expect(analyse).toHaveBeenCalledTimes(1)
  })

  it("waits for the question before asking, and shows only the latest run", async () => {
    const finishers: ((outcome: AnalysisOutcome) => void)[] = []
    analyse.mockImplementation(() => new Promise((resolve) => finishers.push(resolve)))
    const { result } = renderAnalysis()
    act(() => result.current.start("ask"))
    expect(result.current).toMatchObject({ kind: "ask", state: { status: "idle" } })
    expect(analyse).not.toHaveBeenCalled()
    act(() => result.current.start("ask", "first?"))
    act(() => result.current.start("ask", "second?"))
    await act(async () => finishers[1]!(answer("second answer")))
    await act(async () => finishers[0]!(answer("first answer")))
    expect(result.current.state).toEqual({ status: "done", outcome: answer("second answer") })
  })

  it("stops the read running when another analysis is chosen, and never shows its late result", async () => {
    const runs: { finish: (outcome: AnalysisOutcome) => void; signal: AbortSignal }[] = []
    analyse.mockImplementation((request) => new Promise((resolve) => runs.push({ finish: resolve, signal: request.signal! })))
    const { result } = renderAnalysis("text")
    await waitFor(() => expect(result.current.state.status).toBe("running"))
    act(() => result.current.start("ask"))
    expect(result.current).toMatchObject({ kind: "ask", state: { status: "idle" } })
    expect(runs[0]!.signal.aborted).toBe(true)
    await act(async () => runs[0]!.finish(text("LATE")))
    expect(result.current).toMatchObject({ kind: "ask", state: { status: "idle" } })
  })

  it("says what went wrong, and offers sign-in when the failure is being signed out", async () => {
    analyse.mockRejectedValueOnce(new VqaRequestError("Sign in to ask the vision model about images.", true)).mockRejectedValueOnce(new Error(""))
    const { result } = renderAnalysis()
    act(() => result.current.start("scene"))
    await waitFor(() => expect(result.current.state).toEqual({ status: "error", message: "Sign in to ask the vision model about images.", signedOut: true, offerService: false }))
    act(() => result.current.start("objects"))
    await waitFor(() => expect(result.current.state).toEqual({ status: "error", message: "The analysis failed. Try again.", signedOut: false, offerService: false }))
  })
})
