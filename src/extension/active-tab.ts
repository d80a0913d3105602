import { PAGE_IMAGES_REQUEST, type PageImage, type PageImagesRequest, type PageImagesResponse } from "~core/page-images"

export async function getActiveTab(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true })
  return tab
}

/**
 * Asks the content script of a tab for its images. Pages the extension may not script (chrome://,
 * the web store) have no content script: they answer null.
 */
export async function requestPageImages(tabId: number): Promise<PageImage[] | null> {
  const request: PageImagesRequest = { type: PAGE_IMAGES_REQUEST }
  try {
    const response = (await chrome.tabs.sendMessage(tabId, request, { frameId: 0 })) as PageImagesResponse | undefined
    return response?.images ?? null
  } catch {
    return null
  }
}
