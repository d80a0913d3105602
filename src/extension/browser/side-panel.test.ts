import { afterEach, describe, expect, it, vi } from "vitest"

import { installFakeChromeForEachTest } from "./fake-chrome.test-support"
import { openPanel, pinnedPanelTab } from "./side-panel"

const chromeFake = installFakeChromeForEachTest()

afterEach(() => vi.unstubAllGlobals())

describe("the panel in either browser", () => {
  it("opens Chrome's side panel for the tab when the browser has no sidebar", async () => {
    const open = vi.fn(async () => undefined)
    Object.assign(chromeFake(), { sidePanel: { open } })
    await openPanel({ tabId: 4 })
    expect(open).toHaveBeenCalledWith({ tabId: 4 })
  })

  it("opens Firefox's sidebar, and when Firefox refuses (a page's click is no user action there) a panel window pinned to the tab", async () => {
    const sidebar = { open: vi.fn(async () => undefined), toggle: vi.fn(), isOpen: vi.fn(async () => false) }
    vi.stubGlobal("browser", { sidebarAction: sidebar })
    const create = vi.fn(async () => ({}))
    Object.assign(chromeFake(), {
      tabs: { get: vi.fn(async () => ({ id: 4, windowId: 9 })) },
      windows: { get: vi.fn(async () => ({ id: 9, left: 100, top: 50, width: 1280, height: 900 })), create }
    })
    await openPanel({ tabId: 4 })
    expect(create).not.toHaveBeenCalled()

    sidebar.open.mockRejectedValue(new Error("sidebarAction.open may only be called from a user input handler"))
    await openPanel({ tabId: 4 })
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ url: expect.stringMatching(/sidepanel\.html\?tab=4$/), type: "popup", width: 420, height: 900, left: 960, top: 50 }))
    expect(sidebar.isOpen).toHaveBeenCalledWith({ windowId: 9 })
    // An open sidebar shows the new selection by itself: no window.
    sidebar.isOpen.mockResolvedValue(true)
    await openPanel({ tabId: 4 })
    expect(create).toHaveBeenCalledTimes(1)
    // Without a tab (the popup's button, the capture command) there is a gesture: a refusal is an error.
    await expect(openPanel({ windowId: 9 })).rejects.toThrow(/user input handler/)
  })

  it("reads the tab a panel window is pinned to", () => {
    expect(pinnedPanelTab("?tab=12")).toBe(12)
    expect(pinnedPanelTab("")).toBeUndefined()
    expect(pinnedPanelTab("?tab=-1")).toBeUndefined()
    expect(pinnedPanelTab("?tab=x")).toBeUndefined()
  })
})
