import { describe, expect, it, vi } from "vitest"

import { EXTENSION_AUTH_STATUS_REQUEST, SITE_BRIDGE_GLOBAL, SITE_LINK_PORT_NAME, WEBSITE_AUTH_LOGIN } from "~core/extension-message-types"

import { installSiteBridge, type BridgePort, type PageBridge, type SiteBridgeEnvironment } from "./site-bridge"

const SITE = "https://imagequery.example"

/** A bridge installed with fakes for the runtime and for Firefox's exportFunction/cloneInto (recorded, not cloned). */
function bridgeOn(overrides: Partial<SiteBridgeEnvironment> = {}) {
  const exposed = new Map<string, PageBridge>()
  const extensionListeners: ((message: unknown) => void)[] = []
  const port: BridgePort = {
    postMessage: vi.fn(),
    disconnect: vi.fn(),
    onMessage: { addListener: (listener) => extensionListeners.push(listener) },
    onDisconnect: { addListener: vi.fn() }
  }
  const runtime = { sendMessage: vi.fn(async () => ({ success: true })), connect: vi.fn(() => port) }
  const toPage = vi.fn((value: unknown) => value)
  const installed = installSiteBridge({
    origin: SITE,
    isTopFrame: true,
    siteOrigins: [SITE],
    runtime,
    page: { expose: (name, bridge) => exposed.set(name, bridge), toPage: toPage as <T>(value: T) => T },
    ...overrides
  })
  return { installed, bridge: exposed.get(SITE_BRIDGE_GLOBAL), runtime, port, toPage, fromExtension: (message: unknown) => extensionListeners.forEach((listener) => listener(message)) }
}

const login = { type: WEBSITE_AUTH_LOGIN, payload: { user: { email: "ada@example.com" }, tokens: { authToken: "t", refreshToken: null, expiresAt: 1 } }, timestamp: 1 }

describe("the Firefox site bridge", () => {
  it("installs itself only in the top frame of a trusted site origin", () => {
    expect(bridgeOn().installed).toBe(true)
    // A hostile page that got the script anyway, and a frame inside (or around) a page of the site.
    expect(bridgeOn({ origin: "https://hostile.example" }).bridge).toBeUndefined()
    expect(bridgeOn({ isTopFrame: false }).bridge).toBeUndefined()
  })

  it("passes on the documented WEBSITE_* messages as plain data, and refuses anything else", () => {
    const { bridge, runtime } = bridgeOn()
    expect(bridge!.sendMessage({ ...login, extra: () => "not data" })).toBe(true)
    expect(runtime.sendMessage).toHaveBeenCalledWith(login)
    for (const refused of [{ type: "WEBSITE_OTHER", timestamp: 1 }, { type: "EXTENSION_LOGOUT_REQUEST", timestamp: 1 }, "WEBSITE_AUTH_LOGIN", null, [login]]) {
      expect(bridge!.sendMessage(refused)).toBe(false)
    }
    const cyclic: Record<string, unknown> = { type: WEBSITE_AUTH_LOGIN }
    cyclic.self = cyclic
    expect(bridge!.sendMessage(cyclic)).toBe(false)
    expect(runtime.sendMessage).toHaveBeenCalledTimes(1)
  })

  it("opens only the site-link port, hands the page nothing but known requests' type and timestamp, and passes on only answers", () => {
    const { bridge, runtime, port, fromExtension } = bridgeOn()
    expect(bridge!.connect("another-port")).toBeNull()
    expect(runtime.connect).not.toHaveBeenCalled()
    const pagePort = bridge!.connect(SITE_LINK_PORT_NAME)!
    expect(runtime.connect).toHaveBeenCalledWith({ name: SITE_LINK_PORT_NAME })
    const seenByPage: unknown[] = []
    pagePort.onMessage.addListener((message) => seenByPage.push(message))
    fromExtension({ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: 5, authToken: "never for the page" })
    fromExtension({ type: "EXTENSION_SOMETHING_ELSE", timestamp: 6 })
    fromExtension({ type: WEBSITE_AUTH_LOGIN, timestamp: 7 })
    expect(seenByPage).toEqual([{ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: 5 }])

    pagePort.postMessage({ success: false, error: "Not signed in", token: "dropped" })
    pagePort.postMessage("not an answer")
    expect(port.postMessage).toHaveBeenCalledTimes(1)
    expect(port.postMessage).toHaveBeenCalledWith({ success: false, error: "Not signed in" })
    pagePort.disconnect()
    expect(port.disconnect).toHaveBeenCalled()
  })

  it("gives the page its objects through the page exposure (Firefox's cloneInto)", () => {
    const { bridge, toPage, fromExtension } = bridgeOn()
    const pagePort = bridge!.connect(SITE_LINK_PORT_NAME)!
    pagePort.onMessage.addListener(() => {})
    fromExtension({ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: 5 })
    expect(toPage).toHaveBeenCalledWith(pagePort)
    expect(toPage).toHaveBeenCalledWith({ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: 5 })
  })
})
