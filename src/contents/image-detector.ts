import type { PlasmoCSConfig } from "plasmo"

import { isPageImagesRequest, PAGE_IMAGES_CHANGED, type PageImagesChanged, type PageImagesResponse } from "~core/page-images"
import { createImageWatcher, throttleLatest, type ImageWatcher } from "~extension/image-watcher"

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

chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse: (response: PageImagesResponse) => void) => {
  if (!isPageImagesRequest(message)) return false
  sendResponse({ images: pageWatcher().images() })
  return false
})
