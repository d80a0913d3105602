/**
 * Firefox's site bridge: the companion site's way to the extension where the browser has no externally_connectable.
 *
 * In Chrome the site's pages call chrome.runtime.sendMessage(EXTENSION_ID, …) and connect(EXTENSION_ID, …), which
 * Chrome offers only to the origins the manifest lists. Firefox offers web pages nothing of the kind, so the Firefox
 * build declares this content script for the same build-time list of site origins (copy-extension-assets writes the
 * match patterns). It gives the page one object, `window.imageQueryAiBridge`, with the two calls the site needs:
 * - `sendMessage(message)`: a WEBSITE_* message to the extension (the site's sign-in, sync and sign-out); answers
 *   true when it was passed on, false when it was refused;
 * - `connect(name)`: the site-link port (SITE_LINK_PORT_NAME) on which the extension asks for the site's auth status
 *   and for its sign-out, and the site answers `{ success, error? }`.
 *
 * Threat model (what each rule below stops):
 * - A hostile page of another origin: the script is not injected there (manifest matches), and when it runs anyway
 *   (a redirect after injection, a wrong match) it checks the page's origin against the same list and installs nothing.
 * - A hostile frame inside a page of the site, or a hostile page framing the site: the bridge exists only in the top
 *   frame of a site page (all_frames is off and the script checks it); a frame of another origin cannot reach its
 *   parent's window object, and nothing travels by window.postMessage, which every frame and every other extension's
 *   content script in the page could read or forge.
 * - A token leaving for anyone but the extension: tokens go one way only, from the site's page (which holds them)
 *   through runtime.sendMessage, which reaches this extension alone. Toward the page the bridge passes only what the
 *   protocol defines for that direction, rebuilt field by field (`{ type, timestamp }` of a known EXTENSION_* request),
 *   so even a mistaken message from the extension could not carry a token into the page.
 * - Anything else the page sends: only the documented WEBSITE_* types are passed on, as a plain JSON copy (no
 *   getters, no functions, no page objects), and the extension's service worker checks sender and message again
 *   (siteMessageRoute: the sender's origin, that it is the tab's top frame, parseWebsiteMessage).
 * What it cannot stop: another extension with access to the site's pages can read what the page itself holds (as in
 * Chrome); that is the browser's permission model, not ours to change.
 *
 * The page calls into the bridge through Firefox's exportFunction/cloneInto, which `pageExposure` wraps; tests give
 * their own. No validation library here: this is a content script.
 */
import { KNOWN_EXTENSION_MESSAGE_TYPES, KNOWN_WEBSITE_MESSAGE_TYPES, SITE_BRIDGE_GLOBAL, SITE_LINK_PORT_NAME } from "~core/extension-message-types"
/** The bundled bridge's file in the Firefox build (scripts/copy-extension-assets.mjs writes it). */
export const SITE_BRIDGE_FILE = "site-bridge.js"

type Listener = (message: unknown) => void

/** The part of runtime.Port the bridge uses. */
export interface BridgePort {
  postMessage(message: unknown): void
  disconnect(): void
  onMessage: { addListener(listener: Listener): void }
  onDisconnect: { addListener(listener: () => void): void }
}

/** The page's view of the site-link port. */
export interface PagePort {
  postMessage(answer: unknown): void
  disconnect(): void
  onMessage: { addListener(listener: Listener): void }
  onDisconnect: { addListener(listener: () => void): void }
}

/** What the page sees as `window.imageQueryAiBridge`. */
export interface PageBridge {
  sendMessage(message: unknown): boolean
  connect(name: unknown): PagePort | null
}

/** How values cross into the page: Firefox's exportFunction and cloneInto in the real content script. */
export interface PageExposure {
  /** Defines `name` on the page's window as an object of these functions, callable by the page's scripts. */
  expose(name: string, bridge: PageBridge): void
  /** A copy of `value` (functions included) that the page's scripts can use. */
  toPage<T>(value: T): T
}

export interface SiteBridgeEnvironment {
  /** location.origin of the page the script runs in. */
  origin: string
  isTopFrame: boolean
  siteOrigins: readonly string[]
  runtime: { sendMessage(message: unknown): Promise<unknown>; connect(info: { name: string }): BridgePort }
  page: PageExposure
}

/** A plain JSON copy of what the page handed over, or null when it is not a plain object. */
function plainCopy(value: unknown): Record<string, unknown> | null {
  try {
    const copy: unknown = JSON.parse(JSON.stringify(value))
    return typeof copy === "object" && copy !== null && !Array.isArray(copy) ? (copy as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => typeof value === "string" && (list as readonly string[]).includes(value)

/** The extension → page direction: a known request's type and timestamp, nothing else. */
export function requestForPage(message: unknown): { type: string; timestamp: number } | null {
  const copy = plainCopy(message)
  if (!copy || !isOneOf(KNOWN_EXTENSION_MESSAGE_TYPES, copy.type) || typeof copy.timestamp !== "number") return null
  return { type: copy.type, timestamp: copy.timestamp }
}

/** The page → extension answer on the port: `{ success, error? }`, nothing else. */
export function answerFromPage(answer: unknown): { success: boolean; error?: string } | null {
  const copy = plainCopy(answer)
  if (!copy || typeof copy.success !== "boolean") return null
  return typeof copy.error === "string" ? { success: copy.success, error: copy.error } : { success: copy.success }
}

/** The page → extension message: a documented WEBSITE_* message as plain data, or null. */
export function messageFromPage(message: unknown): Record<string, unknown> | null {
  const copy = plainCopy(message)
  return copy && isOneOf(KNOWN_WEBSITE_MESSAGE_TYPES, copy.type) ? copy : null
}

function pagePort(port: BridgePort, page: PageExposure): PagePort {
  return page.toPage<PagePort>({
    postMessage(answer) {
      const checked = answerFromPage(answer)
      if (checked) port.postMessage(checked)
    },
    disconnect: () => port.disconnect(),
    onMessage: {
      addListener(listener) {
        port.onMessage.addListener((message) => {
          const request = requestForPage(message)
          if (request) listener(page.toPage(request))
        })
      }
    },
    onDisconnect: { addListener: (listener) => port.onDisconnect.addListener(() => listener()) }
  })
}

/** Installs the bridge on a top-level page of a trusted site origin; false (nothing installed) anywhere else. */
export function installSiteBridge({ origin, isTopFrame, siteOrigins, runtime, page }: SiteBridgeEnvironment): boolean {
  if (!isTopFrame || !siteOrigins.includes(origin)) return false
  page.expose(SITE_BRIDGE_GLOBAL, {
    sendMessage(message) {
      const checked = messageFromPage(message)
      if (!checked) return false
      runtime.sendMessage(checked).catch((error: unknown) => console.warn("Image Query AI could not pass the site's message on", error))
      return true
    },
    connect(name) {
      return name === SITE_LINK_PORT_NAME ? pagePort(runtime.connect({ name }), page) : null
    }
  })
  return true
}
