/**
 * Capturing an area of a tab, from the side panel's button, the keyboard command or the page's menu: the overlay
 * on the page gives the area, chrome.tabs.captureVisibleTab the pixels (the overlay is gone by then), and the crop
 * becomes the panel's image through areaCaptureItem.
 */
import {
  areaCaptureItem,
  CAPTURE_FAILED_MESSAGE,
  CAPTURE_NOT_ALLOWED_MESSAGE,
  CAPTURED_AREA_TOO_LARGE_MESSAGE,
  cropBox,
  MAX_CAPTURED_AREA_URL_LENGTH,
  MIN_AREA_SIDE_CSS_PX,
  parseSelectedArea,
  type SelectedArea
} from "~extension/capture/area-capture"
import { blobToDataUrl } from "~extension/in-page/data-url"
import { openPanel } from "~extension/browser/side-panel"

import { cancelAreaOnPage, selectAreaOnPage, selectWholeViewOnPage } from "./area-overlay"

export const AREA_OVERLAY_HINT = "Drag to capture an area · Enter for the whole view · Esc to cancel"

/** Pages Chrome never lets an extension script or capture: its own pages, other extensions', the Web Store. */
const PROTECTED_PAGES = [
  /^(chrome|chrome-extension|chrome-search|chrome-untrusted|devtools|edge|about|view-source):/i,
  /^https:\/\/chromewebstore\.google\.com\//i,
  /^https:\/\/chrome\.google\.com\/webstore/i
]

/** Whether a tab's address may be captured; an address Chrome does not tell is tried (the attempt tells). */
export function isCapturablePageUrl(url: string | undefined): boolean {
  return url === undefined || !PROTECTED_PAGES.some((pattern) => pattern.test(url))
}

/** Chrome allows two captureVisibleTab calls a second per extension; one over it is refused, not queued. */
const CAPTURE_QUOTA_WAIT_MS = 600
const CAPTURE_ATTEMPTS = 3

async function captureVisibleTab(windowId: number): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await chrome.tabs.captureVisibleTab(windowId, { format: "png" })
    } catch (error) {
      if (attempt >= CAPTURE_ATTEMPTS || !/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(error))) throw error
      await new Promise((resolve) => setTimeout(resolve, CAPTURE_QUOTA_WAIT_MS))
    }
  }
}

/** Each capture's number: one started later wins, and an earlier one no longer writes its outcome. */
let latestCapture = 0

async function cropShot(shotUrl: string, selected: SelectedArea): Promise<{ dataUrl: string; width: number; height: number }> {
  const shot = await createImageBitmap(await (await fetch(shotUrl)).blob())
  const box = cropBox(selected, shot)
  const canvas = new OffscreenCanvas(box.width, box.height)
  const context = canvas.getContext("2d")
  if (!context) throw new Error("No 2D context in the service worker")
  context.drawImage(shot, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height)
  shot.close()
  // PNG keeps text sharp for OCR; a large photo-like area is kept as JPEG to fit the session storage.
  let dataUrl = await blobToDataUrl(await canvas.convertToBlob({ type: "image/png" }))
  if (dataUrl.length > MAX_CAPTURED_AREA_URL_LENGTH) dataUrl = await blobToDataUrl(await canvas.convertToBlob({ type: "image/jpeg", quality: 0.92 }))
  if (dataUrl.length > MAX_CAPTURED_AREA_URL_LENGTH) throw new RangeError(CAPTURED_AREA_TOO_LARGE_MESSAGE)
  return { dataUrl, width: box.width, height: box.height }
}

/**
 * Shows the overlay on the tab and, once an area is dragged, captures it. Every outcome, refusals included, is
 * written to areaCaptureItem for the side panel.
 */
export async function captureArea(tabId: number): Promise<void> {
  const capture = ++latestCapture
  const report = async (outcome: Parameters<typeof areaCaptureItem.set>[0]) => {
    if (capture === latestCapture) await areaCaptureItem.set(outcome)
  }
  const refuse = (message: string) => report({ state: "refused", message, at: Date.now() })

  const tab = await chrome.tabs.get(tabId).catch(() => undefined)
  if (tab?.id === undefined || !isCapturablePageUrl(tab.url)) return refuse(CAPTURE_NOT_ALLOWED_MESSAGE)
  // captureVisibleTab takes the window's active tab: the one to capture must be it.
  if (!tab.active) await chrome.tabs.update(tab.id, { active: true })
  await report({ state: "selecting", tabId, at: Date.now() })

  let selected: SelectedArea | null
  try {
    const [injection] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      func: selectAreaOnPage,
      args: [AREA_OVERLAY_HINT, MIN_AREA_SIDE_CSS_PX]
    })
    selected = parseSelectedArea(injection?.result)
  } catch {
    // Chrome refuses scripts on its own pages, the Web Store, file: pages without access and the PDF viewer.
    return refuse(CAPTURE_NOT_ALLOWED_MESSAGE)
  }
  if (!selected) return report({ state: "cancelled", at: Date.now() })

  try {
    const shot = await captureVisibleTab(tab.windowId)
    const cropped = await cropShot(shot, selected)
    await report({ state: "captured", tabId, pageUrl: tab.url, ...cropped, at: Date.now() })
  } catch (error) {
    if (error instanceof RangeError) return refuse(error.message)
    console.warn("Could not capture the area", error)
    return refuse(/cannot access|permission/i.test(String(error)) ? CAPTURE_NOT_ALLOWED_MESSAGE : CAPTURE_FAILED_MESSAGE)
  }
}

/** Removes the overlay from the tab; the capture waiting on it ends as cancelled. */
export async function cancelAreaCapture(tabId: number): Promise<void> {
  await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: cancelAreaOnPage }).catch(() => undefined)
}

/** Ends the overlay on the tab with the whole visible page: the capture waiting on it goes on with that area. */
export async function captureWholeView(tabId: number): Promise<void> {
  await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: selectWholeViewOnPage }).catch(() => undefined)
}

/**
 * The keyboard command and the page's menu: opens the side panel first (inside the user's gesture, before anything
 * is awaited), where the capture's outcome will show.
 */
export function captureAreaFromGesture(tab: chrome.tabs.Tab | undefined): Promise<void> {
  if (tab?.id === undefined) return areaCaptureItem.set({ state: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE, at: Date.now() })
  void openPanel({ windowId: tab.windowId }).catch((error: unknown) => console.warn("Could not open the side panel", error))
  return captureArea(tab.id)
}
