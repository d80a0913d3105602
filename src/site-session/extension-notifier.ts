/**
 * Sends the site's auth messages (WEBSITE_AUTH_*) to the extension.
 *
 * Transport, chosen at send time:
 * 1. a transport given to `configureExtensionNotifier` (tests, or a host with its own channel);
 * 2. inside an extension page (location.protocol "chrome-extension:"): `chrome.runtime.sendMessage(message)`;
 * 3. on the web: `chrome.runtime.sendMessage(extensionId, message)`, only when the browser exposes
 *    chrome.runtime.sendMessage (the extension lists the site in externally_connectable) AND an extension id
 *    is configured: EXTENSION_ID (fixed by the manifest key) unless configured otherwise, `null` for none;
 * 4. on the web in Firefox, which has no externally_connectable: the extension's site bridge on this page
 *    (window.imageQueryAiBridge, a content script of the extension; see src/extension/site-link/site-bridge.ts);
 * 5. otherwise nothing is sent. Never window.postMessage: any other extension's content script on the page
 *    could read the tokens from it.
 *
 * Sending never throws and never rejects: a failure (no receiver, extension reloaded...) is logged as a warning.
 */
import { EXTENSION_ID } from "~core/extension-id"
import { SITE_BRIDGE_GLOBAL } from "~core/extension-message-types"
import { type WebsiteMessage } from "~core/extension-messages"

export type ExtensionTransport = (message: WebsiteMessage) => unknown

export interface ExtensionNotifierConfig {
  /** The extension's id, needed to reach it from a web page: EXTENSION_ID when left out, null to send nothing from the web. */
  extensionId?: string | null
  /** Replaces the chrome.runtime transport entirely. */
  transport?: ExtensionTransport
}

let notifierConfig: ExtensionNotifierConfig = {}

/** Replaces the whole configuration (call with `{}` to go back to the defaults). */
export function configureExtensionNotifier(next: ExtensionNotifierConfig): void {
  notifierConfig = { ...next }
}

/** The part of a chrome.runtime.Port the site uses. */
export interface ExtensionPort {
  postMessage(message: unknown): void
  disconnect(): void
  onMessage: { addListener(listener: (message: unknown) => void): void }
  onDisconnect: { addListener(listener: () => void): void }
}

interface RuntimeLike {
  sendMessage: (...args: unknown[]) => unknown
  connect?: (...args: unknown[]) => ExtensionPort
}

function chromeRuntime(): RuntimeLike | null {
  const runtime = (globalThis as { chrome?: { runtime?: Partial<RuntimeLike> } }).chrome?.runtime
  return typeof runtime?.sendMessage === "function" ? (runtime as RuntimeLike) : null
}

interface SiteBridge {
  sendMessage(message: unknown): boolean
  connect(name: string): ExtensionPort | null
}

/** Firefox: the bridge the extension's content script put on this page, when there is one. */
function siteBridge(): SiteBridge | null {
  const bridge = (globalThis as unknown as Record<string, Partial<SiteBridge> | undefined>)[SITE_BRIDGE_GLOBAL]
  return typeof bridge?.sendMessage === "function" && typeof bridge.connect === "function" ? (bridge as SiteBridge) : null
}

function configuredExtensionId(): string | null {
  return notifierConfig.extensionId === undefined ? EXTENSION_ID : notifierConfig.extensionId
}

/**
 * Opens the port named `name` to the extension, by the same rules as the transport below (inside an extension
 * page: our own runtime; on the web: the configured extension id, when the browser exposes chrome.runtime),
 * or answers null when there is nothing to connect to.
 */
export function resolveExtensionConnector(name: string): (() => ExtensionPort) | null {
  if (notifierConfig.transport) return null
  const runtime = chromeRuntime()
  const connect = runtime?.connect
  const bridge = runtime ? null : siteBridge()
  if (bridge) {
    return () => {
      const port = bridge.connect(name)
      if (!port) throw new Error(`The extension's site bridge has no port named ${name}`)
      return port
    }
  }
  if (!runtime || typeof connect !== "function") return null
  if (insideExtensionPage()) return () => connect.call(runtime, { name })
  const extensionId = configuredExtensionId()
  return extensionId ? () => connect.call(runtime, extensionId, { name }) : null
}

function insideExtensionPage(): boolean {
  return typeof location !== "undefined" && /^(chrome|moz)-extension:$/.test(location.protocol)
}

/** The transport that `notifyExtension` would use now, or null when the message would not be sent. */
export function resolveExtensionTransport(): ExtensionTransport | null {
  const { transport } = notifierConfig
  const extensionId = configuredExtensionId()
  if (transport) return transport
  const runtime = chromeRuntime()
  const bridge = runtime ? null : siteBridge()
  if (bridge) {
    return (message) => {
      if (!bridge.sendMessage(message)) throw new Error("The extension's site bridge refused the message")
    }
  }
  if (!runtime) return null
  if (insideExtensionPage()) return (message) => runtime.sendMessage(message)
  if (extensionId) return (message) => runtime.sendMessage(extensionId, message)
  return null
}

/** Sends `message`; resolves true when a transport accepted it, false when nothing was sent or sending failed. */
export async function notifyExtension(message: WebsiteMessage): Promise<boolean> {
  try {
    const transport = resolveExtensionTransport()
    if (!transport) return false
    await transport(message)
    return true
  } catch (error) {
    console.warn(`Could not notify the extension (${message.type})`, error)
    return false
  }
}
