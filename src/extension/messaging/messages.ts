/**
 * The messages among the extension's own parts: its content scripts (inside web pages), its pages (side panel,
 * popup) and its service worker. The companion site's messages are another boundary: ~core/extension-messages.
 *
 * Each message is defined once, with a check per field (~core/protocol's defineMessage, not zod: content scripts
 * import this module), which gives its type, its check and its type guard. Answers are plain types: the side
 * that asks trusts the extension's own answer.
 *
 * SIGN_OUT_REQUEST belongs here although signing out also signs the site out: it goes from an extension page to
 * the service worker over chrome.runtime, and only our own pages may send it; the site never sees it (the
 * worker asks the site with EXTENSION_LOGOUT_REQUEST, on the site's port).
 */
import { defineMessage, type MessageOf } from "~core/protocol"

import { isAnalysableImageUrl } from "../in-page/image-url"

import type { MessageSender } from "./message-dispatch"
import { isOurContentScript } from "./message-senders"

/**
 * Where an image was found. "pasted" and "captured" are the side panel's own: a file pasted or dropped into it, and
 * an area of the page captured from the screen.
 */
export type PageImageSource = "img" | "picture" | "srcset" | "background" | "shadow-root" | "pasted" | "captured"

/** What a content script reports about one image of its page. */
export interface PageImage {
  /** Absolute URL the browser actually shows (currentSrc for responsive images). */
  url: string
  /** Intrinsic size in pixels; 0 while the image has not loaded. */
  width: number
  height: number
  /** Size on the page in CSS pixels. */
  renderedWidth: number
  renderedHeight: number
  alt: string
  source: PageImageSource
  /** MIME type guessed from the URL (data: URLs carry theirs); "" when the URL does not tell. */
  mimeType?: string
}

/**
 * The page index's script in the built extension (src/extension/in-page/page-index.entry.ts, bundled by
 * scripts/copy-extension-assets.mjs): injected into a tab's frames when the side panel first asks for their images.
 */
export const PAGE_INDEX_FILE = "page-index.js"

export const PAGE_IMAGES_REQUEST = "PAGE_IMAGES_REQUEST"

/**
 * Every frame runs its own page index (PAGE_INDEX_FILE), which answers only for its own document:
 * ask one frame with chrome.tabs.sendMessage(tabId, request, { frameId }). frameId 0 is the top
 * page; the ids of the other frames come from the results of the index's injection
 * (chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files }); the extension has "scripting",
 * webNavigation is not granted). Without a frameId every frame answers and Chrome keeps the first answer, so always
 * pass one.
 */
export const pageImagesRequest = defineMessage(PAGE_IMAGES_REQUEST, {})
export type PageImagesRequest = MessageOf<typeof pageImagesRequest>

export interface PageImagesResponse {
  images: PageImage[]
}

export const PAGE_IMAGES_CHANGED = "PAGE_IMAGES_CHANGED"

/**
 * Sent by a content script with chrome.runtime.sendMessage once it has been asked for its images
 * and the page's images change later (added, removed, another URL, loaded). At most one a second
 * per frame; sender.tab.id and sender.frameId tell which page and frame. count is the number of
 * distinct images now found in that frame.
 */
export const pageImagesChanged = defineMessage(PAGE_IMAGES_CHANGED, { count: (count): count is number => typeof count === "number" })
export type PageImagesChanged = MessageOf<typeof pageImagesChanged>

export const READ_PAGE_BLOB_REQUEST = "READ_PAGE_BLOB_REQUEST"
/** Largest blob a content script hands over. */
export const MAX_PAGE_BLOB_BYTES = 25 * 1024 * 1024

/**
 * Asks the content script of one frame for the bytes of a blob: image of its page (blob: URLs belong to the
 * page's origin: the extension's pages cannot fetch them). Answered with a data: URL, or an error in words.
 */
export const readPageBlobRequest = defineMessage(READ_PAGE_BLOB_REQUEST, { url: (url): url is string => typeof url === "string" && url.startsWith("blob:") })
export type ReadPageBlobRequest = MessageOf<typeof readPageBlobRequest>

export type ReadPageBlobResponse = { dataUrl: string } | { error: string }

export const OPEN_SIDE_PANEL_FOR_IMAGE = "OPEN_SIDE_PANEL_FOR_IMAGE"

export const NOT_OUR_CONTENT_SCRIPT_ERROR = "Only Image Query AI's own content script may open the side panel for an image"
export const INVALID_IMAGE_URL_ERROR = "The image address must be an http, https, blob or data:image URL of at most 4 MB"

/**
 * Sent by the on-image button's content script when the user activates it: the service worker
 * opens the side panel on the sender's tab with that image selected. The page is the sender's
 * tab (as for the context menu), so the message carries only the image's URL.
 */
/** The button's two uses: "analyse" (the panel on the image; also when absent, from an older content script) or "translate". */
const isImageAction = (action: unknown): action is "analyse" | "translate" | undefined => action === undefined || action === "analyse" || action === "translate"

