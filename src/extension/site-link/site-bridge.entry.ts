/**
 * The Firefox site bridge as the content script runs it (bundled by scripts/copy-extension-assets.mjs into the
 * Firefox build only, with the build's trusted site origins in SITE_BRIDGE_ORIGINS). Firefox's content scripts see the
 * page through Xray wrappers: exportFunction and cloneInto are the documented ways to give the page functions and data.
 * See ./site-bridge for what is passed and the threat model.
 */
import { installSiteBridge, type BridgePort, type PageBridge } from "./site-bridge"

declare const SITE_BRIDGE_ORIGINS: string[]
declare function exportFunction(fn: (...args: never[]) => unknown, target: object, options?: { defineAs?: string }): unknown
declare function cloneInto<T>(value: T, target: object, options?: { cloneFunctions?: boolean }): T
declare function createObjectIn(target: object, options: { defineAs: string }): object

installSiteBridge({
  origin: location.origin,
  isTopFrame: window.top === window,
  siteOrigins: SITE_BRIDGE_ORIGINS,
  runtime: {
    sendMessage: (message) => chrome.runtime.sendMessage(message),
    connect: (info) => chrome.runtime.connect(info) as unknown as BridgePort
  },
  page: {
    expose(name, bridge: PageBridge) {
      const target = createObjectIn(window, { defineAs: name })
      exportFunction(bridge.sendMessage, target, { defineAs: "sendMessage" })
      exportFunction(bridge.connect, target, { defineAs: "connect" })
    },
    toPage: (value) => cloneInto(value, window, { cloneFunctions: true })
  }
})
