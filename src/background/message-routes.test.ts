// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { INVALID_WEBSITE_TYPE_ERROR } from "~core/extension-messages"
import { createFakeChrome, type FakeChrome } from "~extension/browser/fake-chrome.test-support"
import type { MessageSender } from "~extension/messaging/message-dispatch"
import { areaCaptureItem, CAPTURE_NOT_ALLOWED_MESSAGE } from "~extension/capture/area-capture"
import { CANCEL_AREA_CAPTURE, INVALID_IMAGE_URL_ERROR, NOT_OUR_CONTENT_SCRIPT_ERROR, OPEN_SIDE_PANEL_FOR_IMAGE, START_AREA_CAPTURE } from "~extension/messaging/messages"
import { selectedImageItem } from "~extension/panel-handoff/selected-image"
import { SITE_ORIGINS } from "~extension/site-link/site-origins"

import { listenToMessages } from "./message-routes"
import { SENDER_NOT_ALLOWED_ERROR } from "./site-messages"

type Listener = (message: unknown, sender: MessageSender, sendResponse: (answer: unknown) => void) => boolean

const EXTENSION_ID = "ffaglifbbggnijgmaboakodgdepojdjj"
const contentScript: MessageSender = { id: EXTENSION_ID, url: "https://example.com/", frameId: 0, tab: { id: 7, url: "https://example.com/" } }
const popup: MessageSender = { id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/popup.html` }
const sitePage: MessageSender = { id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/tabs/site.html#/login` }
const site: MessageSender = { origin: SITE_ORIGINS[0], url: `${SITE_ORIGINS[0]}/login`, frameId: 0, tab: { id: 9, url: `${SITE_ORIGINS[0]}/login` } }
/** The same page of the site, framed by another page. */
const framedSite: MessageSender = { ...site, frameId: 12, tab: { id: 10, url: "https://hostile.example/" } }

let fake: FakeChrome
let open: ReturnType<typeof vi.fn>
let internal: Listener
let external: Listener

/** What a listener answers: undefined when it leaves the message alone. */
async function answerOf(listener: Listener, message: unknown, sender: MessageSender): Promise<unknown> {
  let answer: unknown
  const answered = new Promise<void>((resolve) => {
    const keptOpen = listener(message, sender, (value) => {
      answer = value
      resolve()
    })
    if (!keptOpen) resolve()
  })
  await answered
  return answer
}

