import { afterEach, describe, expect, it, vi } from "vitest"

import { EXTENSION_ID } from "~core/extension-id"
import { websiteLogoutMessage } from "~core/extension-messages"

import { configureExtensionNotifier, notifyExtension, resolveExtensionTransport } from "./extension-notifier"

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
