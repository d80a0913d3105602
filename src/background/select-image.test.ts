// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest"

import { installSidePanelChrome as installChrome } from "~extension/browser/fake-chrome.test-support"
import { selectedImageItem } from "~extension/panel-handoff/selected-image"

import { openSidePanelWithImage } from "./select-image"

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe("opening the side panel with an image selected", () => {
  it("opens the panel before anything is awaited, then stores the selection", async () => {
    const { fake, calls, open } = installChrome()
    vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000)
    const done = openSidePanelWithImage({ url: "https://example.com/a.png", tabId: 7, pageUrl: "https://example.com/" })
    // Synchronously, in the caller's turn: the user gesture is still there.
    expect(calls[0]).toBe("sidePanel.open")
    expect(open).toHaveBeenCalledWith({ tabId: 7 })
    await done
    expect(fake.storage.session.items.get(selectedImageItem.key)).toEqual({
      url: "https://example.com/a.png",
      tabId: 7,
      pageUrl: "https://example.com/",
      selectedAt: 1_700_000_000_000
    })
  })

  it("still opens the panel when the image cannot be selected, and stores nothing", async () => {
    const { fake, open } = installChrome()
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    await openSidePanelWithImage({ url: "javascript:alert(1)", tabId: 7 })
    expect(open).toHaveBeenCalledWith({ tabId: 7 })
    expect(fake.storage.session.items.has(selectedImageItem.key)).toBe(false)
    expect(warn).toHaveBeenCalled()
  })

  it("reports a refused panel as a warning, not an unhandled rejection", async () => {
    const { open } = installChrome()
    open.mockImplementationOnce(() => Promise.reject(new Error("`sidePanel.open()` may only be called in response to a user gesture.")))
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    await expect(openSidePanelWithImage({ url: "https://example.com/a.png", tabId: 7 })).resolves.toBeUndefined()
    expect(warn).toHaveBeenCalledWith("Could not open the side panel", expect.any(Error))
  })
})
