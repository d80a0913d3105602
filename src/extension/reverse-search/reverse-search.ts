/**
 * Opening "Search the web for this image" for one engine, from the side panel's menu or the page's context menu.
 * An image at a public address opens the engine's search page for that address. Any other image (a capture, a
 * paste, a page's blob: or data: image) is handed to the upload page, which asks before anything is uploaded.
 */
import * as z from "zod"

import { hasPublicAddress, REVERSE_SEARCH_ENGINE_IDS, reverseSearchEngine, type ReverseSearchEngineId } from "~core/analysis/reverse-search"

import { sessionItem } from "../storage/storage-item"

/** Where the upload page finds the image to read: the page's tab and frame for a page's blob: image. */
const uploadHandoffSchema = z.object({
  engine: z.enum(REVERSE_SEARCH_ENGINE_IDS),
  url: z.string(),
  tabId: z.number().int().optional(),
  frameId: z.number().int().optional()
})
export type ReverseSearchHandoff = z.infer<typeof uploadHandoffSchema>

export const UPLOAD_PAGE = "tabs/reverse-search.html"

/** One handoff per opened upload page, so that two searches started together each get their own image. */
export const uploadHandoffItem = (id: string) => sessionItem(`reverseSearchUpload:${id}`, uploadHandoffSchema)

export interface ReverseSearchRequest {
  engine: ReverseSearchEngineId
  url: string
  tabId?: number
  frameId?: number
  /** The tab the search starts from: the new tab opens beside it. */
  openerTab?: { id?: number; index: number; windowId: number }
}

export async function openReverseSearch({ engine: engineId, url, tabId, frameId, openerTab }: ReverseSearchRequest): Promise<void> {
  const engine = reverseSearchEngine(engineId)
  if (!engine) throw new Error(`Unknown search engine: ${engineId}`)
  const placement = openerTab ? { index: openerTab.index + 1, windowId: openerTab.windowId, ...(openerTab.id !== undefined ? { openerTabId: openerTab.id } : {}) } : {}
  if (hasPublicAddress(url)) {
    await chrome.tabs.create({ url: engine.searchUrl(url), ...placement })
    return
  }
  const id = crypto.randomUUID()
  await uploadHandoffItem(id).set({ engine: engine.id, url, tabId, frameId })
  await chrome.tabs.create({ url: chrome.runtime.getURL(`${UPLOAD_PAGE}#${id}`), ...placement })
}
