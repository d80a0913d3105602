import { describe, expect, it } from "vitest"

import { installFakeChromeForEachTest } from "../browser/fake-chrome.test-support"
import type { MessageSender } from "./message-dispatch"
import { isOurContentScript, isOwnPanelOrContextOutsideTabs, isOwnExtensionPage, isTopFrame } from "./message-senders"
import { isSiteSender, SITE_ORIGINS } from "../site-link/site-origins"

const EXTENSION = "chrome-extension://ffaglifbbggnijgmaboakodgdepojdjj"
const SITE = { origin: SITE_ORIGINS[0], url: `${SITE_ORIGINS[0]}/dashboard`, frameId: 0 }

const chromeFake = installFakeChromeForEachTest()

describe("who may speak for the site", () => {
  it("accepts the site's origins and the extension's own site page, nothing else", () => {
    expect(isSiteSender(SITE)).toBe(true)
    expect(isSiteSender({ id: chromeFake().runtime.id, url: `${EXTENSION}/tabs/site.html#/dashboard` })).toBe(true)
    expect(isSiteSender({ id: chromeFake().runtime.id, url: `${EXTENSION}/popup.html` })).toBe(false)
    expect(isSiteSender({ id: "another-extension", url: `chrome-extension://another-extension/tabs/site.html` })).toBe(false)
    expect(isSiteSender({ origin: "http://127.0.0.1:9999", url: "http://127.0.0.1:9999/", frameId: 0 })).toBe(false)
    expect(isSiteSender(undefined)).toBe(false)
  })

  it("hears the site only from the top frame of its tab: a framed page of the site is refused", () => {
    expect(isSiteSender({ ...SITE, frameId: 3, tab: { id: 4, url: "https://hostile.example/" } })).toBe(false)
    expect(isSiteSender({ ...SITE, frameId: undefined })).toBe(false)
    expect(isSiteSender({ ...SITE, documentLifecycle: "prerender" })).toBe(false)
  })

  it("takes frameId 0 of a live document as the top frame", () => {
    expect(isTopFrame({ frameId: 0 })).toBe(true)
    expect(isTopFrame({ frameId: 0, documentLifecycle: "active" })).toBe(true)
    expect(isTopFrame({ frameId: 1 })).toBe(false)
    expect(isTopFrame({})).toBe(false)
    expect(isTopFrame(undefined)).toBe(false)
    expect(isTopFrame({ frameId: 0, documentLifecycle: "cached" })).toBe(false)
  })

  it("treats only pages of the extension as its own (a content script's sender is the web page)", () => {
    expect(isOwnExtensionPage({ id: chromeFake().runtime.id, url: `${EXTENSION}/popup.html` })).toBe(true)
    expect(isOwnExtensionPage({ id: chromeFake().runtime.id, url: "https://example.com/" })).toBe(false)
    expect(isOwnExtensionPage({ id: "someone-else", url: `${EXTENSION}/popup.html` })).toBe(false)
  })
})

describe("our content script", () => {
  const contentScript: MessageSender = { id: "ffaglifbbggnijgmaboakodgdepojdjj", url: "https://example.com/", frameId: 0, tab: { id: 4, url: "https://example.com/" } }

  it("is this extension's script in a web page's frame of a tab", () => {
    expect(isOurContentScript(contentScript)).toBe(true)
    expect(isOurContentScript({ ...contentScript, id: "someone-else" })).toBe(false)
    expect(isOurContentScript({ ...contentScript, url: `${EXTENSION}/popup.html` })).toBe(false)
    expect(isOurContentScript({ ...contentScript, url: "moz-extension://3c0b1f5e-6a2b-4c1d-9e8f-0a1b2c3d4e5f/popup.html" })).toBe(false)
    expect(isOurContentScript({ ...contentScript, tab: undefined })).toBe(false)
    expect(isOurContentScript({ ...contentScript, tab: { id: -1 } })).toBe(false)
    expect(isOurContentScript({ ...contentScript, frameId: undefined })).toBe(false)
  })

  it("answers only the extension itself outside tabs: the side panel, the popup, the service worker", () => {
    expect(isOwnPanelOrContextOutsideTabs({ id: chromeFake().runtime.id, url: `${EXTENSION}/sidepanel.html` })).toBe(true)
    expect(isOwnPanelOrContextOutsideTabs({ id: chromeFake().runtime.id, url: `${EXTENSION}/static/background/index.js` })).toBe(true)
    expect(isOwnPanelOrContextOutsideTabs({ id: chromeFake().runtime.id, url: `${EXTENSION}/popup.html`, tab: { id: 3 } })).toBe(false)
    expect(isOwnPanelOrContextOutsideTabs(contentScript)).toBe(false)
    expect(isOwnPanelOrContextOutsideTabs({ id: "someone-else", url: "chrome-extension://someone-else/panel.html" })).toBe(false)
  })

  it("answers Firefox's panel window too: our panel page, in a tab of its own", () => {
    expect(isOwnPanelOrContextOutsideTabs({ id: chromeFake().runtime.id, url: `${EXTENSION}/sidepanel.html?tab=4`, tab: { id: 7 } })).toBe(true)
    expect(isOwnPanelOrContextOutsideTabs({ id: "someone-else", url: `${EXTENSION}/sidepanel.html?tab=4`, tab: { id: 7 } })).toBe(false)
    expect(isOwnPanelOrContextOutsideTabs({ ...contentScript, url: "https://example.com/sidepanel.html" })).toBe(false)
  })
})
