/**
 * The side panel's questions to the page index about where images are (Find in images): how far each image is from
 * the view, so the images the user sees are read first; how long the page has been left alone, so reading waits
 * while the user scrolls it; and *Show on page*.
 */
import {
  PAGE_ACTIVITY_REQUEST,
  PAGE_IMAGE_ORDER_REQUEST,
  SHOW_IMAGE_ON_PAGE,
  type PageActivityRequest,
  type PageActivityResponse,
  type PageImageOrderRequest,
  type PageImageOrderResponse,
  type ShowImageOnPage,
  type ShowImageOnPageResponse
} from "~extension/messaging/messages"

import { indexFrame } from "../images/page-frames"
import { whenPageQuiet } from "./read-loop"

/** How often the page is asked again which images are in view while its images are read. */
export const ORDER_REFRESH_MS = 3000
/** Reading waits until the page has been left alone this long: it never competes with the user scrolling it. */
export const PAGE_QUIET_MS = 1000
/** ...but a page that never stops (a ticker scrolled by a script) still gets an image read this often. */
export const LONGEST_PAGE_WAIT_MS = 10_000

/** Asks each frame once; a frame that does not answer (no page index, gone) gives undefined. */
function askFrames<Answer>(tabId: number, frameIds: Iterable<number>, request: { type: string }): Promise<(Answer | undefined)[]> {
  return Promise.all(
    [...new Set(frameIds)].map((frameId) => (chrome.tabs.sendMessage(tabId, request, { frameId }) as Promise<Answer | undefined>).catch(() => undefined))
  )
}

/** Each image's distance from the view, asked of every frame that holds one; a frame that does not answer gives none. */
export async function viewportDistances(tabId: number, frameIds: Iterable<number>): Promise<Map<string, number>> {
  const request: PageImageOrderRequest = { type: PAGE_IMAGE_ORDER_REQUEST }
  const answers = await askFrames<PageImageOrderResponse>(tabId, frameIds, request)
  const distances = new Map<string, number>()
  for (const answer of answers) {
    for (const { url, distance } of answer?.images ?? []) if (!distances.has(url)) distances.set(url, distance)
  }
  return distances
}

/** How long the page has been left alone: the least of its frames' answers; Infinity when none answers. */
export async function pageQuietMs(tabId: number, frameIds: Iterable<number>): Promise<number> {
  const request: PageActivityRequest = { type: PAGE_ACTIVITY_REQUEST }
  const answers = await askFrames<PageActivityResponse>(tabId, frameIds, request)
  return Math.min(Infinity, ...answers.map((answer) => (typeof answer?.quietMs === "number" ? answer.quietMs : Infinity)))
}

/**
 * Resolves once the tab's page has been left alone for a moment (asked of `frameIds()`, the frames that hold the
 * images being read), at the latest after LONGEST_PAGE_WAIT_MS, or when `signal` aborts: the pace of every reading of
 * a page's images.
 */
export function whenTabQuiet(tabId: number, frameIds: () => Iterable<number>, signal: AbortSignal): Promise<void> {
  return whenPageQuiet(() => pageQuietMs(tabId, frameIds()), signal, { quietMs: PAGE_QUIET_MS, longestWaitMs: LONGEST_PAGE_WAIT_MS })
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
