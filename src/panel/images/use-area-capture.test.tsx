import { act, cleanup, renderHook, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { areaCaptureItem, CAPTURE_NOT_ALLOWED_MESSAGE, CAPTURED_AREA_NAME } from "~extension/capture/area-capture"
import { createFakeChrome, type FakeChrome } from "~extension/browser/fake-chrome.test-support"
import { CANCEL_AREA_CAPTURE, START_AREA_CAPTURE } from "~extension/messaging/messages"

import { DEFAULT_PANEL_SETTINGS, type PanelSettings } from "../settings/settings"
import { PENDING_CAPTURE_MAX_AGE_MS, useAreaCapture } from "./use-area-capture"

const PNG = "data:image/png;base64,iVBORw0KGgo="

let fake: FakeChrome
let sendMessage: ReturnType<typeof vi.fn>

beforeEach(() => {
  fake = createFakeChrome()
  sendMessage = vi.fn(() => Promise.resolve({ success: true }))
  vi.stubGlobal("chrome", {
    ...fake,
    runtime: { ...fake.runtime, sendMessage },
    windows: { getCurrent: () => Promise.resolve({ id: 5 }) },
    tabs: { query: vi.fn(() => Promise.resolve([{ id: 12 }])) }
  })
  vi.stubGlobal("fetch", () => Promise.resolve(new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }))))
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderCapture(tabId: number | undefined, settings: PanelSettings = DEFAULT_PANEL_SETTINGS) {
  const onCaptured = vi.fn()
  const hook = renderHook(() => useAreaCapture({ settings, tabId, onCaptured }))
  return { hook, onCaptured }
}

describe("useAreaCapture", () => {
  it("asks the service worker for the overlay on the panel's page, or on its window's active tab when it has none", async () => {
    const { hook } = renderCapture(7)
    await act(async () => hook.result.current.start())
    await waitFor(() => expect(sendMessage).toHaveBeenCalledWith({ type: START_AREA_CAPTURE, tabId: 7 }))
    const other = renderCapture(undefined)
    await act(async () => other.hook.result.current.start())
    await waitFor(() => expect(sendMessage).toHaveBeenCalledWith({ type: START_AREA_CAPTURE, tabId: 12 }))
  })

  it("opens a captured area as 'Captured area' with the default analysis when it is a local one", async () => {
    const { hook, onCaptured } = renderCapture(7)
    await act(() => areaCaptureItem.set({ state: "selecting", tabId: 7, at: Date.now() }))
    await waitFor(() => expect(hook.result.current.status).toEqual({ kind: "selecting", tabId: 7 }))
    await act(() => areaCaptureItem.set({ state: "captured", tabId: 7, pageUrl: "https://a.test/", dataUrl: PNG, width: 640, height: 360, at: Date.now() + 1 }))
    await waitFor(() => expect(onCaptured).toHaveBeenCalledTimes(1))
    const [{ image, autoRun }] = onCaptured.mock.calls[0] as [{ image: Record<string, unknown>; autoRun: unknown }]
    expect(image).toMatchObject({ alt: CAPTURED_AREA_NAME, source: "captured", width: 640, height: 360, tabId: 7, pageUrl: "https://a.test/", mimeType: "image/png" })
    expect(String(image.url)).toMatch(/^blob:/)
    expect(autoRun).toBe("text")
    expect(hook.result.current.status).toEqual({ kind: "idle" })

    // Scene and Ask go to the vision model: only when the user asks.
    const scene = renderCapture(7, { ...DEFAULT_PANEL_SETTINGS, defaultAnalysis: "scene" })
    await act(() => areaCaptureItem.set({ state: "captured", tabId: 7, dataUrl: PNG, width: 10, height: 10, at: Date.now() + 2 }))
    await waitFor(() => expect(scene.onCaptured).toHaveBeenCalled())
    expect((scene.onCaptured.mock.calls[0] as [{ autoRun: unknown }])[0].autoRun).toBeNull()
  })

  it("shows a refusal in words", async () => {
    const { hook } = renderCapture(7)
    await act(() => areaCaptureItem.set({ state: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE, at: Date.now() }))
    await waitFor(() => expect(hook.result.current.status).toEqual({ kind: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE }))
  })

  it("takes a capture that ended just before the panel opened, not an old one", async () => {
    await areaCaptureItem.set({ state: "captured", tabId: 7, dataUrl: PNG, width: 10, height: 10, at: Date.now() - PENDING_CAPTURE_MAX_AGE_MS - 1 })
    const old = renderCapture(7)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(old.onCaptured).not.toHaveBeenCalled()
    cleanup()
    await areaCaptureItem.set({ state: "captured", tabId: 7, dataUrl: PNG, width: 10, height: 10, at: Date.now() - 1000 })
    const recent = renderCapture(7)
    await waitFor(() => expect(recent.onCaptured).toHaveBeenCalledTimes(1))
  })

  it("cancels with Escape in the panel while the overlay waits", async () => {
    const { hook } = renderCapture(7)
    await act(() => areaCaptureItem.set({ state: "selecting", tabId: 7, at: Date.now() }))
    await waitFor(() => expect(hook.result.current.status.kind).toBe("selecting"))
    act(() => void document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true })))
    expect(sendMessage).toHaveBeenCalledWith({ type: CANCEL_AREA_CAPTURE, tabId: 7 })
    expect(hook.result.current.status).toEqual({ kind: "idle" })
  })
})
