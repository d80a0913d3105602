/** Internal messages between the extension's own pages, content scripts and its service worker. */

/**
 * Sent by the on-image button's content script when the user activates it: the service worker
 * opens the side panel on the sender's tab with that image selected. The page is the sender's
 * tab (as for the context menu), so the message carries only the image's URL.
 */
export const OPEN_SIDE_PANEL_FOR_IMAGE = "OPEN_SIDE_PANEL_FOR_IMAGE" as const

export interface OpenSidePanelForImage {
  type: typeof OPEN_SIDE_PANEL_FOR_IMAGE
  url: string
}

/**
 * Longest image URL we accept (characters). data: URLs carry the whole image, and
 * chrome.storage.session holds 10 MB for everything the extension keeps there.
 */
export const MAX_IMAGE_URL_LENGTH = 4 * 1024 * 1024

const IMAGE_URL_PROTOCOLS = new Set(["http:", "https:", "blob:", "data:"])

/** An http(s), blob: or data:image/ URL of bounded length: what an image on a page can be loaded from. */
export function isAnalysableImageUrl(url: unknown): url is string {
  if (typeof url !== "string" || url.length === 0 || url.length > MAX_IMAGE_URL_LENGTH) return false
  if (url.startsWith("data:")) return /^data:image\/[\w.+-]+[;,]/i.test(url)
  // Parsing a long data: URL is skipped above; every other URL is short enough to parse.
  try {
    return IMAGE_URL_PROTOCOLS.has(new URL(url).protocol)
  } catch {
    return false
  }
}

/** The parts of chrome.runtime.MessageSender the service worker relies on. */
export interface ImageMessageSender {
  id?: string
  /** The sending document: a web page for a content script, an extension URL for our own pages. */
  url?: string
  tab?: { id?: number; url?: string; windowId?: number }
  frameId?: number
}

export interface ImageRequest {
  url: string
  tabId: number
  pageUrl?: string
}

export type ParseOpenSidePanelResult = { ok: true; request: ImageRequest } | { ok: false; error: string }

export const NOT_OUR_CONTENT_SCRIPT_ERROR = "Only Image Query AI's own content script may open the side panel for an image"
export const INVALID_IMAGE_URL_ERROR = "The image address must be an http, https, blob or data:image URL of at most 4 MB"

export function isOpenSidePanelForImage(message: unknown): message is { type: typeof OPEN_SIDE_PANEL_FOR_IMAGE } {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === OPEN_SIDE_PANEL_FOR_IMAGE
}

/**
 * Checks an OPEN_SIDE_PANEL_FOR_IMAGE message and its sender: it must come from this extension
 * (`extensionId`, i.e. chrome.runtime.id) and from a content script in a tab (a web page's frame:
 * our own pages have extension URLs, and no tab when not opened in one), and name an analysable
 * image URL.
 */
export function parseOpenSidePanelForImage(message: unknown, sender: ImageMessageSender, extensionId: string): ParseOpenSidePanelResult {
  if (!isOpenSidePanelForImage(message)) return { ok: false, error: "Not an OPEN_SIDE_PANEL_FOR_IMAGE message" }
  const tabId = sender.tab?.id
  const fromContentScript =
    typeof sender.url === "string" && !sender.url.startsWith(`chrome-extension://${extensionId}/`) && typeof sender.frameId === "number"
  if (sender.id !== extensionId || typeof tabId !== "number" || tabId < 0 || !fromContentScript) {
    return { ok: false, error: NOT_OUR_CONTENT_SCRIPT_ERROR }
  }
  const { url } = message as { url?: unknown }
  if (!isAnalysableImageUrl(url)) return { ok: false, error: INVALID_IMAGE_URL_ERROR }
  return { ok: true, request: { url, tabId, pageUrl: sender.tab?.url } }
}

/** Sent by the extension's own pages (popup, side panel) to the service worker: sign out here and on the site. */
export const SIGN_OUT_REQUEST = "SIGN_OUT_REQUEST"

export interface SignOutRequest {
  type: typeof SIGN_OUT_REQUEST
}
