import { afterEach, describe, expect, it, vi } from "vitest"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"

import { indexFrame, indexTabFrames } from "./page-frames"

function stubScripting(executeScript: (...args: unknown[]) => Promise<unknown>) {
  vi.stubGlobal("chrome", { scripting: { executeScript: vi.fn(executeScript) } })
  return (globalThis as unknown as { chrome: { scripting: { executeScript: ReturnType<typeof vi.fn> } } }).chrome.scripting.executeScript
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("the page index, injected when the panel needs it", () => {
  it("goes into every frame of the tab and answers the frames that run it, top frame first, once each", async () => {
    const executeScript = stubScripting(async () => [{ frameId: 7 }, { frameId: 0 }, { frameId: 7 }, { frameId: 3 }, {}])
    expect(await indexTabFrames(12)).toEqual([0, 3, 7])
    expect(executeScript).toHaveBeenCalledWith({ target: { tabId: 12, allFrames: true }, files: [PAGE_INDEX_FILE] })
  })

  it("answers no frame for a tab that may not be scripted", async () => {
    stubScripting(async () => {
      throw new Error("Cannot access a chrome:// URL")
    })
    expect(await indexTabFrames(12)).toEqual([])
  })

  it("goes into one frame for a blob: image picked before the page was listed", async () => {
    const executeScript = stubScripting(async () => [{ frameId: 4 }])
    expect(await indexFrame(12, 4)).toBe(true)
    expect(executeScript).toHaveBeenCalledWith({ target: { tabId: 12, frameIds: [4] }, files: [PAGE_INDEX_FILE] })
    stubScripting(async () => {
      throw new Error("No frame with id 4")
    })
    expect(await indexFrame(12, 4)).toBe(false)
  })
})
