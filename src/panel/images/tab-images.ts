/** The images of a tab, gathered from every frame's page index (each frame answers for its own document). */
import { PAGE_IMAGES_REQUEST, type PageImage, type PageImagesRequest, type PageImagesResponse } from "~extension/messaging/messages"

import { choicesOf } from "../settings/choices"
import { indexTabFrames } from "./page-frames"

export interface PanelImage extends PageImage {
  /** The frame whose content script reported the image (blob: URLs are read there). */
  frameId: number
}

async function frameImages(tabId: number, frameId: number): Promise<PageImage[] | null> {
  const request: PageImagesRequest = { type: PAGE_IMAGES_REQUEST }
  try {
    const response = (await chrome.tabs.sendMessage(tabId, request, { frameId })) as PageImagesResponse | undefined
    return response?.images ?? null
  } catch {
    return null
  }
}

/** Merges the frames' lists, top frame first, one entry per URL (the first frame to report it keeps it). */
export function mergeFrameImages(frames: readonly { frameId: number; images: readonly PageImage[] | null }[]): PanelImage[] | null {
  if (frames.every((frame) => frame.images === null)) return null
  const seen = new Set<string>()
  const merged: PanelImage[] = []
  for (const { frameId, images } of frames) {
    for (const image of images ?? []) {
      if (seen.has(image.url)) continue
      seen.add(image.url)
      merged.push({ ...image, frameId })
    }
  }
  return merged
}

/** Every image of the tab, or null when no frame of it can be asked (browser pages, the web store). */
export async function collectTabImages(tabId: number): Promise<PanelImage[] | null> {
  // A tab that cannot be scripted still gets the question in its top frame: it answers nothing, and the list says so.
  const indexed = await indexTabFrames(tabId)
  const ids = indexed.length ? [...new Set([0, ...indexed])] : [0]
  const frames = await Promise.all(ids.map(async (frameId) => ({ frameId, images: await frameImages(tabId, frameId) })))
  return mergeFrameImages(frames)
}

/** The Images list's Type filter, in the order shown, and its words. */
export const IMAGE_TYPE_LABELS = {
  any: "Any",
  jpeg: "JPEG",
  png: "PNG",
  gif: "GIF",
  webp: "WebP",
  svg: "SVG",
  other: "Other"
}
export const IMAGE_TYPE_FILTERS = choicesOf(IMAGE_TYPE_LABELS)
export type ImageTypeFilter = (typeof IMAGE_TYPE_FILTERS)[number]

const TYPE_BY_MIME: Record<string, ImageTypeFilter> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/pjpeg": "jpeg",
  "image/png": "png",
  "image/apng": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg"
}

/** The Type filter an image falls under; images whose type the URL does not tell are "other". */
export function imageTypeOf(image: Pick<PageImage, "mimeType">): Exclude<ImageTypeFilter, "any"> {
  const type = TYPE_BY_MIME[(image.mimeType ?? "").toLowerCase()]
  return type && type !== "any" ? type : "other"
}

export function matchesTypeFilter(image: Pick<PageImage, "mimeType">, filter: ImageTypeFilter): boolean {
  return filter === "any" || imageTypeOf(image) === filter
}
