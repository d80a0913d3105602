import { afterEach, describe, expect, it, vi } from "vitest"

import { fakeEvent } from "../browser/fake-chrome.test-support"
import { pageIndexOf } from "./page-index-global"

afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetModules()
  delete (globalThis as Record<string, unknown>).__imageQueryAiPageIndex
})

describe("the page index in a frame", () => {
  it("listens once however often the side panel injects it", async () => {
    const onMessage = fakeEvent()
    vi.stubGlobal("chrome", { runtime: { id: "extension-id", onMessage, sendMessage: vi.fn(() => Promise.resolve()) } })
    await import("./page-index.entry")
    vi.resetModules()
    await import("./page-index.entry")
    expect(onMessage.listeners.size).toBe(1)
  })

  it("answers the side panel with the frame's images, and no other sender", async () => {
    const onMessage = fakeEvent()
    const getURL = (file: string) => `chrome-extension://extension-id/${file}`
    vi.stubGlobal("chrome", { runtime: { id: "extension-id", getURL, onMessage, sendMessage: vi.fn(() => Promise.resolve()) } })
    document.body.innerHTML = '<img src="https://example.com/a.png" alt="A">'
    await import("./page-index.entry")
    const [listener] = onMessage.listeners
    const ask = (sender: object) =>
      new Promise((resolve) => {
        const answered = (listener as (m: unknown, s: object, r: (a: unknown) => void) => boolean)({ type: "PAGE_IMAGES_REQUEST" }, sender, resolve)
        if (!answered) resolve("no answer")
      })
    expect(await ask({ id: "extension-id", url: "chrome-extension://extension-id/sidepanel.html" })).toMatchObject({
      images: [expect.objectContaining({ url: "https://example.com/a.png", alt: "A" })]
    })
    expect(await ask({ id: "extension-id", url: "https://example.com/", tab: { id: 1 }, frameId: 0 })).toBe("no answer")
    // Firefox's panel window: the panel page in a tab of its own.
    expect(await ask({ id: "extension-id", url: "chrome-extension://extension-id/sidepanel.html?tab=1", tab: { id: 2 } })).toMatchObject({ images: [expect.anything()] })
    expect(await ask({ id: "extension-id", url: "chrome-extension://extension-id/popup.html", tab: { id: 2 } })).toBe("no answer")
  })

  it("shares its images' elements by address on its world's global, for the page translation script", async () => {
    vi.stubGlobal("chrome", { runtime: { id: "extension-id", onMessage: fakeEvent(), sendMessage: vi.fn(() => Promise.resolve()) } })
    document.body.innerHTML = '<img src="https://example.com/a.png" alt="A">'
    expect(pageIndexOf()).toBeNull()
    await import("./page-index.entry")
    expect(pageIndexOf()?.elements().get("https://example.com/a.png")).toBe(document.querySelector("img"))
  })
})
