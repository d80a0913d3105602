import { afterEach, describe, expect, it, vi } from "vitest"

import { EXTENSION_ID } from "~core/extension-id"
import { websiteLogoutMessage } from "~core/extension-messages"

import { SITE_BRIDGE_GLOBAL } from "~core/extension-message-types"

import { configureExtensionNotifier, notifyExtension, resolveExtensionConnector, resolveExtensionTransport } from "./extension-notifier"

const message = websiteLogoutMessage(() => 1)

function stubChrome(sendMessage: (...args: unknown[]) => unknown = vi.fn(async () => undefined)) {
  vi.stubGlobal("chrome", { runtime: { sendMessage } })
  return sendMessage
}

afterEach(() => {
  configureExtensionNotifier({})
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe("notifyExtension", () => {
  it("uses an injected transport first", async () => {
    const transport = vi.fn()
    const sendMessage = stubChrome()
    configureExtensionNotifier({ transport, extensionId: "abc" })
    await expect(notifyExtension(message)).resolves.toBe(true)
    expect(transport).toHaveBeenCalledWith(message)
    expect(sendMessage).not.toHaveBeenCalled()
  })

  it("inside an extension page sends to its own runtime without an id", async () => {
    vi.stubGlobal("location", { protocol: "chrome-extension:" })
    const sendMessage = stubChrome()
    await expect(notifyExtension(message)).resolves.toBe(true)
    expect(sendMessage).toHaveBeenCalledWith(message)
  })

  it("on the web sends to the configured extension id", async () => {
    const sendMessage = stubChrome()
    configureExtensionNotifier({ extensionId: "abcdefghijklmnop" })
    await expect(notifyExtension(message)).resolves.toBe(true)
    expect(sendMessage).toHaveBeenCalledWith("abcdefghijklmnop", message)
  })

  it("on the web sends to the extension's fixed id by default", async () => {
    const sendMessage = stubChrome()
    await expect(notifyExtension(message)).resolves.toBe(true)
    expect(sendMessage).toHaveBeenCalledWith(EXTENSION_ID, message)
  })

  it("on the web sends nothing when the extension id is configured away", async () => {
    const sendMessage = stubChrome()
    configureExtensionNotifier({ extensionId: null })
    expect(resolveExtensionTransport()).toBeNull()
    await expect(notifyExtension(message)).resolves.toBe(false)
    expect(sendMessage).not.toHaveBeenCalled()
  })

  it("sends nothing, and never posts to the window, when chrome.runtime.sendMessage is missing", async () => {
    const postMessage = vi.spyOn(window, "postMessage")
    configureExtensionNotifier({ extensionId: "abc" })
    await expect(notifyExtension(message)).resolves.toBe(false)
    vi.stubGlobal("chrome", { runtime: {} })
    await expect(notifyExtension(message)).resolves.toBe(false)
    expect(postMessage).not.toHaveBeenCalled()
  })

  it("inside a Firefox extension page (moz-extension:) sends to its own runtime without an id", async () => {
    vi.stubGlobal("location", { protocol: "moz-extension:" })
    const sendMessage = stubChrome()
    await expect(notifyExtension(message)).resolves.toBe(true)
    expect(sendMessage).toHaveBeenCalledWith(message)
  })

  it("on the web in Firefox goes through the extension's site bridge, and counts a refusal as not sent", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const port = { postMessage: vi.fn(), disconnect: vi.fn(), onMessage: { addListener: vi.fn() }, onDisconnect: { addListener: vi.fn() } }
    const bridge = { sendMessage: vi.fn(() => true), connect: vi.fn((name: string) => (name === "image-query-ai-site" ? port : null)) }
    vi.stubGlobal(SITE_BRIDGE_GLOBAL, bridge)
    await expect(notifyExtension(message)).resolves.toBe(true)
    expect(bridge.sendMessage).toHaveBeenCalledWith(message)
    expect(resolveExtensionConnector("image-query-ai-site")?.()).toBe(port)
    expect(() => resolveExtensionConnector("another-port")?.()).toThrow(/no port named another-port/)
    bridge.sendMessage.mockReturnValue(false)
    await expect(notifyExtension(message)).resolves.toBe(false)
    expect(warn).toHaveBeenCalled()
  })

  it("never throws: a rejected or throwing send is logged as a warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    configureExtensionNotifier({ extensionId: "abc" })
    stubChrome(vi.fn(async () => Promise.reject(new Error("Receiving end does not exist."))))
    await expect(notifyExtension(message)).resolves.toBe(false)
    stubChrome(
      vi.fn(() => {
        throw new TypeError("Invalid extension id")
      })
    )
    await expect(notifyExtension(message)).resolves.toBe(false)
    expect(warn).toHaveBeenCalledTimes(2)
    expect(String(warn.mock.calls[0]?.[0])).toContain("WEBSITE_AUTH_LOGOUT")
  })
})
