/**
 * The page index in a tab's frames, injected when the side panel first needs it (listing the images, reading a
 * blob: image) rather than declared as a content script: the pages the panel never looks at run none of it.
 */
import { PAGE_INDEX_FILE } from "~extension/messaging/messages"

/**
 * Injects the page index into every frame of the tab (a frame that has it keeps its own) and answers the ids of the
 * frames that run it, the top frame first; [] when the tab may not be scripted (browser pages, the web store).
 */
export async function indexTabFrames(tabId: number): Promise<number[]> {
  try {
    const results = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [PAGE_INDEX_FILE] })
    const ids = results.map((result) => result.frameId).filter((id): id is number => typeof id === "number")
    return [...new Set(ids)].sort((a, b) => a - b)
  } catch {
    return []
  }
}

/** Injects the page index into one frame of the tab, if it is not there yet; false when the frame cannot be scripted. */
export async function indexFrame(tabId: number, frameId: number): Promise<boolean> {
  try {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [PAGE_INDEX_FILE] })
    return true
  } catch {
    return false
  }
}
