/** What the content script reports about one image of a page, and the messages that carry it. */

export type PageImageSource = "img" | "picture" | "srcset" | "background" | "shadow-root"

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

export const PAGE_IMAGES_REQUEST = "PAGE_IMAGES_REQUEST" as const

/**
 * Every frame (all_frames) runs its own content script, which answers only for its own document:
 * ask one frame with chrome.tabs.sendMessage(tabId, request, { frameId }). frameId 0 is the top
 * page; the ids of the other frames come from chrome.scripting.executeScript({ target: { tabId,
 * allFrames: true }, func }) results (the extension has "scripting"; webNavigation is not granted).
 * Without a frameId every frame answers and Chrome keeps the first answer, so always pass one.
 */
export interface PageImagesRequest {
  type: typeof PAGE_IMAGES_REQUEST
}

export interface PageImagesResponse {
  images: PageImage[]
}

export function isPageImagesRequest(message: unknown): message is PageImagesRequest {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { type?: unknown }).type === PAGE_IMAGES_REQUEST
  )
}

/**
 * Sent by a content script with chrome.runtime.sendMessage once it has been asked for its images
 * and the page's images change later (added, removed, another URL, loaded). At most one a second
 * per frame; sender.tab.id and sender.frameId tell which page and frame. count is the number of
 * distinct images now found in that frame.
 */
export const PAGE_IMAGES_CHANGED = "PAGE_IMAGES_CHANGED" as const

export interface PageImagesChanged {
  type: typeof PAGE_IMAGES_CHANGED
  count: number
}

export function isPageImagesChanged(message: unknown): message is PageImagesChanged {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { type?: unknown }).type === PAGE_IMAGES_CHANGED &&
    typeof (message as { count?: unknown }).count === "number"
  )
}

/**
 * Asks the content script of one frame for the bytes of a blob: image of its page (blob: URLs belong to the
 * page's origin: the extension's pages cannot fetch them). Answered with a data: URL, or an error in words.
 */
export const READ_PAGE_BLOB_REQUEST = "READ_PAGE_BLOB_REQUEST" as const
/** Largest blob a content script hands over. */
export const MAX_PAGE_BLOB_BYTES = 25 * 1024 * 1024

export interface ReadPageBlobRequest {
  type: typeof READ_PAGE_BLOB_REQUEST
  url: string
}

export type ReadPageBlobResponse = { dataUrl: string } | { error: string }

export function isReadPageBlobRequest(message: unknown): message is ReadPageBlobRequest {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { type?: unknown }).type === READ_PAGE_BLOB_REQUEST &&
    typeof (message as { url?: unknown }).url === "string" &&
    (message as { url: string }).url.startsWith("blob:")
  )
}
