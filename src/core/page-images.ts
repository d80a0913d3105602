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
}

export const PAGE_IMAGES_REQUEST = "PAGE_IMAGES_REQUEST" as const

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
