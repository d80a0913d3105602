import { describe, expect, it, vi } from "vitest"

import { installFakeChromeForEachTest } from "../browser/fake-chrome.test-support"
import { openReverseSearch, uploadHandoffItem } from "./reverse-search"

const fakeChrome = installFakeChromeForEachTest()

function tabsCreated() {
  const create = vi.fn((properties: chrome.tabs.CreateProperties) => Promise.resolve({ id: 99, ...properties }))
  ;(fakeChrome() as unknown as { tabs: unknown }).tabs = { create }
  return create
}

describe("openReverseSearch", () => {
  it("opens the engine's page for an image at a public address, beside the tab it came from", async () => {
    const create = tabsCreated()
    await openReverseSearch({ engine: "tineye", url: "https://example.com/cat.jpg", tabId: 4, openerTab: { id: 4, index: 2, windowId: 7 } })
    expect(create).toHaveBeenCalledWith({ url: "https://tineye.com/search?url=https%3A%2F%2Fexample.com%2Fcat.jpg", index: 3, windowId: 7, openerTabId: 4 })
    expect(fakeChrome().storage.session.items.size).toBe(0)
  })

  it("hands an image without a public address to the upload page, one handoff per search", async () => {
    const create = tabsCreated()
    await openReverseSearch({ engine: "bing", url: "blob:https://example.com/1", tabId: 4, frameId: 2 })
    await openReverseSearch({ engine: "yandex", url: "data:image/png;base64,AAAA" })
    const opened = create.mock.calls.map(([properties]) => properties.url!)
    expect(opened).toHaveLength(2)
    const ids = opened.map((url) => {
      expect(url).toMatch(/^chrome-extension:\/\/\w+\/tabs\/reverse-search\.html#[\w-]{36}$/)
      return url.split("#")[1]!
    })
    expect(ids[0]).not.toBe(ids[1])
    expect(await uploadHandoffItem(ids[0]!).get()).toEqual({ engine: "bing", url: "blob:https://example.com/1", tabId: 4, frameId: 2 })
    expect(await uploadHandoffItem(ids[1]!).get()).toEqual({ engine: "yandex", url: "data:image/png;base64,AAAA" })
  })

  it("refuses an engine it does not know, opening nothing", async () => {
    const create = tabsCreated()
    await expect(openReverseSearch({ engine: "altavista" as never, url: "https://example.com/cat.jpg" })).rejects.toThrow("Unknown search engine")
    expect(create).not.toHaveBeenCalled()
  })
})
