import type { PlasmoCSConfig } from "plasmo"

import { blobToDataUrl } from "~extension/data-url"
import { createImageWatcher, throttleLatest, type ImageWatcher } from "~extension/image-watcher"
import { listenForMessages, messageRoute } from "~extension/message-dispatch"
import { isOwnContextOutsideTabs } from "~extension/message-senders"
import {
  MAX_PAGE_BLOB_BYTES,
  PAGE_IMAGES_CHANGED,
  PAGE_IMAGES_REQUEST,
  pageImagesRequest,
  READ_PAGE_BLOB_REQUEST,
  readPageBlobRequest,
  type PageImagesChanged,
  type PageImagesResponse,
  type ReadPageBlobResponse
} from "~extension/messages"

export const config: PlasmoCSConfig = {
  matches: ["<all_urls>"],
  all_frames: true,
  run_at: "document_idle"
}

/** At most one PAGE_IMAGES_CHANGED a second per frame. */
const CHANGE_INTERVAL_MS = 1000

let watcher: ImageWatcher | null = null

const announceChange = throttleLatest((count: number) => {
  const message: PageImagesChanged = { type: PAGE_IMAGES_CHANGED, count }
  try {
    // Nobody listening (no side panel open) rejects: that is fine.
    chrome.runtime.sendMessage(message).catch(() => {})
  } catch {
    // The extension was reloaded or removed: this content script is orphaned.
    announceChange.cancel()
    watcher?.stop()
  }
}, CHANGE_INTERVAL_MS)

/**
 * The index starts with the first request, so pages nobody asks about pay nothing; from then on
 * it follows the page's changes and announces them. Each frame answers for its own document.
 */
function pageWatcher(): ImageWatcher {
  watcher ??= createImageWatcher({ onChange: announceChange }).start()
  return watcher
}

/** The bytes of one of this page's blob: images, for the side panel (which cannot read the page's blobs). */
async function readPageBlob(url: string): Promise<ReadPageBlobResponse> {
  try {
    const blob = await (await fetch(url)).blob()
    if (blob.size > MAX_PAGE_BLOB_BYTES) return { error: "The image is too large to analyse." }
    return { dataUrl: await blobToDataUrl(blob) }
  } catch {
    return { error: "The page no longer holds this image. Reload the page and try again." }
  }
}

// Requests come only from the extension's own pages (the side panel), never from another content script.
listenForMessages(chrome.runtime.onMessage, {
  [PAGE_IMAGES_REQUEST]: messageRoute({
    from: isOwnContextOutsideTabs,
    check: pageImagesRequest.parse,
    handle: (): PageImagesResponse => ({ images: pageWatcher().images() })
  }),
  [READ_PAGE_BLOB_REQUEST]: messageRoute({
    from: isOwnContextOutsideTabs,
    check: readPageBlobRequest.parse,
    handle: ({ message }) => readPageBlob(message.url)
  })
})