export const openSidePanelForImage = defineMessage(OPEN_SIDE_PANEL_FOR_IMAGE, { url: isAnalysableImageUrl, action: isImageAction }, INVALID_IMAGE_URL_ERROR)
export type OpenSidePanelForImage = MessageOf<typeof openSidePanelForImage>

/** An image to select in the side panel, and the tab it belongs to. */
export interface ImageRequest {
  url: string
  tabId: number
  pageUrl?: string
  /** What the panel does with it: the default analysis, or *Translate image*. */
  action?: "analyse" | "translate"
}

/**
 * The image an OPEN_SIDE_PANEL_FOR_IMAGE message asks for, with its sender's tab and page. The sender is checked
 * here too (it must be our content script in a tab, see isOurContentScript), since the tab comes from it.
 */
export function parseOpenSidePanelForImage(
  message: unknown,
  sender: MessageSender,
  extensionId: string = chrome.runtime.id
): { ok: true; request: ImageRequest } | { ok: false; error: string } {
  if (!isOurContentScript(sender, extensionId)) return { ok: false, error: NOT_OUR_CONTENT_SCRIPT_ERROR }
  const parsed = openSidePanelForImage.parse(message)
  if (!parsed.ok) return parsed
  return { ok: true, request: { url: parsed.message.url, tabId: sender.tab.id, pageUrl: sender.tab.url, action: parsed.message.action ?? "analyse" } }
}

/** Sent by the extension's own pages (popup, side panel) to the service worker: sign out here and on the site. */
export const SIGN_OUT_REQUEST = "SIGN_OUT_REQUEST"

export const signOutRequest = defineMessage(SIGN_OUT_REQUEST, {})
export type SignOutRequest = MessageOf<typeof signOutRequest>

export const START_AREA_CAPTURE = "START_AREA_CAPTURE"
export const CANCEL_AREA_CAPTURE = "CANCEL_AREA_CAPTURE"
export const CAPTURE_WHOLE_VIEW = "CAPTURE_WHOLE_VIEW"

const isTabId = (tabId: unknown): tabId is number => typeof tabId === "number" && Number.isInteger(tabId) && tabId >= 0

/**
 * Sent by the side panel's "Capture area" button to the service worker: show the area overlay on that tab (the
 * page the panel shows). The result, or why there is none, comes back through areaCaptureItem.
 */
export const startAreaCapture = defineMessage(START_AREA_CAPTURE, { tabId: isTabId }, "The tab to capture must be a tab id")
export type StartAreaCapture = MessageOf<typeof startAreaCapture>

/** Sent by the side panel (Escape or Cancel there: the keyboard focus is in the panel, not on the page). */
export const cancelAreaCapture = defineMessage(CANCEL_AREA_CAPTURE, { tabId: isTabId }, "The tab to cancel must be a tab id")
export type CancelAreaCapture = MessageOf<typeof cancelAreaCapture>

/** Sent by the side panel's "Capture the whole view" (the keyboard's way to end a capture started there). */
export const captureWholeView = defineMessage(CAPTURE_WHOLE_VIEW, { tabId: isTabId }, "The tab to capture must be a tab id")
export type CaptureWholeView = MessageOf<typeof captureWholeView>

export const PAGE_IMAGE_ORDER_REQUEST = "PAGE_IMAGE_ORDER_REQUEST"

/**
 * Asks one frame's page index how far each of its images is from the part of the page in view, so the side panel
 * reads the images the user sees first (Find in images). Answered with PageImageOrderResponse.
 */
export const pageImageOrderRequest = defineMessage(PAGE_IMAGE_ORDER_REQUEST, {})
export type PageImageOrderRequest = MessageOf<typeof pageImageOrderRequest>

export interface PageImageOrderResponse {
  /** distance is 0 for an image in view, else the CSS pixels to scroll to it; images that take no room are farthest. */
  images: { url: string; distance: number }[]
}

export const PAGE_ACTIVITY_REQUEST = "PAGE_ACTIVITY_REQUEST"

/**
 * Asks one frame's page index how long the user has left its page alone (no scrolling, no input), so Find in images
 * reads while the page is quiet. Answered with PageActivityResponse.
 */
export const pageActivityRequest = defineMessage(PAGE_ACTIVITY_REQUEST, {})
export type PageActivityRequest = MessageOf<typeof pageActivityRequest>

export interface PageActivityResponse {
  /** Milliseconds since the page was last scrolled or used; very large when it was not since the reading began. */
  quietMs: number
}

export const SHOW_IMAGE_ON_PAGE = "SHOW_IMAGE_ON_PAGE"

/** Asks the frame's page index to scroll its page to the image and outline it for a moment (Find in images' *Show on page*). */
export const showImageOnPage = defineMessage(SHOW_IMAGE_ON_PAGE, { url: (url): url is string => typeof url === "string" && url.length > 0 })
export type ShowImageOnPage = MessageOf<typeof showImageOnPage>

/** shown is false when the page no longer holds the image. */
export interface ShowImageOnPageResponse {
  shown: boolean
}
