import type { PlasmoCSConfig } from "plasmo"

import { isPageImagesRequest, type PageImagesResponse } from "~core/page-images"
import { collectPageImages } from "~extension/collect-images"

export const config: PlasmoCSConfig = {
  matches: ["<all_urls>"],
  all_frames: true,
  run_at: "document_idle"
}

chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse: (response: PageImagesResponse) => void) => {
  if (!isPageImagesRequest(message)) return false
  sendResponse({ images: collectPageImages() })
  return false
})
