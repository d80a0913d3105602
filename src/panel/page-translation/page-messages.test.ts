import { afterEach, describe, expect, it, vi } from "vitest"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"
import { PAGE_TRANSLATION_CLEAR, PAGE_TRANSLATION_FILE, PAGE_TRANSLATION_SHOW, PAGE_TRANSLATION_STATE } from "~extension/messaging/page-translation-messages"

import { clearPage, isActionFromTab, preparePage, sendPageState, showTranslation } from "./page-messages"

const translation = { imageWidth: 10, imageHeight: 10, language: "fr", lines: [] }

function stubChrome({ executeScript = async () => [{ frameId: 0 }], sendMessage = async () => ({ shown: true }) }: { executeScript?: (...args: unknown[]) => Promise<unknown>; sendMessage?: (...args: unknown[]) => Promise<unknown> } = {}) {
  const fake = { runtime: { id: "ours" }, scripting: { executeScript: vi.fn(executeScript) }, tabs: { sendMessage: vi.fn(sendMessage) } }
  vi.stubGlobal("chrome", fake)
  return fake
}

afterEach(() => vi.unstubAllGlobals())

describe("the panel's messages to the page", () => {
  it("injects the page index, then the page translation script, into every frame of the tab", async () => {
    const fake = stubChrome()
    await preparePage(5)
    expect(fake.scripting.executeScript.mock.calls).toEqual([
      [{ target: { tabId: 5, allFrames: true }, files: [PAGE_INDEX_FILE] }],
      [{ target: { tabId: 5, allFrames: true }, files: [PAGE_TRANSLATION_FILE] }]
    ])
  })

  it("fails for a tab the browser keeps extensions out of", async () => {
    stubChrome({
      executeScript: async () => {
        throw new Error("Cannot access a chrome:// URL")
      }
    })
    await expect(preparePage(5)).rejects.toThrow()
  })

  it("sends the state and the clearing to every frame, a translation to the frame that listed its image", async () => {
    const fake = stubChrome()
    sendPageState(5, { showing: false, status: "done", done: 2, total: 2 })
    clearPage(5)
    await showTranslation(5, { url: "https://a.example/1.png", frameId: 3 }, translation)
    expect(fake.tabs.sendMessage.mock.calls).toEqual([
      [5, { type: PAGE_TRANSLATION_STATE, showing: false, status: "done", done: 2, total: 2 }],
      [5, { type: PAGE_TRANSLATION_CLEAR }],
      [5, { type: PAGE_TRANSLATION_SHOW, url: "https://a.example/1.png", translation }, { frameId: 3 }]
    ])
  })

  it("injects the script into a frame that lacks it (a frame added since) and shows the translation again", async () => {
    let injected = false
    const fake = stubChrome({
      executeScript: async () => {
        injected = true
        return [{ frameId: 3 }]
      },
      sendMessage: async () => {
        if (!injected) throw new Error("Could not establish connection. Receiving end does not exist.")
        return { shown: true }
      }
    })
    await showTranslation(5, { url: "https://a.example/1.png", frameId: 3 }, translation)
    expect(fake.scripting.executeScript).toHaveBeenCalledWith({ target: { tabId: 5, frameIds: [3] }, files: [PAGE_TRANSLATION_FILE] })
    expect(fake.tabs.sendMessage).toHaveBeenCalledTimes(2)
  })

  it("hears the badge only from our page script in the top frame of the tab", () => {
    const top = { id: "ours", url: "https://a.example/", frameId: 0, tab: { id: 5 } }
    stubChrome()
    expect(isActionFromTab(top)).toBe(true)
    expect(isActionFromTab({ ...top, frameId: 2 })).toBe(false)
    expect(isActionFromTab({ ...top, id: "another-extension" })).toBe(false)
    expect(isActionFromTab({ ...top, url: "chrome-extension://ours/sidepanel.html", tab: undefined })).toBe(false)
  })
})