beforeEach(() => {
  fake = createFakeChrome()
  open = vi.fn(() => Promise.resolve())
  vi.stubGlobal("chrome", { ...fake, sidePanel: { open } })
  listenToMessages(fake.runtime as unknown as typeof chrome.runtime)
  internal = [...fake.runtime.onMessage.listeners][0] as Listener
  external = [...fake.runtime.onMessageExternal.listeners][0] as Listener
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe("the service worker's messages", () => {
  it("registers one listener for our own contexts and one for the site", () => {
    expect(fake.runtime.onMessage.listeners.size).toBe(1)
    expect(fake.runtime.onMessageExternal.listeners.size).toBe(1)
  })

  it("opens the side panel for the button's image inside the listener's call, then selects it", async () => {
    internal({ type: OPEN_SIDE_PANEL_FOR_IMAGE, url: "https://example.com/a.png" }, contentScript, () => {})
    expect(open).toHaveBeenCalledWith({ tabId: 7 })
    await vi.waitFor(async () => expect(await selectedImageItem.get()).toMatchObject({ url: "https://example.com/a.png", tabId: 7, pageUrl: "https://example.com/" }))
  })

  it("answers the button's message {success} or its refusal", async () => {
    expect(await answerOf(internal, { type: OPEN_SIDE_PANEL_FOR_IMAGE, url: "https://example.com/a.png" }, contentScript)).toEqual({ success: true })
    expect(await answerOf(internal, { type: OPEN_SIDE_PANEL_FOR_IMAGE, url: "https://example.com/a.png" }, popup)).toEqual({ success: false, error: NOT_OUR_CONTENT_SCRIPT_ERROR })
    expect(await answerOf(internal, { type: OPEN_SIDE_PANEL_FOR_IMAGE, url: "javascript:alert(1)" }, contentScript)).toEqual({ success: false, error: INVALID_IMAGE_URL_ERROR })
    expect(open).toHaveBeenCalledTimes(1)
  })

  it("starts an area capture for our own pages only, on a tab id", async () => {
    const getTab = vi.fn(() => Promise.resolve({ id: 3, windowId: 1, active: true, url: "chrome://settings" }))
    const executeScript = vi.fn(() => Promise.resolve([]))
    vi.stubGlobal("chrome", { ...fake, sidePanel: { open }, tabs: { get: getTab }, scripting: { executeScript } })
    expect(await answerOf(internal, { type: START_AREA_CAPTURE, tabId: 3 }, contentScript)).toBeUndefined()
    expect(await answerOf(internal, { type: START_AREA_CAPTURE, tabId: "3" }, popup)).toBeUndefined()
    expect(await answerOf(internal, { type: START_AREA_CAPTURE, tabId: -1 }, popup)).toBeUndefined()
    expect(getTab).not.toHaveBeenCalled()
    expect(await answerOf(internal, { type: START_AREA_CAPTURE, tabId: 3 }, popup)).toEqual({ success: true })
    // The panel hears of the outcome through storage: here, a browser page refused.
    await vi.waitFor(async () => expect(await areaCaptureItem.get()).toMatchObject({ state: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE }))
    expect(await answerOf(internal, { type: CANCEL_AREA_CAPTURE, tabId: 3 }, contentScript)).toBeUndefined()
    expect(await answerOf(internal, { type: CANCEL_AREA_CAPTURE, tabId: 3 }, popup)).toEqual({ success: true })
    expect(executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 3, frameIds: [0] } }))
  })

  it("leaves messages it does not know to other listeners", async () => {
    expect(await answerOf(internal, { type: "TEST_MENU_CLICK" }, popup)).toBeUndefined()
    expect(await answerOf(internal, { type: "PAGE_IMAGES_CHANGED", count: 2 }, contentScript)).toBeUndefined()
  })

  it("answers every WEBSITE_* message from the site's extension page as the site's, unknown types included", async () => {
    expect(await answerOf(internal, { type: "WEBSITE_OTHER", timestamp: 1 }, sitePage)).toEqual({ success: false, error: "Unknown message type: WEBSITE_OTHER" })
    expect(await answerOf(internal, { type: "WEBSITE_AUTH_LOGOUT", timestamp: 1 }, contentScript)).toEqual({ success: false, error: SENDER_NOT_ALLOWED_ERROR })
  })

  it("refuses the site's sign-in, sync and sign-out from a frame of the site, and acts on none", async () => {
    const signIn = { type: "WEBSITE_AUTH_LOGIN", payload: { user: { email: "mallory@example.com", name: "Mallory", role: "user", provider: "email" }, tokens: { authToken: "attacker", refreshToken: null } }, timestamp: 1 }
    const fetchSpy = vi.fn(() => Promise.reject(new Error("nothing may be sent")))
    vi.stubGlobal("fetch", fetchSpy)
    await fake.storage.local.set({ extensionSession: JSON.stringify({ user: { email: "ada@example.com" }, token: "t", refreshToken: "r", expiresAt: Date.now() + 3_600_000 }) })
    for (const message of [signIn, { ...signIn, type: "WEBSITE_AUTH_SYNC" }, { type: "WEBSITE_AUTH_LOGOUT", payload: { user: null, tokens: null }, timestamp: 1 }]) {
      expect(await answerOf(external, message, framedSite)).toEqual({ success: false, error: SENDER_NOT_ALLOWED_ERROR })
      expect(await answerOf(internal, message, { ...framedSite, id: EXTENSION_ID })).toEqual({ success: false, error: SENDER_NOT_ALLOWED_ERROR })
    }
    expect(fetchSpy).not.toHaveBeenCalled()
    expect(fake.storage.local.items.get("extensionSession")).toContain("ada@example.com")
  })

  it("answers every external message as the site's: the sender first, then the type", async () => {
    expect(await answerOf(external, { type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: 1 }, site)).toEqual({ success: false, error: INVALID_WEBSITE_TYPE_ERROR })
    expect(await answerOf(external, "not an object", { origin: "http://evil.example", url: "http://evil.example/" })).toEqual({
      success: false,
      error: SENDER_NOT_ALLOWED_ERROR
    })
  })
})
