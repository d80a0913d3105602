/**
 * The side panel's questions to the page index about where images are (Find in images): how far each image is from
 * the view, so the images the user sees are read first, and *Show on page*.
 */
import {
  PAGE_IMAGE_ORDER_REQUEST,
  SHOW_IMAGE_ON_PAGE,
  type PageImageOrderRequest,
  type PageImageOrderResponse,
  type ShowImageOnPage,
  type ShowImageOnPageResponse
} from "~extension/messages"

import { indexFrame } from "../page-frames"

/** Each image's distance from the view, asked of every frame that holds one; a frame that does not answer gives none. */
export async function viewportDistances(tabId: number, frameIds: Iterable<number>): Promise<Map<string, number>> {
  const request: PageImageOrderRequest = { type: PAGE_IMAGE_ORDER_REQUEST }
  const answers = await Promise.all(
    [...new Set(frameIds)].map((frameId) =>
      (chrome.tabs.sendMessage(tabId, request, { frameId }) as Promise<PageImageOrderResponse | undefined>).catch(() => undefined)
    )
  )
  const distances = new Map<string, number>()
  for (const answer of answers) {
    for (const { url, distance } of answer?.images ?? []) if (!distances.has(url)) distances.set(url, distance)
  }
  return distances
}

/** Scrolls the page to the image and outlines it; false when the page no longer holds it (or cannot be asked). */
export async function showOnPage({ url, tabId, frameId = 0 }: { url: string; tabId: number; frameId?: number }): Promise<boolean> {
  const request: ShowImageOnPage = { type: SHOW_IMAGE_ON_PAGE, url }
  try {
    // A page reloaded since it was listed has lost its index: it is injected again first.
    await indexFrame(tabId, frameId)
    const answer = (await chrome.tabs.sendMessage(tabId, request, { frameId })) as ShowImageOnPageResponse | undefined
    return answer?.shown === true
  } catch {
    return false
  }
}
