// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest"

import { installSidePanelChrome } from "../browser/fake-chrome.test-support"
import { pageTranslationRequestItem, requestPageTranslation, translateActiveTabFromPopup } from "./page-translation-request"

function installChrome() {
  const windows = { WINDOW_ID_CURRENT: -2, getCurrent: vi.fn(async () => ({ id: 4 })) }
  const tabs = { query: vi.fn(async () => [{ id: 9, windowId: 4 }]) }
  return installSidePanelChrome({ windows, tabs })
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe("asking the panel to translate a tab's images", () => {
  it("opens the panel before anything is awaited (the menu's or the command's gesture), then stores the request", async () => {
    const { fake, calls, open } = installChrome()
    vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000)
    const done = requestPageTranslation({ id: 7, windowId: 2 })
    expect(calls[0]).toBe("sidePanel.open")
    expect(open).toHaveBeenCalledWith({ tabId: 7 })
    await done
    expect(fake.storage.session.items.get(pageTranslationRequestItem.key)).toEqual({ tabId: 7, windowId: 2, action: "toggle", requestedAt: 1_700_000_000_000 })
  })

  it("stores nothing without a tab, and reports a refused panel as a warning", async () => {
    const { fake, open } = installChrome()
    await requestPageTranslation(undefined)
    expect(fake.storage.session.items.has(pageTranslationRequestItem.key)).toBe(false)
    open.mockImplementationOnce(() => Promise.reject(new Error("`sidePanel.open()` may only be called in response to a user gesture.")))
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    await expect(requestPageTranslation({ id: 7, windowId: 2 })).resolves.toBeUndefined()
    expect(warn).toHaveBeenCalledWith("Could not open the side panel", expect.any(Error))
  })

  it("from the popup, opens the panel in its window and asks for the mode on for the window's tab", async () => {
    const { fake, open } = installChrome()
    await translateActiveTabFromPopup()
    expect(open).toHaveBeenCalledWith({ windowId: 4 })
    expect(fake.storage.session.items.get(pageTranslationRequestItem.key)).toMatchObject({ tabId: 9, windowId: 4, action: "on" })
  })

  it("from Firefox's popup, opens the sidebar first, inside the click", async () => {
    const { calls } = installChrome()
    const sidebar = { open: vi.fn(async () => void calls.push("sidebarAction.open")), toggle: vi.fn(), isOpen: vi.fn() }
    vi.stubGlobal("browser", { sidebarAction: sidebar })
    const done = translateActiveTabFromPopup()
    expect(calls).toEqual(["sidebarAction.open"])
    await done
    expect(calls).toEqual(["sidebarAction.open", "storage.session.set"])
  })
})
